// The GEMM variants beside the plain one (grouped with a per-group K; row-major B;
// column-major A, alone and with row-major B)
// verify cleanly and the checker proves their schedules.
#include <gtest/gtest.h>

#include <sstream>

#include "gemm/gemm_grouped_manager.hpp"
#include "gemm/gemm_manager.hpp"

namespace {

gemm::GroupedProblem grouped_problem() {
  gemm::GroupedProblem p;
  p.groups = 4;
  p.M = 1024;
  p.N = 2048;
  return p;  // device pointers stay null: the model needs none of them
}

}  // namespace

TEST(GemmGroupedModel, StaticVariantIsProvedWithAPerTileKBound) {
  std::ostringstream out;
  auto tm = gemm::make_grouped_gemm(grouped_problem(), ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  // Both data tasks bound their K loop by the queue's per-tile method.
  auto const& m = tm.model();
  int tiles = m.find_resource("tiles");
  for (auto const& t : m.tasks) {
    auto const& loop = t.schedule.blocks.at(t.schedule.domain_loop);
    EXPECT_EQ(loop.end.kind, ts::ir::Bound::Kind::PerTile) << t.name;
    EXPECT_EQ(loop.end.provider_resource, tiles) << t.name;
  }
}

TEST(GemmGroupedModel, DynamicVariantRunsTheSameDataSchedules) {
  std::ostringstream out;
  auto tm = gemm::make_grouped_gemm(grouped_problem(), ts::GlobalCounterScheduler{nullptr, nullptr}, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  auto stat = gemm::make_grouped_gemm(grouped_problem(), ts::Options{.verbose = false, .exhaustive_check = false});
  EXPECT_EQ(tm.model().tasks[0].schedule.steps.size(), stat.model().tasks[0].schedule.steps.size());
  EXPECT_EQ(tm.model().tasks[2].schedule.steps.size(), stat.model().tasks[1].schedule.steps.size());
}

TEST(GemmGroupedModel, TilesWalkGroupsInOrderWithStackedRows) {
  // 2 x 3 tiles per group: tile 7 is the second group's tile 1.
  auto w = gemm::grouped_problem_tile(7, 12, 2, 3);
  EXPECT_TRUE(w.valid);
  EXPECT_EQ(w.coord[2], 1);
  EXPECT_EQ(w.coord[0], 2 + 1);  // stacked row: group 1 starts at tile row 2
  EXPECT_EQ(w.coord[1], 0);
  EXPECT_FALSE(gemm::grouped_problem_tile(12, 12, 2, 3).valid);
}

TEST(GemmRowMajorBModel, IsProvedAndMatchesThePlainGemmsSchedules) {
  gemm::Problem p{1024, 2048, 4096};
  std::ostringstream out;
  auto tm = gemm::make_gemm<gemm::RowMajorB>(p, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  // Same stage bytes, arrivals and step sequence as the K-major GEMM: only bodies differ.
  auto plain = gemm::make_gemm(p, ts::Options{.verbose = false, .exhaustive_check = false});
  int smem = tm.model().find_resource("smem_ab");
  EXPECT_EQ(tm.layout().pipes[smem].stage_bytes, plain.layout().pipes[smem].stage_bytes);
  EXPECT_EQ(tm.layout().pipes[smem].empty_arrivals, 8);
  EXPECT_EQ(tm.layout().smem_bytes, plain.layout().smem_bytes);
  for (size_t t = 0; t < 2; ++t)
    EXPECT_EQ(tm.model().tasks[t].schedule.steps.size(), plain.model().tasks[t].schedule.steps.size());
}

// Column-major A (and column-major A with row-major B): proved SAFE for every K, with the
// plain GEMM's stage bytes, arrivals, SMEM and step sequences (only work bodies differ).
namespace {
template <class TM>
void expect_proved_like_plain(TM& tm, gemm::Problem const& p) {
  std::ostringstream out;
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  auto plain = gemm::make_gemm(p, ts::Options{.verbose = false, .exhaustive_check = false});
  int smem = tm.model().find_resource("smem_ab");
  EXPECT_EQ(tm.layout().pipes[smem].stage_bytes, plain.layout().pipes[smem].stage_bytes);
  EXPECT_EQ(tm.layout().pipes[smem].empty_arrivals, 8);
  EXPECT_EQ(tm.layout().smem_bytes, plain.layout().smem_bytes);
  for (size_t t = 0; t < 2; ++t)
    EXPECT_EQ(tm.model().tasks[t].schedule.steps.size(), plain.model().tasks[t].schedule.steps.size());
}
}  // namespace

TEST(GemmColMajorAModel, IsProvedAndMatchesThePlainGemmsSchedules) {
  gemm::Problem p{1024, 2048, 4096};
  auto tm = gemm::make_gemm<gemm::ColMajorA>(p, ts::Options{.verbose = true});
  expect_proved_like_plain(tm, p);
}

TEST(GemmColMajorAModel, WithRowMajorBIsProvedToo) {
  gemm::Problem p{1024, 2048, 4096};
  auto tm = gemm::make_gemm<gemm::ColMajorARowMajorB>(p, ts::Options{.verbose = true});
  expect_proved_like_plain(tm, p);
}
