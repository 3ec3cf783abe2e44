// Shrunk failures the properties found, as hand-written schedules (not the generator).
// Each names the checker bug and the verdict it should give; those still failing are
// skipped with "known bug: ..." until the fix in src/check/ lands.
#include <gtest/gtest.h>

#include "checker_runs.hpp"
#include "known_bugs.hpp"
#include "manager.hpp"
#include "program_builders.hpp"
#include "replay.hpp"
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

// Bug (found by CheckerAgreement.ReductionAgreesWithPlainBfs once recipes nested the domain
// loop in a tile loop): a task whose domain loop has no step (its code is dropped) still
// counted as looping when the parametric abstraction renormalised a loop slot. Waiting
// before its tile loop it pinned slot 0's origin, so the plain search let the other tasks'
// iteration counters grow past the drift bound ("the parametric abstraction does not
// apply") and fell back to concrete lengths (SAFE), while the reduced search, which runs
// that task first, proved every length (SAFE for all k). Expected: both prove every length.
prop::Program empty_loop_beside_a_ring(LoopKind loop) {
  using namespace prop::build;
  Program p;
  p.loop = loop;
  p.length = 1;
  p.mem[0] = ring(1);
  TaskProgram producer, consumer, idle;
  producer.body = {op(Op::Acquire, 0), op(Op::Commit, 0)};
  consumer.body = consume(0);
  if (loop == LoopKind::TilesOfDomain)
    for (auto* t : {&producer, &consumer, &idle}) t->tile_post = {op(Op::Advance)};
  p.tasks = {producer, consumer, idle};
  return p;
}

TEST(Regression, AnEmptyDomainLoopHoldsNoLoopSlotBack) {
  for (auto loop : {LoopKind::RuntimeDomain, LoopKind::TilesOfDomain}) {
    auto p = empty_loop_beside_a_ring(loop);
    for (bool reduction : {false, true}) {
      auto v = check(model_of(p), reduction);
      EXPECT_EQ(v.verdict, ts::Verdict::SafeAllK)
          << (loop == LoopKind::TilesOfDomain ? "in a tile loop" : "alone") << (reduction ? ", reduced" : ", plain BFS")
          << "\n" << v.report;
    }
  }
}

// Gap (found by Emulator.CounterexamplesReplayToTheSameFailure once recipes ran two domain
// loops per tile; one loop per tile has it too): T1 writes m1 while the MMA engine may still
// read m0, its alias, a race at every length from 1. The parametric proof finds it; the
// search for a concrete run of it (lengths 0..256 over every tile count) stops each time
// at the tile drift (T2's loop has no step, so it runs work tiles ahead of the others)
// before reaching the race, and the parametric run is reported: domain length -1, events
// without iterations. Dropping T2's empty every() block gives the concrete run (k = 1,
// 2 tiles). Expected: a concrete failing run, e.g. from a fixed tile count.
TEST(Regression, ParametricTileLoopFailureHasAConcreteRun) {
  if (kParametricFailureWithoutConcreteRun)
    GTEST_SKIP() << "known bug: a parametric failure in a tile loop is reported without a concrete run";
  using namespace prop::build;
  Program p;
  p.loop = LoopKind::TilesOfDomain;
  p.length = 1;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 1, 1, 0, false};
  p.mem[1] = MemSpec{PipeKind::None, 1, 1, 1, false};
  TaskProgram t0, t1, t2;
  t0.body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)};
  t1.body = {op(Op::Wait, 0), op(Op::Mma, 0), op(Op::Scribble, 1), op(Op::Release, 0)};
  t2.body = {every(2, 0, {})};
  for (auto* t : {&t0, &t1, &t2}) t->tile_post = {op(Op::Advance)};
  p.tasks = {t0, t1, t2};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_GE(v.length, 1) << v.report;
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

