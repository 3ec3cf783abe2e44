// The grouped GEMM (a different K per group, examples/gemm/gemm_grouped.hpp) on the CPU
// emulator: its loads through per-group tensor maps, the per-tile K bound and the stacked
// D, under the static and the dynamic scheduler, checked group by group against the
// double-precision product of the same bf16 inputs.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cpu_test_util.hpp"
#include "gemm/gemm_grouped_manager.hpp"
#include "gemm/gemm_host.hpp"

namespace {

// G groups of M x N with the given K per group: their inputs, the map arrays the kernel
// indexes by group, and the stacked (G * M) x N D.
struct HostGrouped {
  int M, N;
  std::vector<std::unique_ptr<gemm::HostGemm>> groups;
  std::vector<ts::arch::TensorMap2D> maps_a, maps_b;
  std::vector<int> k_iters;
  std::vector<uint16_t> d;
  ts::arch::TensorMap2D map_d;

  HostGrouped(int m, int n, std::vector<int> const& ks, uint64_t seed) : M(m), N(n) {
    for (size_t g = 0; g < ks.size(); ++g) {
      groups.push_back(std::make_unique<gemm::HostGemm>(M, N, ks[g], seed * 31 + g));
      maps_a.push_back(groups.back()->map_a);
      maps_b.push_back(groups.back()->map_b);
      k_iters.push_back(ks[g] / gemm::kTileK);
    }
    d.assign(size_t(ks.size()) * M * N, uint16_t(0x7fc0));  // NaN: a tile never stored fails
    map_d = {d.data(), 2, N, (long long)(ks.size()) * M, 2LL * N, 64, 64};
  }
  gemm::GroupedProblem problem(bool tma_store) {
    return gemm::GroupedProblem{int(groups.size()), M,           N, k_iters.data(), maps_a.data(), maps_b.data(),
                                d.data(),           tma_store ? &map_d : nullptr};
  }
  // "" when every group's block of the stacked D matches its reference.
  std::string check() {
    std::string err;
    for (size_t g = 0; g < groups.size(); ++g) {
      auto& h = *groups[g];
      std::copy(d.begin() + g * M * N, d.begin() + (g + 1) * M * N, h.d.begin());
      std::string e = h.check();
      if (!e.empty()) err += "group " + std::to_string(g) + " (K " + std::to_string(h.K) + "): " + e;
    }
    return err;
  }
};

// K per group 64 .. 448 (1 to 7 stages; 7 wraps the 4-stage ring), N ragged (300: the
// second tile column is 44 wide), both epilogues, one and three CTAs.
TEST(GemmGroupedEmulator, EveryGroupMatchesItsReferenceUnderTheStaticScheduler) {
  for (bool tma_store : {true, false})
    for (int grid : {1, 3})
      for (uint64_t seed : {1, 2}) {
        HostGrouped h(128, 300, {64, 448, 128, 192}, seed);
        auto tm = gemm::make_grouped_gemm(h.problem(tma_store), ts::StaticScheduler{}, cpu_test::quiet());
        ASSERT_NE(tm.print_and_verify().verdict, ts::Verdict::Unsafe);
        ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
        EXPECT_EQ(h.check(), "") << "tma_store " << tma_store << " grid " << grid << " seed " << seed;
      }
}

// The dynamic (global-counter) scheduler: the sm_90a claim code on the emulator, one CTA
// per tile and two resident at a time; every tile is claimed once, then one failed claim
// per CTA ends it.
TEST(GemmGroupedEmulator, EveryGroupMatchesItsReferenceUnderTheDynamicScheduler) {
  for (uint64_t seed : {1, 2}) {
    HostGrouped h(256, 256, {320, 64, 192}, seed);
    auto p = h.problem(true);
    int const tiles = p.num_tiles();
    unsigned counter = 0;
    std::vector<ts::QueueResponse> scratch(size_t(tiles) * ts::kQueueMaxStages);
    ts::Options o = cpu_test::quiet();
    o.exhaustive_check = false;  // proved for every tile count in CheckTileCount.*
    auto tm = gemm::make_grouped_gemm(p, ts::GlobalCounterScheduler{&counter, scratch.data()}, o);
    ASSERT_NE(tm.print_and_verify().verdict, ts::Verdict::Unsafe);
    auto st = ts::cpu::run(tm, {.grid_blocks = tiles, .resident_blocks = 2, .seed = seed, .detect_races = seed == 1});
    EXPECT_EQ(h.check(), "") << "seed " << seed;
    EXPECT_EQ(st.ctas_started, tiles);
    EXPECT_EQ(counter, unsigned(2 * tiles));
  }
}

}  // namespace
