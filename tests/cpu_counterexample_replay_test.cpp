// A checker counterexample replayed on the CPU emulator reproduces the reported failure
// against the real work bodies: the same tasks blocked at the same steps on the same
// resources for a deadlock, the same steps racing for an aliasing race.
#include <map>
#include <regex>

#include "cpu_test_util.hpp"
#include "inversion_schedules.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"

using namespace cpu_test;

namespace {
// A one-warp-per-stage SMEM ring: every lane writes and reads its own word.
struct Ring : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, 64, 128); }
  void put(ts::ProducerStage const& si) const {
    ts::arch::smem_store(buf.ptr(si.context) + si.stage_idx * 32 + si.thread.lane(), int32_t(si.loop_offset));
  }
  void take(ts::ConsumerStage const& si) const {
    int32_t v = ts::arch::smem_load(buf.ptr(si.context) + si.stage_idx * 32 + si.thread.lane());
    if (v < 0) throw std::runtime_error("bad value");
  }
};

ts::PipelineConfig ring_cfg(int stages) {
  return ts::PipelineConfig::async_async({.num_stages = stages,
                                          .producer_group = {ts::Agent::Thread, 32},
                                          .consumer_group = {ts::Agent::Thread, 32}});
}

using Ping = inversion_fixture::Ping<Ring>;
using Pong = inversion_fixture::Pong<Ring>;
auto inversion() {
  auto x = ts::resource("x", Ring{}, ring_cfg(1));
  auto y = ts::resource("y", Ring{}, ring_cfg(1));
  auto a = ts::Task("A").warps(0, 1).reads(y).writes(x).schedule(Ping{}, x, y);
  auto b = ts::Task("B").warps(1, 1).reads(x).writes(y).schedule(Pong{}, x, y);
  return ts::TaskManager(ts::tasks(a, b), ts::DependencyGraph{{x, {y}}, {y, {x}}}, warnings_only());
}

// The producer commits every other iteration; the consumer waits every iteration.
struct HalfProducer {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, 2, 1, [&](auto& d) { d.every(2, [&] { x.acquire(); ts::work<&Ring::put>(x); x.commit(); }); });
  }
};
struct EveryConsumer {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, 2, 1, [&](auto&) { x.wait(); ts::work<&Ring::take>(x); x.release(); });
  }
};
struct Fill {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, 2, 1, [&](auto&) { x.acquire(); ts::work<&Ring::put>(x); x.commit(); });
  }
};
auto never_committed() {
  auto x = ts::resource("x", Ring{}, ring_cfg(2));
  auto p = ts::Task("P").warps(0, 1).writes(x).schedule(HalfProducer{}, x);
  auto c = ts::Task("C").warps(1, 1).reads(x).schedule(EveryConsumer{}, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, warnings_only());
}

// What the checker says is blocked: task name -> (step, resource) from lines like
// "A at y.wait() (step 2, loop, iteration 0) is blocked ...".
std::map<std::string, std::pair<int, std::string>> checker_blocked(ts::check::Counterexample const& c) {
  std::map<std::string, std::pair<int, std::string>> out;
  std::regex re(R"(^(\S+) at ([A-Za-z_][A-Za-z0-9_]*)\.\w+\(\) \(step (\d+))");
  for (auto const& line : c.blocked) {
    std::smatch m;
    if (std::regex_search(line, m, re)) out[m[1]] = {std::stoi(m[3]), m[2]};
  }
  return out;
}