namespace {
using namespace prop::build;

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

namespace {
using namespace prop::build;

MemSpec tma_ring(int stages) { return MemSpec{PipeKind::TmaAsync, stages, -1, 0, false}; }

Program tma_pair(std::vector<Node> producer, std::vector<Node> consumer) {
  Program p;
  p.mem[0] = tma_ring(1);
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks = {TaskProgram{{}, std::move(producer), {}}, TaskProgram{{}, std::move(consumer), {}}};
  return p;
}

// Bug (src/check/program.cpp, the empty-TMA-commit rule): found by
// Emulator.SafeSchedulesRunCleanUnderSeeds (a tma_umma ring whose copy a mutation dropped).
// The rule is armed only where the one acquiring task is also the task doing producer
// work (`workers == acquirers`); with no producer work on the pipe at all (workers = 0)
// it is off, so acquire + commit with no copy is SAFE, while the emulator (and hardware)
// hangs: the acquire armed expect_tx for 128 bytes no copy delivers. Expected: UNSAFE,
// deadlock "TMA commit without TMA work".
TEST(Regression, TmaCommitWithNoCopyOnThePipeIsAHang) {
  auto p = tma_pair({op(Op::Acquire, 0), op(Op::Commit, 0)}, consume(0));
  EXPECT_EQ(emulated_kind(p), "deadlock");
  if (kAvoidKnownBugs.tma_pipe_without_copy) GTEST_SKIP() << "known bug: an empty TMA commit on a pipe with no producer work is not flagged";
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "deadlock") << v.report;
  EXPECT_NE(v.report.find("TMA commit without TMA work"), std::string::npos) << v.report;
}

// Was a soundness gap between checker and runtime (found by
// Emulator.CounterexamplesReplayToTheSameFailure, a mutation dropped a tma_async commit):
// acquire armed the full barrier with arrive.expect_tx, so on the device and the emulator
// a TMA stage turned full when the copy's bytes landed, while the checker makes it full at
// the commit. Fixed in the runtime (exec_context.hpp): acquire arms the bytes with
// expect_tx alone and the commit makes the barrier's one arrival, after converging the
// task. Acquire + copy with no commit is now a deadlock on both sides: T1 blocks at
// m0.wait() for an arrival that never comes (before the fix the emulator ran clean).
TEST(Regression, TmaStageWithoutItsCommitNeverTurnsFull) {
  auto p = tma_pair({op(Op::Acquire, 0), op(Op::TmaCopy, 0)}, consume(0));
  std::string kind;
  auto replayed = replayed_kind(p, &kind);
  EXPECT_EQ(kind, "deadlock");
  EXPECT_EQ(replayed, "deadlock");
}

// The same gap the other way (it was unsound): with the stage full at the copy, the
// consumer could run while the producer was still between its copy and its commit. T0
// writes m1 there, T1 writes the aliased m2 after its wait: the emulator reported the race,
// the checker (which orders T0's write before T1's wait through the commit) said SAFE. Now
// the commit publishes the stage, so both agree: SAFE, and the emulator runs clean (before
// the fix emulated_kind was "race").
TEST(Regression, TmaConsumerWaitsForTheCommitNotOnlyTheCopy) {
  auto p = tma_pair({op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Scribble, 1), op(Op::Commit, 0)},
                    {op(Op::Wait, 0), op(Op::Take, 0), op(Op::Scribble, 2), op(Op::Release, 0)});
  p.mem[1].alias_group = 1;
  p.mem[2].alias_group = 1;
  p.mem[2].alias_phase = 1;
  EXPECT_EQ(emulated_kind(p), "");
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.verdict, ts::Verdict::Safe) << v.report;
}

