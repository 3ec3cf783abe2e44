// Shrunk failures the properties found, as hand-written schedules (not the generator).
// Each names the checker bug and the verdict it should give; those still failing are
// skipped with "known bug: ..." until the fix in src/check/ lands.
#include <gtest/gtest.h>

#include "checker_runs.hpp"
#include "manager.hpp"
#include "program_builders.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/runtime/cpu/run.hpp"

#include <sstream>

namespace {
using namespace prop;

struct Buf : ts::MemoryResource {
  void put(ts::ProducerStage const&) const {}
  void take(ts::ConsumerStage const&) const {}
};

// Bug: the parametric proof does not terminate when every task's runtime-length loop
// body is empty (found with producer/consumer in the tails, and with a loop whose body
// is only a last_iter block). Expected: SAFE (for all k >= 1); concrete lengths are SAFE.
struct TailProducer {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, ts::runtime(2, "n"), 1, [&](auto&) {});
    x.acquire(); ts::work<&Buf::put>(x); x.commit();
  }
};
struct TailConsumer {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, ts::runtime(2, "n"), 1, [&](auto&) {});
    x.wait(); ts::work<&Buf::take>(x); x.release();
  }
};
ts::Model step_free_loops() {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 1}));
  auto p = ts::Task("P").warps(0, 1).writes(x).schedule(TailProducer{}, x);
  auto c = ts::Task("C").warps(1, 1).reads(x).schedule(TailConsumer{}, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, quiet_options()).model();
}

TEST(Regression, ParametricProofOfStepFreeLoopsTerminates) {
  auto concrete = check(step_free_loops(), false, {1, 2, 3});
  EXPECT_EQ(concrete.verdict, ts::Verdict::Safe) << concrete.report;
  auto v = check(step_free_loops(), false);
  EXPECT_EQ(v.verdict, ts::Verdict::SafeAllK) << v.report;
}

// Bug: a commit with no acquired stage is never flagged; the checker credits it as a full
// stage, so the consumer's wait passes. Found as a replay mismatch (checker: race after the
// uncredited stage was consumed; emulator: the consumer blocks at m2.wait()). Expected:
// UNSAFE (unbalanced: commit without acquire), not a SAFE wait on that stage.
struct CommitOnly {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, 1, 1, [&](auto&) { ts::work<&Buf::put>(x); x.commit(); });
  }
};
struct WaitOnce {
  template <class S, class X>
  void operator()(S& s, X& x) const {
    s.domain_loop(0, 1, 1, [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); });
  }
};

TEST(Regression, CommitWithoutAcquireIsFlagged) {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 1}));
  auto p = ts::Task("P").warps(0, 1).writes(x).schedule(CommitOnly{}, x);
  auto c = ts::Task("C").warps(1, 1).reads(x).schedule(WaitOnce{}, x);
  auto m = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {}}}, quiet_options()).model();
  auto v = check(m, true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << verdict_name(v.verdict) << "\n" << v.report;
  EXPECT_EQ(v.kind, "unbalanced") << v.report;
}

}  // namespace

namespace {
using namespace prop::build;

// Found by ReductionAgreesWithPlainBfs (kinds reached): plain BFS reaches an aliasing race
// (T1 scribbles m1 after releasing m0 while T0, two iterations ahead, writes m0 again) that
// the reduced parametric search did not: the reduction ran one task's silent iterations
// ahead first, that path crossed the drift bound, and a state past the bound ends the
// parametric search (never SAFE then). Concrete lengths must agree, and the report must
// say the parametric search stopped.
Program every_other_iteration_alias() {
  Program p;
  p.mem[0] = ring(1);
  p.mem[0].alias_group = 1;
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = ring(1);
  p.mem[2].split_consumer = true;
  p.mem[3] = ring(1);
  p.loop = LoopKind::RuntimeDomain;
  p.length = 1;
  p.tasks.resize(3);
  p.tasks[0].body = {every(2, 1, {block(Op::WhenTrue, produce(0), 0)})};
  std::vector<Node> t1 = {op(Op::Wait, 0), op(Op::Take, 0), op(Op::Release, 0), op(Op::Scribble, 1)};
  p.tasks[1].body = {every(2, 1, {block(Op::WhenTrue, t1, 0)}),
                     block(Op::WhenTrue, {op(Op::Wait, 2), op(Op::Take, 2), op(Op::Acquire, 3), op(Op::Commit, 3)}, 1)};
  p.tasks[2].body = {block(Op::WhenTrue, {op(Op::Wait, 3), op(Op::Release, 2), op(Op::Release, 3)}, 1)};
  return p;
}

TEST(Regression, ParametricSearchStoppedAtTheDriftBoundSaysSoAndConcreteLengthsAgree) {
  auto m = model_of(every_other_iteration_alias());
  auto por = check(m, true);
  EXPECT_EQ(por.verdict, ts::Verdict::Unsafe) << por.report;
  EXPECT_NE(por.report.find("the parametric search stopped there"), std::string::npos) << por.report;
  for (long long k : {4, 5}) {
    auto bfs_k = check(m, false, {k});
    auto por_k = check(m, true, {k});
    EXPECT_EQ(bfs_k.kinds_reached, por_k.kinds_reached) << bfs_k.report << "\n" << por_k.report;
    EXPECT_TRUE(por_k.kinds_reached.count("race")) << por_k.report;
  }
}

}  // namespace

