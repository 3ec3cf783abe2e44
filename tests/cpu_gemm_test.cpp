// The Hopper GEMM's own work bodies (examples/gemm/gemm_resources.hpp) on the CPU
// emulator: TMA boxes, emulated asynchronous wgmma on the per-thread register
// fragment, the direct-store and the TMA-store epilogue, static and CLC-scheduled, against a host
// reference, at sizes that are and are not multiples of the 128 x 256 x 64 tile.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpu_test_util.hpp"
#include "gemm/gemm_host.hpp"
#include "gemm/gemm_colmajor_a.hpp"
#include "gemm/gemm_manager.hpp"

namespace {

struct Size {
  int M, N, K;
};
constexpr Size kRagged{200, 300, 136};   // partial tiles in M, N and K
constexpr Size kWhole{256, 512, 128};    // 2 x 2 tiles, 2 k-blocks

std::string where(Size s, int grid, uint64_t seed) {
  return std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K) + " grid " +
         std::to_string(grid) + " seed " + std::to_string(seed);
}

gemm::Problem problem(gemm::HostGemm& h) { return {h.M, h.N, h.K, &h.map_a, &h.map_b, h.d.data(), nullptr}; }

}  // namespace

TEST(CpuGemm, StaticPersistentMatchesReference) {
  for (Size s : {kRagged, kWhole, Size{1024, 256, 64}})  // the last: 8 tile rows, one whole raster group
    for (int grid : {1, 3})
      for (uint64_t seed : {1, 2}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        auto tm = gemm::make_gemm(problem(h), cpu_test::quiet());
        ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
        ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
        EXPECT_EQ(h.check(), "") << where(s, grid, seed);
      }
}

// The sm_90a dynamic scheduler on the emulator, through the same scheduler code as on the
// GPU (atomic claims on the counter, responses staged in `scratch` and bulk-copied into
// SMEM): every CTA of a one-CTA-per-tile grid starts (nothing cancels one), and the
// counter has handed out each tile once and then exactly one failed claim per CTA (its
// first claim, or the fetch that ends its tile loop).
TEST(CpuGemm, GlobalCounterScheduledMatchesReference) {
  for (Size s : {kRagged, kWhole, Size{384, 520, 72}})
    for (int resident : {1, 2})
      for (uint64_t seed : {3, 4}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        unsigned counter = 0;
        std::vector<ts::QueueResponse> scratch(size_t(h.tiles()) * ts::kQueueMaxStages);
        auto tm = gemm::make_gemm(problem(h), ts::GlobalCounterScheduler{&counter, scratch.data()}, cpu_test::quiet());
        ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
        auto st = ts::cpu::run(
            tm, {.grid_blocks = h.tiles(), .resident_blocks = resident, .seed = seed, .detect_races = seed == 3});
        EXPECT_EQ(h.check(), "") << where(s, resident, seed);
        EXPECT_EQ(st.ctas_started, h.tiles()) << where(s, resident, seed);
        EXPECT_EQ(st.ctas_canceled, 0) << where(s, resident, seed);
        EXPECT_EQ(counter, unsigned(2 * h.tiles())) << where(s, resident, seed);
      }
}

// The same GEMM with one type changed: Cluster Launch Control cancels the CTAs that have
// not started and takes their tiles, so started + canceled CTAs cover the tiles.
TEST(CpuGemm, ClcScheduledMatchesReferenceEachTileOnce) {
  for (Size s : {kRagged, kWhole, Size{384, 520, 72}})
    for (int resident : {1, 2})
      for (uint64_t seed : {3, 4}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        auto tm = gemm::make_gemm(problem(h), ts::ClcScheduler{}, cpu_test::quiet());
        ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
        auto st = ts::cpu::run(
            tm, {.grid_blocks = h.tiles(), .resident_blocks = resident, .seed = seed, .detect_races = seed == 3});
        EXPECT_EQ(h.check(), "") << where(s, resident, seed);
        EXPECT_EQ(st.ctas_started + st.ctas_canceled, h.tiles()) << where(s, resident, seed);
        if (resident == 1) {
          EXPECT_GT(st.ctas_canceled, 0) << where(s, resident, seed);
        }
      }
}