// Replays tm's counterexample and checks the emulator's deadlock names exactly the
// tasks, steps and resources the checker named, with the expected operation.
template <class TM>
void expect_same_deadlock(TM& tm, std::map<std::string, std::string> const& want_resource) {
  auto const& cex = tm.last_counterexample();
  ASSERT_TRUE(cex);
  ASSERT_EQ(cex->kind, "deadlock") << tm.last_report().checker_text;
  auto named = checker_blocked(*cex);
  ASSERT_EQ(named.size(), want_resource.size()) << tm.last_report().checker_text;
  for (auto const& [task, res] : want_resource) {
    ASSERT_TRUE(named.count(task)) << task << "\n" << tm.last_report().checker_text;
    EXPECT_EQ(named[task].second, res) << tm.last_report().checker_text;
  }
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    try {
      auto st = ts::cpu::replay_counterexample(tm, {.seed = seed});
      ADD_FAILURE() << "expected a deadlock (seed " << seed << ", " << st.replay_events << " events)";
    } catch (ts::cpu::DeadlockError const& e) {
      std::map<std::string, ts::cpu::BlockedWarp> got;
      for (auto const& b : e.blocked()) got[b.task] = b;
      EXPECT_EQ(got.size(), want_resource.size()) << e.what();
      for (auto const& [task, res] : want_resource) {
        ASSERT_TRUE(got.count(task)) << task << " not blocked in:\n" << e.what();
        auto const& b = got[task];
        EXPECT_EQ(b.resource, res) << e.what();
        EXPECT_EQ(b.op, "wait") << e.what();
        EXPECT_EQ(b.step, named[task].first) << "checker:\n" << tm.last_report().checker_text << "\nemulator:\n" << e.what();
        EXPECT_NE(std::string(e.what()).find("task '" + task + "'"), std::string::npos) << e.what();
      }
    }
  }
}
}  // namespace

TEST(CpuCounterexampleReplay, AcquireOrderInversionDeadlocks) {
  auto tm = inversion();
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  ASSERT_TRUE(tm.verified());  // warning_mode: the emulator may run it
  EXPECT_NE(rep.checker_text.find("A at y.wait()"), std::string::npos) << rep.checker_text;
  EXPECT_NE(rep.checker_text.find("B at x.wait()"), std::string::npos) << rep.checker_text;
  auto ev = ts::cpu::replay_events(*tm.last_counterexample());
  ASSERT_EQ(ev.size(), tm.last_counterexample()->events.size());
  for (auto const& e : ev) EXPECT_EQ(e.iteration, 0);  // every step once before the hang
  expect_same_deadlock(tm, {{"A", "y"}, {"B", "x"}});
}

TEST(CpuCounterexampleReplay, WaitOnStageNeverCommittedDeadlocks) {
  auto tm = never_committed();
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  EXPECT_NE(rep.checker_text.find("C at x.wait()"), std::string::npos) << rep.checker_text;
  // The consumer's second wait is its occurrence 1 of the wait step.
  auto ev = ts::cpu::replay_events(*tm.last_counterexample());
  long long waits = 0;
  for (auto const& e : ev) {
    if (e.task == 1 && tm.model().tasks[1].schedule.steps[e.step].kind == ts::SyncOp::Wait) {
      EXPECT_EQ(e.iteration, waits++);
    }
  }
  expect_same_deadlock(tm, {{"C", "x"}});
}

TEST(CpuCounterexampleReplay, JsonExportGivesTheSameEvents) {
  for (int which = 0; which < 2; ++which) {
    auto run = [&](auto tm) {
      tm.print_and_verify();
      ASSERT_TRUE(tm.last_counterexample());
      ASSERT_FALSE(tm.last_counterexample_json().empty());
      auto const& c = *tm.last_counterexample();
      auto parsed = ts::cpu::counterexample_from_json(tm.last_counterexample_json());
      EXPECT_EQ(parsed.kind, c.kind);
      EXPECT_EQ(parsed.detail, c.detail);
      EXPECT_EQ(parsed.blocked, c.blocked);
      EXPECT_EQ(parsed.length, c.length);
      ASSERT_EQ(parsed.events.size(), c.events.size());
      for (size_t i = 0; i < c.events.size(); ++i) {
        EXPECT_EQ(parsed.events[i].task, c.events[i].task);
        EXPECT_EQ(parsed.events[i].step, c.events[i].step);
        EXPECT_EQ(parsed.events[i].section, c.events[i].section);
        EXPECT_EQ(parsed.events[i].iteration, c.events[i].iteration);
        EXPECT_EQ(parsed.events[i].tile, c.events[i].tile);
      }
      for (int cta : {0, 1}) {
        auto a = ts::cpu::replay_events(c, cta);
        auto b = ts::cpu::replay_events_from_json(tm.last_counterexample_json(), cta);
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
          EXPECT_EQ(a[i].cta, cta);
          EXPECT_EQ(b[i].cta, cta);
          EXPECT_EQ(a[i].task, b[i].task);
          EXPECT_EQ(a[i].step, b[i].step);
          EXPECT_EQ(a[i].iteration, b[i].iteration);
        }
      }
      // Replaying the parsed events reproduces the same hang.
      expect_error<ts::cpu::DeadlockError>(
          [&] { ts::cpu::replay(tm, ts::cpu::replay_events_from_json(tm.last_counterexample_json()), {.seed = 3}); },
          {"x.wait()"});
    };
    if (which == 0) run(inversion());
    else run(never_committed());
  }
}