// Was a soundness gap (found by Emulator.SafeSchedulesRunCleanUnderSeeds): T1 fills the
// TMA ring m0 and reads the 2-stage ring m1, writing the scratch m2 aliased with m1 before
// releasing it; T0 drains m0 and fills m1. The checker orders T1's iteration-0 scribble
// before T0's iteration-1 put of m1 through T1's iteration-1 copy and commit of m0. On the
// emulator only the elected thread (lane 0) armed and completed the barrier, so lane 12's
// scribble was not ordered before T0's wait: a race the checker called SAFE. Now the
// commit converges the task before its arrival (and the copy's issue converges it too),
// so every lane is ordered: SAFE, clean on the emulator (before: "race").
TEST(Regression, TmaCommitOrdersEveryLaneOfTheProducer) {
  Program p;
  p.mem[0] = tma_ring(1);
  p.mem[1] = ring(2);
  p.mem[1].alias_group = 2;
  p.mem[2].alias_group = 2;
  p.mem[2].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 2;
  p.tasks.resize(2);
  p.tasks[0].body = consume(0);
  for (auto& n : produce(1)) p.tasks[0].body.push_back(n);
  p.tasks[1].body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0),
                     op(Op::Wait, 1), op(Op::Take, 1), op(Op::Scribble, 2), op(Op::Release, 1)};
  EXPECT_EQ(emulated_kind(p), "");
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.verdict, ts::Verdict::Safe) << v.report;
}

// Was a documented gap: a tma_umma ring acquired twice before one copy and commit. The
// copy completes on the barrier of the stage of the last acquire (stage 1); the checker's
// commit filled the first uncommitted stage (stage 0), so its run had T1 pass m0.wait()
// and reported the MMA read / scribble race, while on the emulator T1 waits on stage 0 for
// 128 bytes no copy delivers: a deadlock. Now the second acquire dooms stage 0 (it is
// left without a copy for good), its commit is an empty one, and T1's wait on it is the
// deadlock, explained by the empty commit.
TEST(Regression, TmaCopyFillsTheStageOfTheLastAcquire) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 2, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Mma, 0), op(Op::Scribble, 1), op(Op::Release, 0)};
  std::string kind;
  auto replayed = replayed_kind(p, &kind);
  EXPECT_EQ(replayed, "deadlock");
  EXPECT_EQ(kind, "deadlock");
  auto v = check(model_of(p), true);
  EXPECT_NE(v.report.find("TMA commit without TMA work: a stage of m0 was committed with no copy on it (T0 runs m0.commit()"),
            std::string::npos)
      << v.report;
}

// Was an emulator gap (found by Emulator.CounterexamplesReplayToTheSameFailure): T1's MMA
// reads the tma_umma stage of m1; its release is a tcgen05.commit that arrives once the MMA
// ran, but T1 goes on and writes m2, aliased with m1, while the MMA engine may still read:
// the checker's race ("m1 read by the asynchronous engine"), real on hardware. The emulator
// recorded the MMA's SMEM read at issue by the issuing thread, so the write after it was
// program-ordered and the replay ran clean. Now the CTA's MMA engine reads when the MMA
// executes, as an actor with its own clock released only by its commits: the replay raises
// the race.
TEST(Regression, EmulatorRecordsAnMmaReadWhenItRuns) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 1, 2, 0, false};
  p.mem[1].alias_group = 2;
  p.mem[1].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Mma, 0), op(Op::Release, 0), op(Op::Scribble, 1)};
  std::string kind;
  auto replayed = replayed_kind(p, &kind);
  EXPECT_EQ(kind, "race");
  if (kEmulatorRecordsMmaReadsAtIssue) GTEST_SKIP() << "known emulator gap: an MMA's SMEM read is recorded at issue";
  EXPECT_EQ(replayed, "race");
}

// Checker imprecision (found by Emulator.CounterexamplesReplayToTheSameFailure): T0's
// copy and T1's wait on the TMA ring m0 sit under one shared key. When it is false T0
// commits an empty stage and T1 never waits on it: no hang on hardware or the emulator
// (the replay runs clean), only a commit never waited (unbalanced). The checker reports
// the empty commit as a deadlock at once ("any task waiting on that stage of m0 would
// hang"), though no task of that run waits. Expected: UNSAFE, kind "unbalanced".
TEST(Regression, EmptyTmaCommitThatNoTaskOfTheRunWaitsOnIsNoHang) {
  auto p = tma_pair({op(Op::Acquire, 0), block(Op::WhenTrue, {op(Op::TmaCopy, 0)}, 0), op(Op::Commit, 0)},
                    {block(Op::WhenTrue, consume(0), 0)});
  std::string kind;
  auto replayed = replayed_kind(p, &kind);
  EXPECT_EQ(replayed, "");
  if (kAvoidKnownBugs.empty_tma_commit_without_waiter) GTEST_SKIP() << "known bug: an empty TMA commit nobody waits on is reported as a hang";
  EXPECT_EQ(kind, "unbalanced");
}