// The emulated wgmma is asynchronous like the real one: it reads SMEM when wait_group
// retires it. A math schedule that releases a stage right after issuing its MMAs (not
// after they retired) lets TMA refill the stage under the MMAs' feet. The checker cannot
// see this (the MMA's SMEM reads are a protocol inside the work bodies, SPEC S6 known
// gaps); the emulator's race detector names it.
namespace {
struct EagerReleaseMath {
  template <class S, class Smem, class Acc, class Out, class Q>
  void operator()(S& s, Smem& smem, Acc& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      ts::work<&gemm::Accumulator::begin_tile>(acc);
      s.domain_loop(0, ts::runtime(out->k_iters, "k_iters").at_least(1), 1, [&] {
        smem.wait();
        auto descs = ts::work<&gemm::SmemAB::descriptors>(smem);
        ts::work<&gemm::Accumulator::mma>(acc, descs);
        smem.release();  // too early: this stage's MMAs are still in flight
        ts::work<&gemm::Accumulator::retire_previous>(acc);
      });
      ts::work<&gemm::Accumulator::retire_all>(acc);
      ts::work<&gemm::GmemD::store>(out, ts::work<&gemm::Accumulator::fragment>(acc));
      ts::queue_epilogue(wq);
    });
    ts::work<&gemm::GmemD::drain>(out);
  }
};
}  // namespace

TEST(CpuGemm, ReleasingAStageBeforeItsWgmmaRetiredIsARace) {
  gemm::HostGemm h(128, 256, 6 * 64, 5);  // 6 k-blocks: the 4-stage ring wraps around
  auto [gmem, smem, acc, out] = gemm::detail::gemm_resources(problem(h));
  gemm::TileQueue q;
  q.num_tiles = 1;
  q.tiles_m = q.tiles_n = 1;
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(gemm::LoadSchedule{}, gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      EagerReleaseMath{}, smem, acc, out, tiles);
  auto tm = ts::TaskManager(ts::tasks(load, math), ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}},
                            cpu_test::quiet());
  tm.print_and_verify();
  try {
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = 1, .detect_races = true});
    FAIL() << "expected a RaceError on smem_ab";
  } catch (ts::cpu::RaceError const& e) {
    EXPECT_NE(std::string(e.what()).find("smem_ab"), std::string::npos) << e.what();
  }
}

// The TMA-store epilogue (gemm_epilogue.hpp) on the emulator: the fragment through the
// two staging boxes per warp group (named barriers, the emulated TMA store clipping the
// boxes at the edges of D), at ragged and whole sizes, races checked.
TEST(CpuGemm, TmaStoreEpilogueMatchesReference) {
  for (Size s : {kRagged, kWhole})
    for (int grid : {1, 2}) {
      gemm::HostGemm h(s.M, s.N, s.K, 5);
      auto p = problem(h);
      p.map_d = &h.map_d;
      auto tm = gemm::make_gemm(p, cpu_test::quiet());
      ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
      ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = 5, .detect_races = true});
      EXPECT_EQ(h.check(), "") << where(s, grid, 5);
    }
}

// The MN-major operand layouts (gemm_layouts.hpp, gemm_colmajor_a.hpp) on the emulator:
// A stored K x M (column-major) and/or B stored K x N (row-major), loaded as 64-wide TMA
// boxes and read by the emulated wgmma through MN-major descriptors, against the same
// reference as the plain GEMM, at ragged and whole sizes, one and two CTAs, races checked.
namespace {
// HostGemm's operands transposed (A as K x M, B as K x N, both row-major) and their maps
// in the MN-major layouts' boxes: 64 (M or N) x 64 (K).
struct MnMajorOperands {
  std::vector<uint16_t> at, bt;
  ts::arch::TensorMap2D map_at, map_bt;
  explicit MnMajorOperands(gemm::HostGemm const& h) : at(size_t(h.K) * h.M), bt(size_t(h.K) * h.N) {
    for (int k = 0; k < h.K; ++k) {
      for (int m = 0; m < h.M; ++m) at[size_t(k) * h.M + m] = h.a[size_t(m) * h.K + k];
      for (int n = 0; n < h.N; ++n) bt[size_t(k) * h.N + n] = h.b[size_t(n) * h.K + k];
    }
    map_at = {at.data(), 2, h.M, h.K, 2LL * h.M, gemm::kColABoxM, gemm::kTileK};
    map_bt = {bt.data(), 2, h.N, h.K, 2LL * h.N, gemm::kRowBBoxN, gemm::kTileK};
  }
};

template <class Layout>
void expect_layout_matches_reference(bool col_a, bool row_b, char const* name) {
  for (Size s : {kRagged, kWhole})
    for (int grid : {1, 2}) {
      gemm::HostGemm h(s.M, s.N, s.K, 7);
      MnMajorOperands t(h);
      auto p = problem(h);
      if (col_a) p.map_a = &t.map_at;
      if (row_b) p.map_b = &t.map_bt;
      auto tm = gemm::make_gemm<Layout>(p, cpu_test::quiet());
      ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK) << name;
      ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = 7, .detect_races = true});
      EXPECT_EQ(h.check(), "") << name << " " << where(s, grid, 7);
    }
}
}  // namespace

