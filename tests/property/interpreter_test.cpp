// The interpreter reproduces verdicts the hand-written checker tests establish, so the
// properties test the checker and not a broken replay of the data.
#include <gtest/gtest.h>

#include "checker_runs.hpp"
#include "program_builders.hpp"

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

}  // namespace