// Was a soundness gap (found by Emulator.SafeSchedulesRunCleanUnderSeeds): T1 waits on
// the tma_umma ring m0, writes the scratch m1 aliased with it (every lane its word), then
// its elected thread issues the MMA reading the whole stage. The checker orders the write
// before the MMA (one task) and says SAFE; on the emulator lane 1's write and lane 0's MMA
// read were unordered: a race. Now work for an engine (a TMA copy, an MMA) converges the
// task before the call (Handle::invoke), so the write precedes the issue: SAFE and clean
// (before the fix emulated_kind was "race").
TEST(Regression, MmaIssueIsOrderedAfterEveryLaneOfTheTask) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 1, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Scribble, 1), op(Op::Mma, 0), op(Op::Release, 0)};
  EXPECT_EQ(emulated_kind(p), "");
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.verdict, ts::Verdict::Safe) << v.report;
}

// Not a bug: the replay runs the counterexample's tile count. A split consumer on a
// 2-stage ring in a tile loop whose proxy (m1) tells the releaser T2 before T1's read:
// the producer reuses a stage T1 is still to read only at the third tile, so the race
// needs 3 tiles (CheckTileCount.StageReuseThatNeedsThreeTilesIsFound); the emulator's queue
// gets Program::tiles = Counterexample::tiles and raises the same race.
TEST(Regression, ReplayRunsTheThreeTilesAStageReuseRaceNeeds) {
  Program p;
  p.mem[0] = ring(2);
  p.mem[0].split_consumer = true;
  p.mem[1] = ring(2);
  p.loop = LoopKind::Tiles;
  p.tasks.resize(3);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::Put, 0), op(Op::Commit, 0), op(Op::Advance)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Acquire, 1), op(Op::Commit, 1), op(Op::Take, 0), op(Op::Advance)};
  p.tasks[2].body = {op(Op::Wait, 1), op(Op::Release, 0), op(Op::Release, 1), op(Op::Advance)};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_EQ(v.tiles, 3) << v.report;
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "race");
}

}  // namespace

// Not a bug (checked when the TMA commit started to converge the task): the producer
// scribbles on memory aliased with the TMA stage it is still filling. The copy's write is
// the engine's and lasts until the consumer's wait; the producer's own later write races
// it on hardware. The checker reports it (the engine holds the stage from the copy on),
// and so does the emulator, whose copy engine writes when the copy lands, ordered after
// nothing the producer does after the issue.
TEST(Regression, ProducerWriteUnderItsOwnInFlightTmaCopyIsARace) {
  auto p = tma_pair({op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Scribble, 1), op(Op::Commit, 0)}, consume(0));
  p.mem[1].alias_group = 1;
  p.mem[0].alias_group = 1;
  p.mem[1].alias_phase = 1;
  EXPECT_EQ(emulated_kind(p), "race");
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_NE(v.report.find("written by the asynchronous engine while m1 written by T0"), std::string::npos) << v.report;
}

// Found by Emulator.CounterexamplesReplayToTheSameFailure once an empty TMA commit became a
// poisoned stage: the checker counted the poisoned commit as an engine write in flight
// (committed, unwaited), so T0's write of m2, aliased with m1, raced it, while no copy
// writes that stage at all; the emulator ends in T0's deadlock at m1.wait(). Expected:
// deadlock on both sides (before the fix the checker said race).
TEST(Regression, AnEmptyTmaStageIsNoEngineWrite) {
  Program p;
  p.mem[1] = tma_ring(1);
  p.mem[1].alias_group = 1;
  p.mem[2].alias_group = 1;
  p.mem[2].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Acquire, 1), op(Op::Commit, 1)};
  p.tasks[1].body = {op(Op::Scribble, 2), op(Op::Wait, 1), op(Op::Take, 1), op(Op::Release, 1)};
  EXPECT_EQ(emulated_kind(p), "deadlock");
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "deadlock") << v.report;
}

