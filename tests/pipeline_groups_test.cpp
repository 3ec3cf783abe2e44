// Pipeline groups (SPEC S10, check S6.24): declaring a group checks the members'
// configs; the schedule convention (member ops on member handles, collapsed ops through
// ts::group) is checked at capture and by the S6.24 pass; the layout shares barriers
// ((N + 1) x S for Merge / Fork, 2 x S for FusedMerge); the exhaustive checker and the
// emulator see the same protocol, and the examples 11-13 run under several seeds.
#include <gtest/gtest.h>

#include "cpu_test_util.hpp"
#include "golden_util.hpp"
#include "groups/group_examples.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"

using namespace cpu_test;

namespace {

constexpr long long kElems = 700 + 9;

template <class Make, class Check>
void run_under_seeds(Make make, Check check) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    examples::GroupBuffers b(kElems);
    auto tm = make(b, quiet());
    auto rep = tm.print_and_verify();
    EXPECT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK)
        << ts::to_string(rep.verdict) << "\n" << rep.checker_text;
    int grid = 1 + int(seed % 3);
    ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = 2, .seed = seed, .detect_races = true});
    EXPECT_TRUE(check(b)) << "seed " << seed << " grid " << grid;
  }
}

TEST(PipelineGroupExamples, MergeSumUnderSeeds) {
  run_under_seeds([](auto& b, ts::Options o) { return examples::make_merge_sum(b, o); },
                  [](auto const& b) { return b.sum_matches(); });
}
TEST(PipelineGroupExamples, ForkCopyUnderSeeds) {
  run_under_seeds([](auto& b, ts::Options o) { return examples::make_fork_copy(b, o); },
                  [](auto const& b) { return b.fork_matches(); });
}
TEST(PipelineGroupExamples, FusedMergeSumUnderSeeds) {
  run_under_seeds([](auto& b, ts::Options o) { return examples::make_fused_merge_sum(b, o); },
                  [](auto const& b) { return b.sum_matches(); });
}

// ---- printouts: schedule table, register budget, memory report with shared barriers ----

TEST(PipelineGroupPrintout, Golden) {
  examples::GroupBuffers b(100);
  golden::expect("merge_sum.txt", golden::printed(examples::make_merge_sum(b, quiet())));
  golden::expect("fork_copy.txt", golden::printed(examples::make_fork_copy(b, quiet())));
  golden::expect("fused_merge_sum.txt", golden::printed(examples::make_fused_merge_sum(b, quiet())));
  golden::expect("merge_sum.json", examples::make_merge_sum(b, quiet()).to_json() + "\n");
}

// ---- layout: shared barriers ----

uint64_t barrier_bytes(ts::LaunchLayout const& L) {
  uint64_t n = 0;
  for (auto const& p : L.placements)
    if (p.allocation == "full_barriers" || p.allocation == "empty_barriers") n += p.size;
  return n;
}

TEST(PipelineGroupLayout, MergeSharesTheEmptyBarriers) {
  examples::GroupBuffers b(kElems);
  auto tm = examples::make_merge_sum(b, quiet());
  auto const& L = tm.layout();
  int x = tm.model().find_resource("ring_x"), y = tm.model().find_resource("ring_y");
  EXPECT_EQ(barrier_bytes(L), 3u * examples::kRingStages * 8);  // (N + 1) x S
  EXPECT_EQ(L.pipes[x].empty_offset, L.pipes[y].empty_offset);
  EXPECT_NE(L.pipes[x].full_offset, L.pipes[y].full_offset);
  EXPECT_TRUE(L.pipes[x].group_lead);
  EXPECT_FALSE(L.pipes[y].group_lead);
  EXPECT_EQ(L.pipes[y].empty_arrivals, 32);  // the consumer warp releases once for both
}

TEST(PipelineGroupLayout, ForkSharesTheFullBarriers) {
  examples::GroupBuffers b(kElems);
  auto tm = examples::make_fork_copy(b, quiet());
  auto const& L = tm.layout();
  int a = tm.model().find_resource("ring_a"), bb = tm.model().find_resource("ring_b");
  EXPECT_EQ(barrier_bytes(L), 3u * examples::kRingStages * 8);
  EXPECT_EQ(L.pipes[a].full_offset, L.pipes[bb].full_offset);
  EXPECT_NE(L.pipes[a].empty_offset, L.pipes[bb].empty_offset);
  EXPECT_EQ(L.pipes[a].full_arrivals, 32);
}