TEST(CpuCounterexampleReplay, MalformedJsonAndNoCounterexampleAreRefused) {
  expect_error<ts::cpu::EmulationError>([] { ts::cpu::counterexample_from_json("{\"kind\": \"deadlock\""); },
                                        {"malformed counterexample JSON"});
  expect_error<ts::cpu::EmulationError>([] { ts::cpu::counterexample_from_json("{\"kind\": \"race\"}"); },
                                        {"events"});
  // A correct pipeline: SAFE, nothing to replay.
  auto x = ts::resource("x", Ring{}, ring_cfg(2));
  auto p = ts::Task("P").warps(0, 1).writes(x).schedule(Fill{}, x);
  auto c = ts::Task("C").warps(1, 1).reads(x).schedule(EveryConsumer{}, x);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, quiet());
  EXPECT_NE(tm.print_and_verify().verdict, ts::Verdict::Unsafe);
  EXPECT_FALSE(tm.last_counterexample());
  expect_error<ts::cpu::EmulationError>([&] { ts::cpu::replay_counterexample(tm); }, {"no counterexample"});
}

namespace {
// An aliasing race (S9.4): the consumer's scratch shares SMEM with the ring (one alias
// group, two phases) and is written after the ring stage is released, while the
// producer may already be rewriting the ring.
struct AliasRing : ts::MemoryResource {
  ts::SmemArray<int32_t> data;
  void declare_allocations(ts::Allocations& a) { a.smem("data", data, 32).alias("g", 0); }
  void put(ts::ProducerStage const& si) const {
    ts::arch::smem_store(data.ptr(si.context) + si.thread.lane(), int32_t(si.loop_offset));
  }
  void take(ts::ConsumerStage const& si) const {
    if (ts::arch::smem_load(data.ptr(si.context) + si.thread.lane()) < 0) throw std::runtime_error("bad value");
  }
};
struct AliasScratch : ts::MemoryResource {
  ts::SmemArray<int32_t> tmp;
  void declare_allocations(ts::Allocations& a) { a.smem("tmp", tmp, 32).alias("g", 1); }
  void scribble(ts::ProducerStage const& si) const { ts::arch::smem_store(tmp.ptr(si.context) + si.thread.lane(), -1); }
};
struct RingProducer {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 2, 1, [&](auto&) { r.acquire(); ts::work<&AliasRing::put>(r); r.commit(); });
  }
};
struct ScribbleAfterRelease {
  template <class S, class R, class X>
  void operator()(S& s, R& r, X& x) const {
    s.domain_loop(0, 2, 1, [&](auto&) {
      r.wait(); ts::work<&AliasRing::take>(r); r.release();
      ts::work<&AliasScratch::scribble>(x);  // the bug: the alias is used after release
    });
  }
};
}  // namespace

TEST(CpuCounterexampleReplay, AliasingRaceIsReproduced) {
  auto r = ts::resource("ring", AliasRing{}, ring_cfg(1));
  auto x = ts::resource("scratch", AliasScratch{});
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingProducer{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).writes(x).schedule(ScribbleAfterRelease{}, r, x);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {r}}}, warnings_only());
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  auto const& cex = tm.last_counterexample();
  ASSERT_TRUE(cex);
  ASSERT_EQ(cex->kind, "race") << rep.checker_text;
  EXPECT_NE(rep.checker_text.find("scratch written by Consumer"), std::string::npos) << rep.checker_text;
  EXPECT_NE(rep.checker_text.find("ring written by Producer"), std::string::npos) << rep.checker_text;
  EXPECT_NE(tm.last_counterexample_json().find("\"text\": \"scratch.scribble()\""), std::string::npos);
  EXPECT_NE(tm.last_counterexample_json().find("\"text\": \"ring.put()\""), std::string::npos);
  for (uint64_t seed = 1; seed <= 4; ++seed)
    expect_error<ts::cpu::RaceError>(
        [&] { ts::cpu::replay_counterexample(tm, {.seed = seed, .detect_races = true}); },
        {"data race on shared memory", "task 'Producer'", "task 'Consumer'", "scratch.scribble", "ring.put"});
}