// Was a wrong SAFE (found by Emulator.SafeSchedulesRunCleanUnderSeeds in CI): T1 writes
// scratch m1, aliased with the 2-stage tma_umma ring m0, between its wait and its MMA,
// then hands T0 a token on ring m2; T0 acquires m0's next stage only after that token.
// The MMA of iteration i reads stage i % 2 after T1's release until the producer
// *reacquires that stage*; the checker ended the read at the producer's next acquire of
// any stage, so T0's acquire of the other stage (which the token puts between T1's
// release and its next write) hid the race of iteration i + 1's write with iteration i's
// MMA read. The emulator raised it at length 3. Now the read ends at the acquire that
// reuses its stage: UNSAFE (race). Near miss: with one stage, the next acquire is that
// reuse and the write comes after it: SAFE and clean.
Program scribble_between_wait_and_mma(int stages) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, stages, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = ring(1);
  p.loop = LoopKind::StaticDomain;
  p.length = 3;
  p.tasks.resize(2);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0),
                     op(Op::Wait, 2), op(Op::Take, 2), op(Op::Release, 2)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Scribble, 1), op(Op::Mma, 0), op(Op::Release, 0),
                     op(Op::Acquire, 2), op(Op::Put, 2), op(Op::Commit, 2)};
  return p;
}

TEST(Regression, MmaReadEndsWhenItsStageIsReacquiredNotAtAnyAcquire) {
  auto p = scribble_between_wait_and_mma(2);
  EXPECT_EQ(emulated_kind(p), "race");
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_EQ(replayed_kind(p), "race");

  auto near = scribble_between_wait_and_mma(1);
  EXPECT_EQ(emulated_kind(near), "");
  auto nv = check(model_of(near), true);
  EXPECT_EQ(nv.verdict, ts::Verdict::Safe) << nv.report;
}

namespace {
using namespace prop::build;

// Was a wrong SAFE of the exhaustive checker (found by review in stop 27), reachable only
// in a schedule the static checks refuse: on a tma_umma ring m0 released by two slots (the
// empty barrier takes one tcgen05.commit per stage: S6.10.empty-arrivals), the flag of
// an MMA read in flight was one bit per pipe, so a release by the slot that issues no
// MMA (B, one item behind: every(1, 1) { release } before its wait) ended A's read of the
// newest item, although B's release does not wait for A's MMAs (A's tcgen05.commit
// does). A's own release then found no read to bound, the read ended at the next
// acquire, and A's write of scratch m1 (aliased with m0) after its next wait raced the
// MMA still reading. Tokens on m2 / m3 put B's release between A's MMA and A's release.
// Now only the issuing slot's release bounds the read: UNSAFE (race), as the emulator's
// free runs find. (Its replay deadlocks instead: the refused barrier count frees a stage
// at B's release, which the checker, counting both releases, does not model.)
Program lagging_second_slot() {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 2, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = ring(1);
  p.mem[3] = ring(1);
  p.loop = LoopKind::StaticDomain;
  p.length = 3;
  p.tasks.resize(3);
  p.tasks[0].body = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)};
  p.tasks[1].body = {op(Op::Wait, 0), every(1, 2, {op(Op::Scribble, 1)}), op(Op::Mma, 0), op(Op::Acquire, 2),
                     op(Op::Put, 2), op(Op::Commit, 2), op(Op::Wait, 3), op(Op::Take, 3), op(Op::Release, 3),
                     op(Op::Release, 0)};
  p.tasks[2].body = {op(Op::Wait, 2), op(Op::Take, 2), op(Op::Release, 2), every(1, 1, {op(Op::Release, 0)}),
                     op(Op::Wait, 0), op(Op::Acquire, 3), op(Op::Put, 3), op(Op::Commit, 3)};
  p.tasks[2].tail = {op(Op::Release, 0)};
  return p;
}