TEST(PipelineGroupLayout, FusedMergeSharesBothAndSumsProducerArrivals) {
  examples::GroupBuffers b(kElems);
  auto tm = examples::make_fused_merge_sum(b, quiet());
  auto const& L = tm.layout();
  int x = tm.model().find_resource("ring_x"), y = tm.model().find_resource("ring_y");
  EXPECT_EQ(barrier_bytes(L), 2u * examples::kRingStages * 8);  // 2 x S
  EXPECT_EQ(L.pipes[x].full_offset, L.pipes[y].full_offset);
  EXPECT_EQ(L.pipes[x].empty_offset, L.pipes[y].empty_offset);
  EXPECT_EQ(L.pipes[x].full_arrivals, 2);  // one arrive.expect_tx per producer
  EXPECT_EQ(tm.model().groups.at(0).total_bytes, 2 * examples::kChunk * 2);
}

// ---- declaring a group (ConfigError) ----

ts::PipelineConfig async_cfg(int stages, int consumer_threads = 32) {
  return ts::PipelineConfig::async_async({.num_stages = stages,
                                          .producer_group = {ts::Agent::Thread, 32},
                                          .consumer_group = {ts::Agent::Thread, consumer_threads}});
}

std::string config_error(std::function<void()> f) {
  try {
    f();
  } catch (ts::ConfigError const& e) {
    return e.diagnostic().check + ": " + e.what();
  }
  return "(no error)";
}

TEST(PipelineGroupConfig, RejectsMismatchedMembers) {
  using examples::SmemRing;
  auto text = config_error([] {
    ts::pipeline_group("g", ts::GroupMode::Merge, ts::resource("a", SmemRing{}, async_cfg(4)),
                       ts::resource("b", SmemRing{}, async_cfg(2)));
  });
  EXPECT_NE(text.find("S6.24.stages-differ"), std::string::npos) << text;
  EXPECT_NE(text.find("'b'"), std::string::npos) << text;
  EXPECT_NE(text.find("Expected 4"), std::string::npos) << text;

  text = config_error([] {
    ts::pipeline_group("g", ts::GroupMode::Merge, ts::resource("a", SmemRing{}, async_cfg(4, 32)),
                       ts::resource("b", SmemRing{}, async_cfg(4, 64)));
  });
  EXPECT_NE(text.find("S6.24.collapsed-group-size"), std::string::npos) << text;

  // Fork collapses the producer side: a thread producer and a TMA producer cannot share one commit.
  text = config_error([] {
    auto tma = ts::PipelineConfig::tma_async({.num_stages = 4, .num_bytes = 64, .consumer_group = {ts::Agent::Thread, 32}});
    ts::pipeline_group("g", ts::GroupMode::Fork, ts::resource("a", SmemRing{}, async_cfg(4)),
                       ts::resource("b", SmemRing{}, tma));
  });
  EXPECT_NE(text.find("S6.24.collapsed-kind"), std::string::npos) << text;

  text = config_error([] {
    ts::pipeline_group("g", ts::GroupMode::Merge, ts::resource("a", SmemRing{}, async_cfg(4)),
                       ts::resource("b", SmemRing{}));
  });
  EXPECT_NE(text.find("S6.24.member-not-pipelined"), std::string::npos) << text;

  text = config_error([] { ts::pipeline_group("g", ts::GroupMode::Merge, ts::resource("a", SmemRing{}, async_cfg(4))); });
  EXPECT_NE(text.find("S6.24.group-size"), std::string::npos) << text;

  text = config_error([] {
    auto a = ts::resource("a", SmemRing{}, async_cfg(4));
    auto b = ts::resource("b", SmemRing{}, async_cfg(4));
    auto c = ts::resource("c", SmemRing{}, async_cfg(4));
    ts::pipeline_group("g1", ts::GroupMode::Merge, a, b);
    ts::pipeline_group("g2", ts::GroupMode::Merge, b, c);
  });
  EXPECT_NE(text.find("S6.24.member-in-two-groups"), std::string::npos) << text;
}

TEST(PipelineGroupConfig, NearMissForkWithDifferentConsumersIsAccepted) {
  // Only the collapsed side must agree: Fork consumers may differ in size.
  using examples::SmemRing;
  EXPECT_EQ(config_error([] {
              ts::pipeline_group("g", ts::GroupMode::Fork, ts::resource("a", SmemRing{}, async_cfg(4, 32)),
                                 ts::resource("b", SmemRing{}, async_cfg(4, 64)));
            }),
            "(no error)");
}

// ---- the schedule convention ----