TEST(CpuGemm, RowMajorBMatchesReference) {
  expect_layout_matches_reference<gemm::RowMajorB>(false, true, "row-major B");
}
TEST(CpuGemm, ColMajorAMatchesReference) {
  expect_layout_matches_reference<gemm::ColMajorA>(true, false, "column-major A");
}
TEST(CpuGemm, ColMajorARowMajorBMatchesReference) {
  expect_layout_matches_reference<gemm::ColMajorARowMajorB>(true, true, "column-major A, row-major B");
}

// An MN-major B descriptor whose block distance is 0 would make every 64-column block of
// the 256-wide MMA read the first one; the emulated wgmma refuses it by name.
namespace {
struct SmemABRowBNoBlockDistance : gemm::SmemABRowB {
  TS_HD gemm::StageDescs descriptors(ts::ConsumerStage const& si) const {
    return gemm::StageDescs{ts::arch::wgmma_desc_k_major(stage_a_rows(si)),
                            ts::arch::wgmma_desc_mn_major(stage_b(si), 0)};
  }
};
}  // namespace

TEST(CpuGemm, MnMajorDescriptorWithoutBlockDistanceIsRefused) {
  gemm::HostGemm h(128, 256, 64, 1);
  MnMajorOperands t(h);
  auto p = problem(h);
  p.map_b = &t.map_bt;
  auto tm = gemm::make_gemm<gemm::OperandLayout<SmemABRowBNoBlockDistance, gemm::AccumulatorRowB>>(p, cpu_test::quiet());
  tm.print_and_verify();
  try {
    ts::cpu::run(tm, {.grid_blocks = 1});
    FAIL() << "expected an EmulationError";
  } catch (ts::cpu::EmulationError const& e) {
    EXPECT_NE(std::string(e.what()).find("MN-major operand B spans 256 rows"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("block distance is 0 bytes"), std::string::npos) << e.what();
  }
}

// The emulated wgmma's D fragment: 128 threads x 128 floats cover the 64 x 256 warpgroup
// tile exactly once, with the PTX ISA's placement (thread 0 holds (0,0), (0,1), (8,0),
// (8,1), (0,8), ...; lane l of warp w starts at row 16 w + l / 4, column 2 (l % 4)).
TEST(CpuGemm, WgmmaFragmentLayoutCoversTheTileOnce) {
  std::vector<int> hits(64 * 256, 0);
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < 128; ++i) {
      int r = ts::arch::wgmma_d_row(t, i), c = ts::arch::wgmma_d_col(t, i);
      ASSERT_TRUE(r >= 0 && r < 64 && c >= 0 && c < 256) << "thread " << t << " float " << i;
      ++hits[r * 256 + c];
    }
  for (int k = 0; k < 64 * 256; ++k) ASSERT_EQ(hits[k], 1) << "row " << k / 256 << " col " << k % 256;
  EXPECT_EQ(ts::arch::wgmma_d_row(0, 2), 8);
  EXPECT_EQ(ts::arch::wgmma_d_col(0, 4), 8);
  EXPECT_EQ(ts::arch::wgmma_d_row(32 + 5, 0), 17);
  EXPECT_EQ(ts::arch::wgmma_d_col(32 + 5, 1), 3);
}
