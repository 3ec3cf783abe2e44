// The tasks' warp layout is validated when the TaskManager is built (ts::ModelError,
// src/core/task_layout_validation.cpp). Before: overlapping tasks, warps(-1, 1), 41
// warps (1,312 threads per CTA) and an empty task list all passed verification.
#include <gtest/gtest.h>

#include "bad_input_fixtures.hpp"
#include "ts/ts.hpp"

namespace {

using bad_input::Dst;
using bad_input::Src;
using Copy = bad_input::Copy<8>;

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

// Two copy tasks over their own resources at the given warp ranges.
void build_two(int a_start, int a_warps, int b_start, int b_warps) {
  auto in1 = ts::resource("in1", Src{});
  auto out1 = ts::resource("out1", Dst{});
  auto in2 = ts::resource("in2", Src{});
  auto out2 = ts::resource("out2", Dst{});
  auto a = ts::Task("A").warps(a_start, a_warps).reads(in1).writes(out1).schedule(Copy{}, in1, out1);
  auto b = ts::Task("B").warps(b_start, b_warps).reads(in2).writes(out2).schedule(Copy{}, in2, out2);
  ts::TaskManager tm(ts::tasks(a, b), ts::DependencyGraph{{out1, {in1}}, {out2, {in2}}}, quiet());
  tm.print_and_verify();
}

ts::Diagnostic model_error(void (*f)()) {
  try {
    f();
  } catch (ts::ModelError const& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "expected ts::ModelError";
  return {};
}

}  // namespace

TEST(BadInputTasks, OverlappingWarpRangesRejected) {
  auto d = model_error([] { build_two(0, 4, 2, 4); });
  EXPECT_EQ(d.check, "model.overlapping-warps");
  EXPECT_EQ(d.task, "B");
  EXPECT_NE(d.message.find("'A' (warps 0..3) and 'B' (warps 2..5)"), std::string::npos) << d.format();
  EXPECT_EQ(d.expected, "'B' starting at warp >= 4");
  EXPECT_EQ(d.actual, "warps(2, 4)");
  EXPECT_NE(d.hint.find(".warps(4, 4)"), std::string::npos) << d.format();
}

TEST(BadInputTasks, NegativeStartRejected) {
  auto d = model_error([] { build_two(-1, 1, 1, 1); });
  EXPECT_EQ(d.check, "model.warp-range");
  EXPECT_EQ(d.task, "A");
  EXPECT_EQ(d.actual, "warp_start -1, num_warps 1");
  EXPECT_EQ(d.expected, "warp_start >= 0 and num_warps >= 1");
}

TEST(BadInputTasks, ZeroWarpsRejected) {
  auto d = model_error([] { build_two(0, 1, 1, 0); });
  EXPECT_EQ(d.check, "model.warp-range");
  EXPECT_EQ(d.task, "B");
}

TEST(BadInputTasks, MoreThan1024ThreadsRejected) {
  auto d = model_error([] { build_two(0, 1, 1, 40); });  // 41 warps = 1,312 threads
  EXPECT_EQ(d.check, "model.block-threads");
  EXPECT_EQ(d.task, "B");
  EXPECT_EQ(d.expected, "<= 1024 threads (32 warps)");
  EXPECT_EQ(d.actual, "1312 threads (41 warps)");
}

TEST(BadInputTasks, EmptyTaskListRejected) {
  auto d = model_error([] {
    ts::TaskManager tm(ts::tasks(), ts::DependencyGraph{}, quiet());
    tm.print_and_verify();
  });
  EXPECT_EQ(d.check, "model.no-tasks");
  EXPECT_EQ(d.actual, "0 tasks");
  EXPECT_NE(d.hint.find("ts::tasks("), std::string::npos);
}

TEST(BadInputTasks, NearMissAdjacentRangesAndExactly32WarpsPass) {
  EXPECT_NO_THROW(build_two(0, 4, 4, 28));
}
