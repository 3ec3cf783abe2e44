// The interpreter reproduces verdicts the hand-written checker tests establish, so the
// properties test the checker and not a broken replay of the data.
#include <gtest/gtest.h>

#include <sstream>

#include "checker_runs.hpp"
#include "manager.hpp"
#include "program_builders.hpp"
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

}  // namespace