struct LoneRelease {  // Merge consumer releasing each member on its own
  template <class S, class A, class B, class Out>
  void operator()(S& s, A& a, B& b, Out& out) const {
    s.domain_loop(s.block_idx(), out->chunks(), s.grid_blocks(), [&] {
      ts::group(a, b).wait();
      auto x = ts::work<&examples::SmemRing::take>(a);
      auto y = ts::work<&examples::SmemRing::take>(b);
      ts::work<&examples::SumOutput::store_sum>(out, x, y);
      a.release();
      b.release();
    });
  }
};
struct GroupAcquireInMerge {  // a Merge producer using the group view on its own side
  template <class S, class In, class A, class B>
  void operator()(S& s, In& in, A& a, B& b) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ts::group(a, b).acquire();
      auto v = ts::work<&examples::ChunkInput::load>(in);
      ts::work<&examples::SmemRing::put>(a, v);
      ts::work<&examples::SmemRing::put>(b, v);
      ts::group(a, b).commit();
    });
  }
};
struct ForeignView {  // names a resource outside the group (ts::group(a) alone does not compile)
  template <class S, class A, class B, class Out>
  void operator()(S& s, A& a, B& b, Out& out) const {
    s.domain_loop(0, 2, 1, [&] {
      ts::group(a, out).wait();
      (void)b;
    });
  }
};

template <class Consumer, class Producer = examples::RingProducer>
auto merge_with(examples::GroupBuffers& b, bool three_members = false) {
  using namespace examples;
  auto in_x = ts::resource("in_x", ChunkInput{{}, b.x.data(), b.n});
  auto in_y = ts::resource("in_y", ChunkInput{{}, b.y.data(), b.n});
  auto ring_x = ts::resource("ring_x", SmemRing{}, lane_ring_config());
  auto ring_y = ts::resource("ring_y", SmemRing{}, lane_ring_config());
  auto ring_z = ts::resource("ring_z", SmemRing{}, lane_ring_config());
  if (three_members) ts::pipeline_group("xy", ts::GroupMode::Merge, ring_x, ring_y, ring_z);
  else ts::pipeline_group("xy", ts::GroupMode::Merge, ring_x, ring_y);
  auto out = ts::resource("out", SumOutput{{}, b.out.data(), b.n});
  auto px = ts::Task("ProducerX").warps(0, 1).reads(in_x).writes(ring_x).schedule(RingProducer{}, in_x, ring_x);
  auto py = ts::Task("ProducerY").warps(1, 1).reads(in_y).writes(ring_y).schedule(RingProducer{}, in_y, ring_y);
  auto c = ts::Task("Sum").warps(2, 1).reads(ring_x, ring_y).writes(out).schedule(Consumer{}, ring_x, ring_y, out);
  return ts::TaskManager(ts::tasks(px, py, c),
                         ts::DependencyGraph{{ring_x, {in_x}}, {ring_y, {in_y}}, {out, {ring_x, ring_y}}},
                         warnings_only());
}

ts::Diagnostic const* find(ts::VerifyReport const& r, std::string const& id) {
  for (auto const& d : r.diagnostics)
    if (d.check == id) return &d;
  return nullptr;
}

TEST(PipelineGroupChecks, MemberOpOnCollapsedSideRejected) {
  examples::GroupBuffers b(64);
  auto tm = merge_with<LoneRelease>(b);
  auto rep = tm.print_and_verify();
  auto d = find(rep, "S6.24.member-op-on-collapsed-side");
  ASSERT_TRUE(d) << check_ids(rep);
  EXPECT_EQ(d->task, "Sum");
  EXPECT_EQ(d->resource, "ring_x");
  EXPECT_EQ(d->expected, "ts::group(ring_x, ring_y).release()");
}

TEST(PipelineGroupChecks, GroupOpOnMemberSideRejected) {
  using namespace examples;
  GroupBuffers b(64);
  auto in = ts::resource("in", ChunkInput{{}, b.x.data(), b.n});
  auto ring_a = ts::resource("ring_a", SmemRing{}, lane_ring_config());
  auto ring_b = ts::resource("ring_b", SmemRing{}, lane_ring_config());
  ts::pipeline_group("ab", ts::GroupMode::Merge, ring_a, ring_b);
  auto out = ts::resource("out", SumOutput{{}, b.out.data(), b.n});
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(ring_a, ring_b).schedule(GroupAcquireInMerge{}, in, ring_a, ring_b);
  auto c = ts::Task("Sum").warps(1, 1).reads(ring_a, ring_b).writes(out).schedule(MergeSumConsumer{}, ring_a, ring_b, out);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring_a, {in}}, {ring_b, {in}}, {out, {ring_a, ring_b}}},
                            warnings_only());
  auto rep = tm.print_and_verify();
  auto d = find(rep, "S6.24.group-op-on-member-side");
  ASSERT_TRUE(d) << check_ids(rep);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->actual, "ts::group(ring_a, ring_b).acquire()");
}