namespace {
using namespace prop::build;

// Found by Emulator.SafeSchedulesRunCleanUnderSeeds: two tasks share a condition key
// inside domain loops that start at 1 and at 0. The checker matched outcomes by iteration
// count (so T0's first iteration and T1's first iteration saw one outcome) and said SAFE;
// on the emulator the outcomes belong to different data indices, T1 waits on a stage T0
// never commits, and it deadlocks. Keys now correlate only aligned loops: UNSAFE.
TEST(Regression, SharedKeyAcrossLoopsWithDifferentStartsIsNotCorrelated) {
  Program p;
  p.mem[0] = ring(1);
  p.loop = LoopKind::StaticDomain;
  p.length = 2;
  p.late_start_task = 0;
  p.tasks.resize(2);
  p.tasks[0].body = {block(Op::FirstIter, {block(Op::WhenTrue, produce(0), 0)})};
  p.tasks[1].body = {block(Op::FirstIter, {block(Op::WhenTrue, consume(0), 0)})};
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(check(model_of(p), false).verdict, ts::Verdict::Unsafe);
}

}  // namespace

#include "counterexample_choices.hpp"

namespace {
using namespace prop::build;

// Replays p's counterexample as Emulator.CounterexamplesReplayToTheSameFailure does and
// returns what the emulator raised ("deadlock", "race", "pdl", "" or "error: ...").
std::string replayed_kind(Program p, std::string* checker_kind = nullptr) {
  auto first = check(model_of(p), true);
  if (checker_kind) *checker_kind = first.kind;
  if (!first.unsafe()) return "not unsafe";
  if (p.loop == LoopKind::RuntimeDomain && first.length >= 0) p.length = int(first.length);
  if (p.loop == LoopKind::Tiles && first.tiles >= 0) p.tiles = first.tiles;
  ts::Options o = quiet_options();
  o.warning_mode = true;
  return with_manager(p, o, [&](auto& tm) -> std::string {
    std::ostringstream out;
    tm.print_and_verify(out);
    runtime_choices() = choices_of(p, *tm.last_counterexample());
    try {
      ts::cpu::replay_counterexample(tm, {.seed = 1, .detect_races = true});
    } catch (ts::cpu::DeadlockError const&) {
      return "deadlock";
    } catch (ts::cpu::RaceError const&) {
      return "race";
    } catch (ts::cpu::PdlOrderError const&) {
      return "pdl";
    } catch (std::exception const& e) {
      return std::string("error: ") + e.what();
    }
    return "";
  });
}

// Harness bug found when counterexamples with conditions were first replayed: the
// condition methods were one template (more<0>, more<1>), which the IR names "more" at
// every site; the emulator matches an executed work call to the next IR step with the
// same resource and method name (ts::match_next_step), so T0's k1 site in iteration 1
// (its first_iter k0 site skipped) was taken for the k0 site, the forced event order
// never came and the replay deadlocked where the checker found a race. Now one method
// per key (more0..more3).
TEST(Regression, ReplayTellsConditionSitesOfDifferentKeysApart) {
  Program p;
  p.mem[0] = ring(2);
  p.mem[1] = ring(1);
  p.mem[1].alias_group = 2;
  p.mem[2].alias_group = 2;
  p.mem[2].alias_phase = 1;
  p.length = 1;
  p.tasks.resize(2);
  p.tasks[0].body = {block(Op::FirstIter, {block(Op::WhenTrue, produce(0), 0)}), block(Op::WhenTrue, produce(1), 1)};
  std::vector<Node> use = consume(1);
  use.push_back(op(Op::Scribble, 2));
  p.tasks[1].body = {block(Op::FirstIter, {block(Op::WhenTrue, consume(0), 0)}), block(Op::WhenTrue, use, 1)};
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "race");
  EXPECT_EQ(kind, "race");
}

// Harness bug: a deadlock whose blocked task is inside a skippable region of a tile in
// which it has no event yet: choices_of took the tile as skipped (another task had an
// event there), the emulator skipped it and ran clean. The blocked step now pins its tile.
TEST(Regression, ReplayKeepsTheTileOfATaskBlockedInASkippableRegion) {
  Program p;
  p.mem[0] = ring(1);
  p.loop = LoopKind::Tiles;
  p.skip_tiles = true;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Advance)};
  p.tasks[1].body = {block(Op::Skippable, consume(0)), op(Op::Advance)};
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "deadlock");
  EXPECT_EQ(kind, "deadlock");
}

}  // namespace
