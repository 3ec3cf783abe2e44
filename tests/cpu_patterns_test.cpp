// The pattern examples 07-10 (SPEC S11) end to end: verified (static checks and the
// exhaustive checker), run on the CPU emulator under 8 seeds with race detection and
// compared to the host reference; and for each pattern the mistake it guards against,
// caught by the static checks, the checker or the emulator.
#include <gtest/gtest.h>

#include "cpu_test_util.hpp"
#include "patterns/patterns.hpp"
#include "ts/check/explore.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/verify/static_checks.hpp"

using namespace cpu_test;
namespace p = examples::patterns;

namespace {

constexpr long long kN = 1000 + 17;  // not a multiple of the chunk: the tail chunk is partial

bool has_check(std::vector<ts::Diagnostic> const& ds, std::string const& id, std::string const& task = "") {
  for (auto const& d : ds)
    if (d.check == id && (task.empty() || d.task == task)) return true;
  return false;
}

// Runs `tm` and says whether it failed: an emulator error or a result off the reference.
template <class TM>
bool run_fails(TM& tm, p::PatternBuffers const& b, ts::cpu::RunOptions o) {
  try {
    ts::cpu::run(tm, o);
  } catch (std::exception const&) {
    return true;
  }
  return !b.matches();
}

}  // namespace

// ---- 07: ping-pong ----
TEST(CpuPatterns, PingPongTransformUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    p::PatternBuffers b(kN);
    auto tm = p::make_pingpong_transform(b, quiet());
    EXPECT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
    int grid = 2 + int(seed % 3);
    ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = 2, .seed = seed, .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

namespace {
// Broken: hands the stage back before rewriting it in place, so the Loader's next fill
// and the in-place write touch the same bytes with nothing ordering them.
struct ReleaseBeforeTransform {
  template <class S, class PP, class Out>
  void operator()(S& s, PP& pp, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + p::kChunk - 1) / p::kChunk, s.grid_blocks(), [&] {
      pp.wait();
      pp.release();
      ts::work<&p::ChunkSink::store>(out, ts::work<&p::PingPongBuffer::transform_in_place>(pp));
    });
  }
};
}  // namespace

TEST(CpuPatterns, PingPongHandsTheStageBackOnlyAfterTheInPlaceWrite) {
  p::PatternBuffers b(kN);
  auto tm = p::make_pingpong_transform_with<ReleaseBeforeTransform>(b, warnings_only());
  auto rep = tm.print_and_verify();
  EXPECT_TRUE(has_warning(rep, "S6.6.work-bracketing")) << check_ids(rep);  // work after release
  // Both tasks write the same stage: the emulator's race detector sees the missing turn.
  for (uint64_t seed = 1; seed <= 3; ++seed)
    expect_error<ts::cpu::RaceError>(
        [&] { ts::cpu::run(tm, {.grid_blocks = 2, .resident_blocks = 2, .seed = seed, .detect_races = true}); },
        {"data race on shared memory", "pp.buf", "task 'Loader'", "task 'Transformer'"});
}

// ---- 08: split consumer ----
TEST(CpuPatterns, SplitConsumerUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    p::PatternBuffers b(kN);
    auto tm = p::make_split_consumer(b, quiet());
    auto rep = tm.print_and_verify();
    // The checker counts the Releaser's releases against the Waiter's waits (one consumer
    // slot): treating them as two consumers would leave commits unwaited (UNSAFE).
    EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << rep.checker_text;
    EXPECT_FALSE(has_check(rep.diagnostics, "S6.20.override-without-split"));
    int grid = 2 + int(seed % 3);
    ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = 2, .seed = seed, .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

namespace {
// Without the proxy: the Releaser releases on its own schedule, not after the Waiter.
struct WaitUseOnly {
  template <class S, class Ring, class Out>
  void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + p::kChunk - 1) / p::kChunk, s.grid_blocks(), [&] {
      ring.wait();
      ts::work<&p::ChunkSink::store>(out, ts::work<&p::SplitRing::take>(ring));
    });
  }
};
struct ReleaseBlindly {
  template <class S, class Ring, class Out>
  void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + p::kChunk - 1) / p::kChunk, s.grid_blocks(), [&] { ring.release(); });
  }
};
}  // namespace