TEST(Regression, OnlyTheIssuingSlotsReleaseBoundsItsMmaReads) {
  auto p = lagging_second_slot();
  EXPECT_TRUE(refused_by_static_checks(p));
  EXPECT_EQ(emulated_kind(p), "race");
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  auto bfs = check(model_of(p), false);
  EXPECT_EQ(bfs.verdict, ts::Verdict::Unsafe) << bfs.report;
}

// Was a wrong SAFE (found by review in stop 27): the producer of the 2-stage tma_async ring
// m0 acquires and fills both stages, commits the first and hands T1 a token (m2); T1,
// having waited the first stage, writes scratch m1 (aliased with m0) while the second
// stage's copy is still in flight. The commit cleared the engine's hold of the ring
// although a second acquired stage was still being written. Now the hold ends when no
// acquired stage is left uncommitted: UNSAFE (race). The emulator confirms it since a
// copy's write is the copy engine's, made when the copy lands (src/runtime/cpu/engines.cpp);
// before, it was the issuer's at the issue, ordered before the token. Near miss: T0
// commits both stages before the token and T1 waits both before writing: SAFE and clean.
Program second_held_stage_in_flight(bool commit_both_first) {
  Program p;
  p.mem[0] = tma_ring(2);
  p.mem[0].alias_group = 1;
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = ring(1);
  p.mem[3] = ring(1);
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  p.tasks.resize(2);
  std::vector<Node> fill = {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Acquire, 0), op(Op::TmaCopy, 0),
                            op(Op::Commit, 0)};
  std::vector<Node> token = {op(Op::Acquire, 2), op(Op::Put, 2), op(Op::Commit, 2),
                             op(Op::Wait, 3), op(Op::Take, 3), op(Op::Release, 3)};
  std::vector<Node> first = {op(Op::Wait, 0), op(Op::Take, 0), op(Op::Release, 0)};
  std::vector<Node> write = {op(Op::Wait, 2), op(Op::Take, 2), op(Op::Release, 2), op(Op::Scribble, 1),
                             op(Op::Acquire, 3), op(Op::Put, 3), op(Op::Commit, 3)};
  if (commit_both_first) {
    p.tasks[0].body = fill;
    p.tasks[0].body.push_back(op(Op::Commit, 0));
    append(p.tasks[0].body, token);
    p.tasks[1].body = first;
    append(p.tasks[1].body, first);
    append(p.tasks[1].body, write);
  } else {
    p.tasks[0].body = fill;
    append(p.tasks[0].body, token);
    p.tasks[0].body.push_back(op(Op::Commit, 0));
    p.tasks[1].body = first;
    append(p.tasks[1].body, write);
    append(p.tasks[1].body, first);
  }
  return p;
}

TEST(Regression, ACommitEndsTheEnginesHoldOnlyWithNoStageLeftUncommitted) {
  auto p = second_held_stage_in_flight(false);
  EXPECT_EQ(emulated_kind(p), "race");
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_EQ(replayed_kind(p), "race");

  auto near = second_held_stage_in_flight(true);
  EXPECT_EQ(emulated_kind(near), "");
  auto nv = check(model_of(near), true);
  EXPECT_EQ(nv.verdict, ts::Verdict::Safe) << nv.report;
}

}  // namespace

namespace {
using namespace prop::build;

// Emulator gap (found by AliasedMma.CounterexamplesReplayToTheSameFailure after 2702
// cases): the emulator's one MMA engine clock made any thread's tcgen05.commit release
// the reads of every MMA issued before it, so T0's release of m2 (its own MMA's commit)
// ordered T1's MMA on m0 before T1's next acquire of m2, and the write of scratch m1
// (aliased with m0) two iterations later looked ordered after that read. On the GPU a
// commit tracks the executing thread's MMAs only: the race the checker reports is real,
// and the replay ran clean. Now each issuing thread has an MMA actor of its own whose
// reads only its commits release: the replay raises the race.
TEST(Regression, AnotherThreadsMmaCommitOrdersNoneOfThisThreadsMmaReads) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 2, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = MemSpec{PipeKind::TmaUmma, 1, -1, 0, false};
  p.loop = LoopKind::RuntimeDomain;
  p.length = 3;
  p.tasks.resize(2);
  p.tasks[0].body = {every(2, 0, {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)}),
                     op(Op::Wait, 2), op(Op::Mma, 2), op(Op::Release, 2)};
  p.tasks[1].body = {every(2, 0, {op(Op::Wait, 0), op(Op::Scribble, 1), op(Op::Mma, 0), op(Op::Release, 0)}),
                     op(Op::Acquire, 2), op(Op::TmaCopy, 2), op(Op::Commit, 2)};
  std::string checker_kind;
  EXPECT_EQ(replayed_kind(p, &checker_kind), "race");
  EXPECT_EQ(checker_kind, "race");
}

}  // namespace

