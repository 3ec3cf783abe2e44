// Empty TMA stages on a turn ring (docs/turns.md): the poison model of count pipes
// (docs/checker.md, "Empty TMA stages") on the turn pipe's per-stage barriers. Before it,
// the checker reported every empty commit on a turn ring at the commit (a deadlock), also
// where no turn-taker of the run waits on that stage (CI seed 8227894306263303965 of
// Emulator.CounterexamplesReplayToTheSameFailure: the replay ran clean), and its fill bit
// forgot a copy when the producer held two stages.
#include <gtest/gtest.h>

#include "checker_runs.hpp"
#include "program_builders.hpp"
#include "replay.hpp"

namespace {
using namespace prop;
using namespace prop::build;

Node skip1(int r) { return Node{Op::Skip, r, 0, 1, 0, {}}; }

// T0 produces into the TMA turn ring m0; T1 takes the first turn of each pair of commits,
// T2 the second: T1 waits, then skips one; T2 skips one, then waits.
Program turns(int stages, std::vector<Node> producer, int key = -1) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaAsync, stages, -1, 0, false};
  p.loop = LoopKind::StaticDomain;
  p.length = 1;
  std::vector<Node> first = consume(0), second = {skip1(0)};
  first.push_back(skip1(0));
  for (auto const& n : consume(0)) second.push_back(n);
  if (key >= 0) {  // the turn-takers' work under the key of the producer's copies
    first = {block(Op::WhenTrue, first, key)};
    second = {block(Op::WhenTrue, second, key)};
  }
  p.tasks = {TaskProgram{{}, std::move(producer), {}}, TaskProgram{{}, first, {}}, TaskProgram{{}, second, {}}};
  return p;
}
std::vector<Node> copy_if(int key) { return {block(Op::WhenTrue, {op(Op::TmaCopy, 0)}, key)}; }

// The CI seed's shape: both copies and both turns under one shared key. When it is false
// no copy lands and no turn-taker waits: nothing hangs (the replay runs clean), the two
// stages are never given back. Before: kind "deadlock", at the first commit.
TEST(TurnEmptyStage, EmptyCommitThatNoTurnTakerWaitsOnIsNoHang) {
  std::vector<Node> producer;
  for (int k = 0; k < 2; ++k) {
    producer.push_back(op(Op::Acquire, 0));
    for (auto const& n : copy_if(0)) producer.push_back(n);
    producer.push_back(op(Op::Commit, 0));
  }
  auto p = turns(2, producer, 0);
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "");
  EXPECT_EQ(kind, "unbalanced");
  auto v = check(model_of(p), true);
  EXPECT_NE(v.report.find("committed but never released"), std::string::npos) << v.report;
  EXPECT_NE(v.report.find("TMA commit without TMA work: a stage of m0 was committed with no copy on it (T0 runs "
                          "m0.commit() (step"),
            std::string::npos)
      << v.report;
}

// The first turn's stage is committed empty: T1 blocks at its wait (the deadlock, named
// with the empty commit), T2's turn on the other stage passes. The emulator hangs there
// too. Before: reported at the commit, before any wait.
TEST(TurnEmptyStage, TurnTakerWaitingOnTheEmptyStageIsTheDeadlock) {
  auto p = turns(2, {op(Op::Acquire, 0), op(Op::Commit, 0), op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)});
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "deadlock");
  EXPECT_EQ(kind, "deadlock");
  auto v = check(model_of(p), true);
  EXPECT_NE(v.report.find("no task can move while work remains; TMA commit without TMA work: a stage of m0 was "
                          "committed with no copy on it (T0 runs m0.commit() (step 1"),
            std::string::npos)
      << v.report;
  EXPECT_NE(v.report.find("T1 at m0.wait()"), std::string::npos) << v.report;
}

// Two stages acquired before one copy: the copy lands on the second, the first is left
// without one and its commit (step 3) is the empty one T1 waits on for good. Before: the
// turn model checked only the newest stage and blamed the second commit (step 4).
TEST(TurnEmptyStage, StageLeftWithoutACopyIsTheOneTheWaitHangsOn) {
  auto p = turns(2, {op(Op::Acquire, 0), op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0), op(Op::Commit, 0)});
  std::string kind;
  EXPECT_EQ(replayed_kind(p, &kind), "deadlock");
  EXPECT_EQ(kind, "deadlock");
  auto v = check(model_of(p), true);
  EXPECT_NE(v.report.find("committed with no copy on it (T0 runs m0.commit() (step 3"), std::string::npos) << v.report;
  EXPECT_NE(v.report.find("T1 at m0.wait()"), std::string::npos) << v.report;
}

// Two stages held, each with its copy: no empty commit. Before: the turn model's fill bit
// was cleared by the first commit, so the second was taken for an empty one (UNSAFE).
TEST(TurnEmptyStage, TwoFilledStagesHeldAtOnceAreNoEmptyCommit) {
  auto p = turns(2, {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0),
                     op(Op::Commit, 0)});
  EXPECT_EQ(emulated_kind(p), "");
  auto v = check(model_of(p), true);
  EXPECT_TRUE(v.safe()) << v.report;
  EXPECT_TRUE(check(model_of(p), false).safe());
}

// One stage. Its commit 0 is empty, so its full barrier stays in phase 0. T2 waits for
// commit 1 (phase 1) only after the producer's order commit on m1, which follows commit
// 0: phase 1 is two ahead of the completed phases, and try_wait.parity passes at once on
// the old phase (as on the device and the emulator), so the checker's report is the
// parity aliasing, not a deadlock at T2's wait.
TEST(TurnEmptyStage, WaitForTheNextPhaseOfAnEmptyStagePassesOnAnOldPhase) {
  auto p = turns(1, {op(Op::Acquire, 0), op(Op::Commit, 0), op(Op::Acquire, 1), op(Op::Put, 1), op(Op::Commit, 1),
                     op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)});
  p.mem[1] = ring(1);
  std::vector<Node> second = consume(1);
  for (auto const& n : p.tasks[2].body) second.push_back(n);
  p.tasks[2].body = second;
  auto v = check(model_of(p), true);
  EXPECT_EQ(v.kind, "race") << v.report;
  EXPECT_NE(v.report.find("parity aliasing: T2 runs m0.wait()"), std::string::npos) << v.report;
  EXPECT_NE(v.report.find("its phase for commit 0 never completing"), std::string::npos) << v.report;
  EXPECT_EQ(check(model_of(p), false).kind, "race");
}

}  // namespace