namespace {
// The three tasks of example 08 with the proxy taken out (Waiter and Releaser given).
template <class Waiter, class Releaser>
auto split_without_proxy(p::PatternBuffers& b) {
  auto in = ts::resource("in", p::ChunkSource{{}, b.src.data(), b.n(), 0});
  auto out = ts::resource("out", p::ChunkSink{{}, b.dst.data(), b.n(), 0});
  auto ring = ts::resource("ring", p::SplitRing{},
                           ts::PipelineConfig::async_async({.num_stages = p::kSplitStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32},
                                                            .wait_signal_override = ts::Signal::All}));
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(p::SplitProducer{}, in, ring);
  auto waiter = ts::Task("Waiter").warps(1, 1).reads(ring).writes(out).schedule(Waiter{}, ring, out);
  auto releaser = ts::Task("Releaser").warps(2, 1).reads(ring).writes(out).schedule(Releaser{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, waiter, releaser), ts::DependencyGraph{{ring, {in}}, {out, {ring}}},
                         warnings_only());
}
}  // namespace

TEST(CpuPatterns, SplitConsumerWithoutTheProxyFails) {
  p::PatternBuffers b(kN);
  auto tm = split_without_proxy<WaitUseOnly, ReleaseBlindly>(b);
  auto rep = tm.print_and_verify();
  // The Releaser can release a stage the Waiter has not waited for: the checker names it.
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  ASSERT_TRUE(tm.last_counterexample());
  EXPECT_EQ(tm.last_counterexample()->kind, "unbalanced");
  EXPECT_NE(rep.checker_text.find("release before wait: Releaser runs ring.release()"), std::string::npos)
      << rep.checker_text;
  // On the emulator the early arrivals complete empty-barrier phases the Producer has not
  // reached, and the pipeline falls out of step.
  EXPECT_TRUE(run_fails(tm, b, {.grid_blocks = 2, .resident_blocks = 2, .seed = 1}));
}

