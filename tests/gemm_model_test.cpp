// The Hopper GEMM's TS declaration verifies cleanly and prints as documented.
#include <gtest/gtest.h>

#include <sstream>

#include "gemm/gemm_manager.hpp"

TEST(GemmModel, VerifiesWithoutDiagnostics) {
  gemm::Problem p{1024, 1024, 512};
  auto tm = gemm::make_gemm(p, ts::Options{.verbose = false, .exhaustive_check = false});
  auto rep = tm.print_and_verify();
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  auto const& m = tm.model();
  ASSERT_EQ(m.tasks.size(), 2u);
  EXPECT_EQ(m.tasks[1].schedule.blocks[m.tasks[1].schedule.work_tile_loop].kind, ts::ir::BlockKind::WorkTileLoop);
}

TEST(GemmModel, LayoutFitsSharedMemory) {
  gemm::Problem p{256, 512, 128};
  auto tm = gemm::make_gemm(p, ts::Options{.verbose = false, .exhaustive_check = false});
  auto const& L = tm.layout();
  EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_EQ(L.block_threads, 384);
  int smem = tm.model().find_resource("smem_ab");
  EXPECT_EQ(L.pipes[smem].full_arrivals, 1);
  EXPECT_EQ(L.pipes[smem].empty_arrivals, 8);
  EXPECT_EQ(L.pipes[smem].stage_bytes, uint32_t(gemm::kBytesA + gemm::kBytesB));
}

TEST(GemmModel, CheckerProvesTheScheduleForEveryK) {
  gemm::Problem p{1024, 1024, 4096};
  std::ostringstream out;
  auto tm = gemm::make_gemm(p, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  EXPECT_NE(out.str().find("Result: SAFE (for all k >= 1)"), std::string::npos);
}

TEST(GemmModel, DynamicSchedulerVariantVerifiesAndIsProved) {
  gemm::Problem p{1024, 2048, 4096};
  std::ostringstream out;
  auto tm = gemm::make_gemm(p, ts::GlobalCounterScheduler{nullptr, nullptr}, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  // The data tasks' schedules are the static variant's, unchanged.
  auto stat = gemm::make_gemm(p, ts::Options{.verbose = false, .exhaustive_check = false});
  EXPECT_EQ(tm.model().tasks[0].schedule.steps.size(), stat.model().tasks[0].schedule.steps.size());
  EXPECT_EQ(tm.model().tasks[2].schedule.steps.size(), stat.model().tasks[1].schedule.steps.size());
}