namespace {
using namespace prop::build;

// Replay bug (found by Emulator.CounterexamplesReplayToTheSameFailure in CI): the schedule
// fails twice over, a PDL launch before any PDL wait (T0's tail) and a race (T1's scribble
// of m1, aliased with m0's stage 0, against T0's put of iteration 2). The checker's
// shortest run is T0's alone up to its launch; the emulator let T1, which that run never
// starts, run freely beside it, and T1's race came first. A step the run does not list now
// waits until the whole run has been replayed, so the replay stops at the launch.
TEST(Regression, ReplayHoldsTasksTheRunNeverStarts) {
  Program p;
  p.mem[0] = ring(2);
  p.mem[0].alias_group = 1;
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.loop = LoopKind::StaticDomain;
  p.length = 2;
  p.tasks.resize(2);
  p.tasks[0].body = produce(0);
  p.tasks[0].tail = {op(Op::PdlLaunch)};
  p.tasks[1].body = {op(Op::Wait, 0), op(Op::Take, 0), op(Op::Scribble, 1), op(Op::Release, 0)};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_NE(v.report.find("races=1"), std::string::npos) << v.report;  // the other failure is there
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "pdl");
  EXPECT_EQ(kind, "pdl");
}

}  // namespace

namespace {
using namespace prop::build;

// Checker false alarm (found by AliasedMma.CounterexamplesReplayToTheSameFailure, seed
// 12379131040049138754, stop 36): T1's MMA on m0's stage 0 (iteration 0) is followed by
// its MMA on m3 and m3's release, a tcgen05.commit that completes only after every MMA T1
// issued before it. T0's acquire of m3 (iteration 1) waits for that commit, then T0 fills
// m0's stage 1, and T1's scribble of m1 (aliased with m0) in iteration 2 waits on that
// stage: the read is over. The checker ended the m0 read only when m0's own stage was
// reacquired and reported a race the emulator's clocks order. Now a release that is a
// commit of the task issuing an aliased ring's MMAs fences that ring's reads so far, and
// the acquire that proves the commit complete ends them (docs/checker.md, "Access
// windows").
Program commit_on_another_ring(int m3_stages) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 2, 1, 0, false};
  p.mem[1].alias_group = 1;
  p.mem[1].alias_phase = 1;
  p.mem[2] = MemSpec{PipeKind::TmaUmma, 1, -1, 0, false};
  p.mem[3] = MemSpec{PipeKind::TmaUmma, m3_stages, -1, 0, false};
  p.loop = LoopKind::RuntimeDomain;
  p.length = 4;
  p.tasks.resize(2);
  p.tasks[0].body = {every(2, 0, {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)}),
                     op(Op::Wait, 2), op(Op::Mma, 2), op(Op::Release, 2),
                     op(Op::Acquire, 3), op(Op::TmaCopy, 3), op(Op::Commit, 3)};
  p.tasks[1].body = {every(2, 0, {op(Op::Wait, 0), op(Op::Scribble, 1), op(Op::Mma, 0), op(Op::Release, 0)}),
                     op(Op::Acquire, 2), op(Op::TmaCopy, 2), op(Op::Commit, 2),
                     op(Op::Wait, 3), op(Op::Mma, 3), op(Op::Release, 3)};
  return p;
}