// ---- 09: aliased staging ----
TEST(CpuPatterns, AliasedStagingUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    p::PatternBuffers b(kN, p::staging_out_elems(kN));
    auto tm = p::make_aliased_staging(b, quiet());
    auto rep = tm.print_and_verify();
    EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << rep.checker_text;
    EXPECT_NE(rep.checker_text.find("Watched alias pair: group epilogue: ring.data (phase 0) / staging.rows (phase 1)"),
              std::string::npos)
        << rep.checker_text;
    ts::cpu::run(tm, {.grid_blocks = p::staging_tiles(kN), .resident_blocks = 1 + int(seed % 3), .seed = seed,
                      .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuPatterns, AliasedStagingSharesOneRegion) {
  p::PatternBuffers b(kN, p::staging_out_elems(kN));
  auto tm = p::make_aliased_staging(b, quiet());
  std::ostringstream os;
  tm.print(os);
  EXPECT_NE(os.str().find("region 512 B, saves 512 B"), std::string::npos) << os.str();
  auto const& L = tm.layout();
  uint64_t ring_at = 1, staging_at = 2;
  for (auto const& pl : L.placements) {
    if (pl.resource == "ring" && pl.allocation == "data") ring_at = pl.offset;
    if (pl.resource == "staging" && pl.allocation == "rows") staging_at = pl.offset;
  }
  EXPECT_EQ(ring_at, staging_at);
}

TEST(CpuPatterns, ClearingStagingUpFrontIsAnAliasingRace) {
  p::PatternBuffers b(kN, p::staging_out_elems(kN));
  auto tm = p::make_aliased_staging_broken(b, warnings_only());
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  auto const& cex = tm.last_counterexample();
  ASSERT_TRUE(cex);
  ASSERT_EQ(cex->kind, "race") << rep.checker_text;
  // Both tasks and both steps are named.
  EXPECT_NE(rep.checker_text.find("staging written by Reducer"), std::string::npos) << rep.checker_text;
  EXPECT_NE(rep.checker_text.find("ring written by Loader"), std::string::npos) << rep.checker_text;
  EXPECT_NE(tm.last_counterexample_json().find("\"text\": \"staging.clear()\""), std::string::npos);
  EXPECT_NE(tm.last_counterexample_json().find("\"text\": \"ring.fill()\""), std::string::npos);
  // Replayed on the emulator against the real work bodies: the same two steps race.
  for (uint64_t seed = 1; seed <= 4; ++seed)
    expect_error<ts::cpu::RaceError>(
        [&] {
          ts::cpu::replay_counterexample(tm, {.grid_blocks = p::staging_tiles(kN), .resident_blocks = 2, .seed = seed,
                                              .detect_races = true});
        },
        {"data race on shared memory", "task 'Loader'", "task 'Reducer'", "staging.clear", "ring.fill"});
}

// ---- 10: domain-lane consumer ----
TEST(CpuPatterns, DomainLaneConsumerUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    p::PatternBuffers b(kN);
    auto tm = p::make_domain_lane_consumer(b, quiet());
    auto rep = tm.print_and_verify();
    EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << rep.checker_text;
    EXPECT_NE(rep.checker_text.find("unbalanced=0"), std::string::npos) << rep.checker_text;
    ts::cpu::run(tm, {.grid_blocks = p::lane_tiles(kN), .resident_blocks = 1 + int(seed % 3), .seed = seed,
                      .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuPatterns, LaneStartOutsideTheStrideIsRejectedByS6_12) {
  p::PatternBuffers b(kN);
  auto ds = ts::verify::run_static_checks(p::make_domain_lane_consumer_with<0, 2>(b, quiet()).model());
  ASSERT_TRUE(has_check(ds, "S6.12.domain-lane-start", "Lane1"));
  for (auto const& d : ds)
    if (d.check == "S6.12.domain-lane-start") {
      EXPECT_EQ(d.resource, "ring");
      EXPECT_EQ(d.expected, "start in [0, 2)");
      EXPECT_EQ(d.actual, "start 2");
    }
  // Near miss: lanes 0 and 1 pass every S6.12 rule.
  auto ok = ts::verify::run_static_checks(p::make_domain_lane_consumer_with<0, 1>(b, quiet()).model());
  for (auto const& d : ok) EXPECT_NE(d.check.rfind("S6.12", 0), 0u) << d.check;
}

TEST(CpuPatterns, TwoLanesOnOneStartFailInTheCheckerAndOnTheEmulator) {
  // Both starts are in [0, 2), so S6.12 accepts each lane on its own; the lanes do not
  // cover the ring together, which the checker finds (odd stages' commits are never
  // consumed) and the emulator shows (both lanes take stage 0, nobody takes stage 1).
  p::PatternBuffers b(kN);
  auto tm = p::make_domain_lane_consumer_with<0, 0>(b, warnings_only());
  auto rep = tm.print_and_verify();
  EXPECT_FALSE(has_check(rep.diagnostics, "S6.12.domain-lane-start"));
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  EXPECT_TRUE(run_fails(tm, b, {.grid_blocks = p::lane_tiles(kN), .resident_blocks = 2, .seed = 1}));
}

// The lane model and the split-consumer slots keep partial-order reduction exact.
TEST(CpuPatterns, CheckerReductionAgreesWithPlainSearch) {
  auto agree = [](ts::Model const& m, std::string const& name) {
    auto ps = ts::check::compile(m);
    for (long long k : {-1ll, 1ll, 2ll, 5ll}) {
      ts::check::Config c;
      c.parametric = k < 0;
      c.length = k;
      c.reduction = true;
      auto por = ts::check::explore(m, ps, c);
      c.reduction = false;
      auto bfs = ts::check::explore(m, ps, c);
      EXPECT_EQ(por.verdict, bfs.verdict) << name << " k=" << k;
      EXPECT_LE(por.stats.states, bfs.stats.states) << name;
    }
  };
  p::PatternBuffers b(kN), s(kN, p::staging_out_elems(kN));
  agree(p::make_pingpong_transform(b, quiet()).model(), "pingpong");
  agree(p::make_split_consumer(b, quiet()).model(), "split");
  agree(split_without_proxy<WaitUseOnly, ReleaseBlindly>(b).model(), "split-without-proxy");
  agree(p::make_aliased_staging(s, quiet()).model(), "staging");
  agree(p::make_aliased_staging_broken(s, quiet()).model(), "staging-broken");
  agree(p::make_domain_lane_consumer(b, quiet()).model(), "lanes");
  agree(p::make_domain_lane_consumer_with<0, 0>(b, quiet()).model(), "lanes-both-0");
}
