// The multicast GEMM (examples/gemm/gemm_multicast.hpp): clusters of two CTAs share the
// B slice. Its model is proved, its layout counts both CTAs' releases on every empty
// barrier and asks for clusters of two; on the emulator (which runs every CTA as its own
// cluster, each loading its whole B slice and taking both CTAs' arrivals locally) the
// same schedules and bodies compute D, pairs of tiles included.
#include <gtest/gtest.h>

#include <string>

#include "cpu_test_util.hpp"
#include "gemm/gemm_host.hpp"
#include "gemm/gemm_multicast_manager.hpp"

namespace {

gemm::Problem problem(gemm::HostGemm& h) { return {h.M, h.N, h.K, &h.map_a, &h.map_b, h.d.data(), nullptr}; }

TEST(GemmMulticast, ProvedAndLaidOutForClustersOfTwo) {
  gemm::Problem p{1000, 1024, 4096};
  auto tm = gemm::multicast::make_gemm_multicast(p, nullptr, cpu_test::quiet());
  auto rep = tm.print_and_verify();
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK);
  auto const& L = tm.layout();
  int smem = tm.model().find_resource("smem_ab");
  EXPECT_EQ(L.cluster_ctas, 2);
  EXPECT_EQ(L.pipes[smem].multicast_ctas, 2);
  EXPECT_EQ(L.pipes[smem].empty_arrivals, 16);  // 8 math warp leaders in each of the 2 CTAs
  EXPECT_EQ(L.pipes[smem].stage_bytes, uint32_t(gemm::kBytesA + gemm::kBytesB));  // own A + both B halves
}

TEST(GemmMulticast, PairQueueGivesBothCtasOfAClusterTheSamePair) {
  gemm::Problem p{3 * gemm::kTileM, 2 * gemm::kTileN, 64};  // 3 row tiles: 2 pairs of rows, the last half empty
  EXPECT_EQ(gemm::multicast::pairs(p), 4);
  gemm::multicast::ClusterTileQueue q;
  q.pairs = 4;
  q.pairs_m = 2;
  q.tiles_n = 2;
  q.num_tiles = 8;
  for (int t = 0; t < 8; t += 2) {
    auto r0 = q.make_tile(t), r1 = q.make_tile(t + 1);
    EXPECT_EQ(r0.coord[1], r1.coord[1]) << t;       // same B slice
    EXPECT_EQ(r0.coord[0] + 1, r1.coord[0]) << t;   // vertically adjacent
    EXPECT_EQ(r0.coord[2], 0);
    EXPECT_EQ(r1.coord[2], 1);
  }
  EXPECT_FALSE(q.make_tile(8).valid);
}

TEST(GemmMulticast, RunsOnTheEmulatorAgainstTheReference) {
  struct Size {
    int M, N, K;
  };
  for (Size s : {Size{200, 300, 136}, Size{384, 512, 128}})
    for (int grid : {2, 4})
      for (uint64_t seed : {1, 2}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        auto tm = gemm::multicast::make_gemm_multicast(problem(h), &h.map_b, cpu_test::quiet());
        ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
        ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
        EXPECT_EQ(h.check(), "") << s.M << "x" << s.N << "x" << s.K << " grid " << grid << " seed " << seed;
      }
}

}  // namespace
