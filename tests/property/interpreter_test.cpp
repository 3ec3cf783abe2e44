// The interpreter reproduces verdicts the hand-written checker tests establish, so the
// properties test the checker and not a broken replay of the data.
#include <gtest/gtest.h>

#include <sstream>

#include "checker_runs.hpp"
#include "manager.hpp"
#include "program_builders.hpp"
#include "replay.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace {
using namespace prop;
using namespace prop::build;

Program producer_consumer(int stages) {
  Program p;
  p.mem[0] = ring(stages);
  p.tasks = {TaskProgram{{}, produce(0), {}}, TaskProgram{{}, consume(0), {}}};
  return p;
}

TEST(Interpreter, BalancedPipelineIsSafeForAllLengths) {
  auto v = check(model_of(producer_consumer(2)), true);
  EXPECT_EQ(v.verdict, ts::Verdict::SafeAllK) << v.report;
}

TEST(Interpreter, ScratchAfterReleaseIsARace) {
  auto p = producer_consumer(1);
  p.mem[0].alias_group = 0;
  p.mem[1].alias_group = 0;
  p.mem[1].alias_phase = 1;
  p.tasks[1].body.push_back(op(Op::Scribble, 1));
  auto v = check(model_of(p), false);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
}

TEST(Interpreter, UnkeyedConditionsDeadlock) {
  auto p = producer_consumer(2);
  p.tasks[0].body = {block(Op::WhenTrue, produce(0), 0)};
  p.tasks[1].body = {block(Op::WhenTrue, consume(0), 1)};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "deadlock");
}

// The TMA and MMA work bodies run on the emulator: a balanced tma_async ring and a
// tma_umma ring are SAFE for every length and run clean with race detection.
TEST(Interpreter, TmaAndMmaRingsAreSafeAndRunOnTheEmulator) {
  for (auto kind : {PipeKind::TmaAsync, PipeKind::TmaUmma}) {
    Program p;
    p.mem[0] = MemSpec{kind, 2, -1, 0, false};
    p.length = 5;
    Op read = kind == PipeKind::TmaUmma ? Op::Mma : Op::Take;
    p.tasks = {TaskProgram{{}, {op(Op::Acquire, 0), op(Op::TmaCopy, 0), op(Op::Commit, 0)}, {}},
               TaskProgram{{}, {op(Op::Wait, 0), op(read, 0), op(Op::Release, 0)}, {}}};
    with_manager(p, quiet_options(), [&](auto& tm) {
      std::ostringstream out;
      auto rep = tm.print_and_verify(out);
      EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << rep.checker_text;
      EXPECT_TRUE(tm.verified());
      for (uint64_t seed = 1; seed <= 3; ++seed) EXPECT_NO_THROW(ts::cpu::run(tm, {.seed = seed, .detect_races = true}));
    });
  }
}

// A TMA copy under a condition of its own: when it is false the commit is empty, the
// checker's "TMA commit without TMA work" hang.
TEST(Interpreter, GuardedTmaCopyIsAnEmptyCommitHang) {
  Program p;
  p.mem[0] = MemSpec{PipeKind::TmaAsync, 1, -1, 0, false};
  p.tasks = {TaskProgram{{}, {op(Op::Acquire, 0), block(Op::WhenTrue, {op(Op::TmaCopy, 0)}, 3), op(Op::Commit, 0)}, {}},
             TaskProgram{{}, consume(0), {}}};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "deadlock");
  EXPECT_NE(v.report.find("TMA commit without TMA work"), std::string::npos) << v.report;
}

// A program proved SAFE runs clean on the emulator at 1-3 work tiles and lengths 0, 1, 3.
void expect_clean_runs(Program p) {
  for (int tiles : {1, 2, 3})
    for (int length : {0, 1, 3}) {
      p.tiles = tiles;
      p.length = length;
      EXPECT_EQ(emulated_kind(p), "") << tiles << " tiles, length " << length;
    }
}

// The persistent kernel's shape (LoopKind::TilesOfDomain): a domain loop inside the tile
// loop, a ring filled each iteration (m1) and an operand filled once per tile, read by every
// iteration and released after the loop (m0, one stage: attention's Q block).
Program per_tile_operand() {
  Program p;
  p.loop = LoopKind::TilesOfDomain;
  p.length = 2;
  p.mem[0] = ring(1);
  p.mem[1] = ring(2);
  TaskProgram producer, consumer;
  producer.tile_pre = produce(0);
  producer.body = produce(1);
  producer.tile_post = {op(Op::Advance)};
  consumer.tile_pre = {op(Op::Wait, 0)};
  consumer.body = {op(Op::Take, 0), op(Op::Wait, 1), op(Op::Take, 1), op(Op::Release, 1)};
  consumer.tile_post = {op(Op::Release, 0), op(Op::Advance)};
  p.tasks = {producer, consumer};
  return p;
}

TEST(Interpreter, PerTileOperandInATileLoopIsSafeAndRunsClean) {
  auto p = per_tile_operand();
  for (bool reduction : {false, true}) {
    auto v = check(model_of(p), reduction);
    EXPECT_EQ(v.verdict, ts::Verdict::SafeAllK) << v.report;
  }
  expect_clean_runs(p);
}