TEST(Regression, AnMmaCommitOnAnotherRingEndsTheSameThreadsEarlierMmaReads) {
  auto p = commit_on_another_ring(1);
  EXPECT_EQ(emulated_kind(p), "");
  for (bool reduction : {true, false}) {
    auto v = check(model_of(p), reduction);
    EXPECT_EQ(v.verdict, ts::Verdict::SafeAllK) << v.report;
  }
}

// Near miss: with two stages in m3, T0's acquire of m3 in iteration 1 takes the stage
// never used and waits for no commit; the one that waits for iteration 0's commit is
// iteration 2's, after T0 has filled m0's stage 1 that T1's scribble waits on. The
// scribble is not ordered after the read.
TEST(Regression, AnMmaCommitNotYetWaitedEndsNothing) {
  auto p = commit_on_another_ring(2);
  std::string checker_kind;
  EXPECT_EQ(replayed_kind(p, &checker_kind), "race");
  EXPECT_EQ(checker_kind, "race");
}

}  // namespace

namespace {
// Bug (CI of stop 40, AliasedMmaCommitFence.CounterexamplesReplayToTheSameFailure, seed
// 13664791670439394478): an MMA read of m0 (every other iteration, 2 stages) is fenced by
// T1's next release of m3 (a tcgen05.commit, complete after every earlier MMA of T1); the
// read ends when T0 reacquires that m3 stage. The checker counted that down in m3's one
// countdown, which every later m3 release reset ("the newest read ends last"), so with two
// loops per tile (two m3 releases before T0 reacquires the fencing stage) the read never
// ended before T1's next write of m1, m0's alias: a race the emulator's replay did not
// see. Expected: the fence ends at the reuse of its own stage; SAFE, clean runs.
Program fence_outlived_by_later_releases() {
  using namespace prop::build;
  Program p;
  p.loop = LoopKind::TilesOfTwoDomains;
  p.length = 1;
  p.mem[0] = MemSpec{PipeKind::TmaUmma, 2, 1, 0, false};
  p.mem[1] = MemSpec{PipeKind::None, 1, 1, 1, false};
  p.mem[2] = ring(2);
  p.mem[3] = MemSpec{PipeKind::TmaUmma, 2, -1, 0, false};
  std::vector<Node> fill3 = {op(Op::Acquire, 3), op(Op::TmaCopy, 3), op(Op::Commit, 3)};
  std::vector<Node> read3 = {op(Op::Wait, 3), op(Op::Mma, 3), op(Op::Release, 3)};
  TaskProgram t0, t1;
  t0.body = {every(2, 1, {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)})};
  append(t0.body, consume(2));
  append(t0.body, fill3);
  t0.body2 = consume(2);
  append(t0.body2, fill3);
  t1.body = {every(2, 1, {op(Op::Wait, 0), op(Op::Scribble, 1), op(Op::Mma, 0), op(Op::Release, 0)})};
  append(t1.body, produce(2));
  append(t1.body, read3);
  t1.body2 = produce(2);
  append(t1.body2, read3);
  t0.tile_post = t1.tile_post = {op(Op::Advance)};
  p.tasks = {t0, t1};
  return p;
}
}  // namespace

TEST(Regression, AFenceEndsAtTheReuseOfItsOwnStage) {
  auto p = fence_outlived_by_later_releases();
  for (bool reduction : {true, false}) {
    // The race is real from length 4 (the next m0 read's write comes before T0 reaches the
    // fencing stage again), where the emulator meets it too; lengths 1-3 are safe.
    auto v = check(model_of(p), reduction);
    ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
    EXPECT_EQ(v.kind, "race") << v.report;
    EXPECT_EQ(v.length, 4) << v.report;
    for (long long k : {1, 2, 3}) {
      auto at = check(model_of(p), reduction, {k});
      EXPECT_TRUE(at.safe()) << "length " << k << "\n" << at.report;
    }
  }
  p.tiles = 2;
  for (int length : {1, 2, 3}) {
    p.length = length;
    EXPECT_EQ(emulated_kind(p), "") << "length " << length;
  }
  p.length = 4;
  EXPECT_EQ(emulated_kind(p), "race");
}