TEST(PipelineGroupChecks, UnusedMemberRejected) {
  examples::GroupBuffers b(64);
  auto tm = merge_with<examples::MergeSumConsumer>(b, /*three_members=*/false);
  EXPECT_FALSE(find(tm.print_and_verify(), "S6.24.member-unused"));  // near miss: both members used
  // A three-member group whose third member no task uses: the view names two of three.
  examples::GroupBuffers b3(64);
  try {
    auto tm3 = merge_with<examples::MergeSumConsumer>(b3, /*three_members=*/true);
    FAIL() << "expected a capture error";
  } catch (ts::CaptureError const& e) {
    EXPECT_EQ(e.diagnostic().check, "S6.24.group-view-member");
    EXPECT_NE(std::string(e.what()).find("ring_z"), std::string::npos) << e.what();
  }
}

struct ProduceOnly {
  template <class S, class In, class Ring>
  void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, 2, 1, [&] {
      ring.acquire();
      auto v = ts::work<&examples::ChunkInput::load>(in);
      ts::work<&examples::SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};

TEST(PipelineGroupChecks, MemberNoTaskUsesRejected) {
  using namespace examples;
  GroupBuffers b(64);
  auto in = ts::resource("in", ChunkInput{{}, b.x.data(), b.n});
  auto ring_x = ts::resource("ring_x", SmemRing{}, lane_ring_config());
  auto ring_y = ts::resource("ring_y", SmemRing{}, lane_ring_config());
  ts::pipeline_group("xy", ts::GroupMode::Fork, ring_x, ring_y);
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(ring_x).schedule(ProduceOnly{}, in, ring_x);
  auto o = warnings_only();
  o.exhaustive_check = false;
  auto tm = ts::TaskManager(ts::tasks(p), ts::DependencyGraph{{ring_x, {in}}}, o);
  auto rep = tm.print_and_verify();
  auto d = find(rep, "S6.24.member-unused");
  ASSERT_TRUE(d) << check_ids(rep);
  EXPECT_EQ(d->resource, "ring_y");
}

TEST(PipelineGroupChecks, ViewNamingANonMemberIsACaptureError) {
  examples::GroupBuffers b(64);
  try {
    auto tm = merge_with<ForeignView>(b);
    FAIL() << "expected a capture error";
  } catch (ts::CaptureError const& e) {
    EXPECT_EQ(e.diagnostic().check, "S6.24.group-view-member");
    EXPECT_EQ(e.diagnostic().task, "Sum");
    EXPECT_EQ(e.diagnostic().resource, "out");
    EXPECT_NE(std::string(e.what()).find("'out' is not a member"), std::string::npos) << e.what();
  }
}

// ---- checker and emulator agree on a group deadlock ----

// ProducerY stops one chunk short: the merged consumer's group wait can never complete.
struct ShortProducer {
  template <class S, class In, class Ring>
  void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, in->chunks() - 1, 1, [&] {
      ring.acquire();
      auto v = ts::work<&examples::ChunkInput::load>(in);
      ts::work<&examples::SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};
struct FullConsumer {
  template <class S, class A, class B, class Out>
  void operator()(S& s, A& a, B& b, Out& out) const {
    s.domain_loop(0, out->chunks(), 1, [&] {
      ts::group(a, b).wait();
      auto x = ts::work<&examples::SmemRing::take>(a);
      auto y = ts::work<&examples::SmemRing::take>(b);
      ts::work<&examples::SumOutput::store_sum>(out, x, y);
      ts::group(a, b).release();
    });
  }
};
struct FullProducer {
  template <class S, class In, class Ring>
  void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(0, in->chunks(), 1, [&] {
      ring.acquire();
      auto v = ts::work<&examples::ChunkInput::load>(in);
      ts::work<&examples::SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};

TEST(PipelineGroupChecker, ShortProducerDeadlocksInCheckerAndEmulator) {
  using namespace examples;
  GroupBuffers b(3 * kChunk);
  auto in_x = ts::resource("in_x", ChunkInput{{}, b.x.data(), b.n});
  auto in_y = ts::resource("in_y", ChunkInput{{}, b.y.data(), b.n});
  auto ring_x = ts::resource("ring_x", SmemRing{}, lane_ring_config());
  auto ring_y = ts::resource("ring_y", SmemRing{}, lane_ring_config());
  ts::pipeline_group("xy", ts::GroupMode::Merge, ring_x, ring_y);
  auto out = ts::resource("out", SumOutput{{}, b.out.data(), b.n});
  auto px = ts::Task("ProducerX").warps(0, 1).reads(in_x).writes(ring_x).schedule(FullProducer{}, in_x, ring_x);
  auto py = ts::Task("ProducerY").warps(1, 1).reads(in_y).writes(ring_y).schedule(ShortProducer{}, in_y, ring_y);
  auto c = ts::Task("Sum").warps(2, 1).reads(ring_x, ring_y).writes(out).schedule(FullConsumer{}, ring_x, ring_y, out);
  auto tm = ts::TaskManager(ts::tasks(px, py, c),
                            ts::DependencyGraph{{ring_x, {in_x}}, {ring_y, {in_y}}, {out, {ring_x, ring_y}}},
                            warnings_only());
  auto rep = tm.print_and_verify();
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  ASSERT_TRUE(tm.last_counterexample());
  EXPECT_EQ(tm.last_counterexample()->kind, "deadlock");
  EXPECT_NE(rep.checker_text.find("ring_y.wait()"), std::string::npos) << rep.checker_text;
  try {
    ts::cpu::replay_counterexample(tm, {.seed = 1});
    ADD_FAILURE() << "the emulator should deadlock too";
  } catch (ts::cpu::DeadlockError const& e) {
    bool sum_blocked_on_y = false;
    for (auto const& w : e.blocked()) sum_blocked_on_y |= w.task == "Sum" && w.resource == "ring_y";
    EXPECT_TRUE(sum_blocked_on_y) << e.what();
  }
}

}  // namespace

// ---- Fork with a TMA producer: one expect_tx of the summed bytes on the shared full barrier ----

namespace {

// One producer lane issues the chunk into both members' stages after one group acquire
// (the lead arms the shared full barrier with both members' bytes); each consumer waits
// its member (the shared barrier) and releases its own empty barrier.
struct ForkBulkProducer {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, a->chunks(), 1, [&] {
      ts::group(a, b).acquire();
      ts::work<&examples::BulkChunkRing::fetch>(a);
      ts::work<&examples::BulkChunkRing::fetch>(b);
      ts::group(a, b).commit();
    });
  }
};
struct BulkDrain {
  template <class S, class R, class Out>
  void operator()(S& s, R& r, Out& out) const {
    s.domain_loop(0, r->chunks(), 1, [&] {
      r.wait();
      auto v = ts::work<&examples::BulkChunkRing::take>(r);
      ts::work<&examples::ChunkOutput::store>(out, v);
      r.release();
    });
  }
};

}  // namespace

TEST(PipelineGroupExamples, ForkWithTmaProducerSumsTheBytesOnce) {
  using namespace examples;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    GroupBuffers b(5 * kChunk + 3);
    auto ra = ts::resource("ring_a", BulkChunkRing{{}, b.x.data(), b.n, {}}, bulk_ring_config());
    auto rb = ts::resource("ring_b", BulkChunkRing{{}, b.x.data(), b.n, {}}, bulk_ring_config());
    ts::pipeline_group("ab", ts::GroupMode::Fork, ra, rb);
    auto oa = ts::resource("out_a", ChunkOutput{{}, b.out.data(), b.n});
    auto ob = ts::resource("out_b", ChunkOutput{{}, b.out2.data(), b.n});
    auto p = ts::Task("Load").warps(0, 1).writes(ra, rb).schedule(ForkBulkProducer{}, ra, rb);
    auto ca = ts::Task("DrainA").warps(1, 1).reads(ra).writes(oa).schedule(BulkDrain{}, ra, oa);
    auto cb = ts::Task("DrainB").warps(2, 1).reads(rb).writes(ob).schedule(BulkDrain{}, rb, ob);
    auto tm = ts::TaskManager(ts::tasks(p, ca, cb), ts::DependencyGraph{{oa, {ra}}, {ob, {rb}}}, quiet());
    auto rep = tm.print_and_verify();
    for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
    auto const& L = tm.layout();
    int a = tm.model().find_resource("ring_a");
    EXPECT_EQ(L.pipes[a].stage_bytes, uint32_t(2 * kChunk * 2));  // the lead arms both members' bytes
    EXPECT_EQ(L.pipes[a].full_arrivals, 1);
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed, .detect_races = true});
    EXPECT_TRUE(b.fork_matches()) << "seed " << seed;
  }
}