// Near miss: the operand released on the loop's last iteration instead of after the loop.
// Right wherever the loop runs; a tile whose loop runs no iteration (k = 0) never releases
// it: the checker's shortest failure is one such tile left unbalanced, and with a second
// tile the producer's acquire waits for ever (the emulator's deadlock).
TEST(Interpreter, PerTileOperandReleasedOnTheLastIterationFailsAtLengthZero) {
  auto p = per_tile_operand();
  p.tasks[1].body.push_back(block(Op::LastIter, {op(Op::Release, 0)}));
  p.tasks[1].tile_post = {op(Op::Advance)};
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "unbalanced") << v.report;
  EXPECT_EQ(v.length, 0) << v.report;
  EXPECT_EQ(v.tiles, 1) << v.report;
  p.length = 0;
  p.tiles = 2;
  EXPECT_EQ(emulated_kind(p), "deadlock");
  // At a length the loop runs, the same schedule is SAFE and runs clean.
  auto at_two = check(model_of(p), true, {2});
  EXPECT_TRUE(at_two.safe()) << at_two.report;
  p.length = 2;
  EXPECT_EQ(emulated_kind(p), "");
}

// Two domain loops of one bound in each tile (LoopKind::TilesOfTwoDomains, the ping-pong
// GEMM producer's shape): the producer fills m0 in its first loop, the consumer drains it
// in its second (Place::Across); m1 is filled and drained under one key in each loop of
// both tasks (two outcomes per iteration: one per loop, shared by the tasks).
Program two_loops_per_tile() {
  Program p;
  p.loop = LoopKind::TilesOfTwoDomains;
  p.length = 2;
  p.mem[0] = ring(3);
  p.mem[1] = ring(1);
  TaskProgram producer, consumer;
  producer.body = produce(0);
  append(producer.body, {block(Op::WhenTrue, produce(1), 1)});
  producer.body2 = {block(Op::WhenTrue, produce(1), 1)};
  producer.tile_post = {op(Op::Advance)};
  consumer.body = {block(Op::WhenTrue, consume(1), 1)};
  consumer.body2 = consume(0);
  append(consumer.body2, {block(Op::WhenTrue, consume(1), 1)});
  consumer.tile_post = {op(Op::Advance)};
  p.tasks = {producer, consumer};
  return p;
}

TEST(Interpreter, TwoLoopsPerTileAreSafeUpToTheStagesAndRunClean) {
  auto p = two_loops_per_tile();
  for (bool reduction : {false, true}) {
    auto v = check(model_of(p), reduction, {0, 1, 2, 3});
    EXPECT_TRUE(v.safe()) << v.report;
  }
  // m0 holds 3 stages: a fourth iteration of the producer's first loop waits for ever.
  auto v = check(model_of(p), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "deadlock") << v.report;
  EXPECT_EQ(v.length, 4) << v.report;
  expect_clean_runs(p);
}

// Near miss: the consumer's second loop asks m1's key under when_false. Its outcome is
// not the first loop's, so the shared key ties it to nothing: UNSAFE on the checker (an
// unbalanced or blocked ring) and on the emulator for some seed (the second loop's answers
// differ from the first's).
TEST(Interpreter, TheSecondLoopsKeyIsNotTheFirstLoops) {
  auto p = two_loops_per_tile();
  p.tasks[0].body2.clear();  // the producer fills m1 in its first loop only
  p.tasks[1].body2 = consume(0);
  append(p.tasks[1].body2, {block(Op::WhenFalse, consume(1), 1)});
  auto v = check(model_of(p), true, {1});
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_NE(emulated_kind(p), "");
}

// A per-tile bound against a kernel-wide one (tests/check_tile_lengths_test.cpp has the
// same schedule written by hand): T1 releases m0 and then writes m1, its alias; T0 rewrites
// m0 in its next tile before that write only when that tile starts on its last iteration
// (one iteration) while this one had two. Found by CI (replay property, seed
// 7346186456070229060) as a wrong UNSAFE of the ts::runtime bound.
Program long_tile_then_short_tile(bool per_tile_bound) {
  Program p;
  p.loop = LoopKind::TilesOfDomain;
  p.per_tile_bound = per_tile_bound;
  p.length = 1;
  p.mem[0] = MemSpec{PipeKind::AsyncAsync, 1, 1, 0, false};
  p.mem[1] = MemSpec{PipeKind::None, 1, 1, 1, false};
  p.mem[2] = ring(1);
  TaskProgram t0, t1;
  t0.body = {block(Op::LastIter, produce(0)), block(Op::FirstIter, consume(2))};
  auto drain = consume(0);
  drain.push_back(op(Op::Scribble, 1));
  t1.body = {block(Op::LastIter, drain), block(Op::FirstIter, produce(2))};
  t0.tile_post = t1.tile_post = {op(Op::Advance)};
  p.tasks = {t0, t1};
  return p;
}

TEST(Interpreter, TilesOfDifferentLengthsRaceOnlyUnderAPerTileBound) {
  auto uniform = long_tile_then_short_tile(false);
  auto v = check(model_of(uniform), true);
  EXPECT_TRUE(v.safe()) << v.report;
  uniform.tiles = 2;
  uniform.length = 2;
  EXPECT_EQ(emulated_kind(uniform), "");  // every tile two iterations: nothing races

  auto per_tile = long_tile_then_short_tile(true);
  v = check(model_of(per_tile), true);
  ASSERT_EQ(v.verdict, ts::Verdict::Unsafe) << v.report;
  EXPECT_EQ(v.kind, "race") << v.report;
  per_tile.tiles = 2;
  EXPECT_EQ(emulated_kind(per_tile, {2, 1}), "race");  // a long tile, then a short one
  EXPECT_EQ(emulated_kind(per_tile, {1, 2}), "");  // short then long: T0's tile starts on m2
}

}  // namespace
