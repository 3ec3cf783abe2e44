// Host-side declaration of the multicast GEMM (gemm_multicast.hpp): the cooperative
// shape's tasks and schedules over the cluster queue and the multicast ring.
#pragma once
#include <tuple>

#include "gemm_multicast.hpp"
#include "gemm_manager.hpp"

namespace gemm::multicast {

inline int pairs_m(Problem const& p) { return (p.tiles_m() + kClusterM - 1) / kClusterM; }
inline int pairs(Problem const& p) { return pairs_m(p) * p.tiles_n(); }

// map_b_half: B (N x K) in 128 x 64 boxes; the rest as for make_gemm. Launch with a grid
// that is a multiple of kClusterM (the launcher checks) and at most 2 x pairs(p).
inline auto make_gemm_multicast(Problem const& p, void const* map_b_half, ts::Options o = {}) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  SmemAB ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  ring.map_b_half = map_b_half;
  auto smem = ts::resource("smem_ab", ring);
  auto acc = ts::resource("acc", Accumulator{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  ClusterTileQueue q;
  q.pairs = pairs(p);
  q.pairs_m = pairs_m(p);
  q.tiles_n = p.tiles_n();
  q.num_tiles = q.pairs * kClusterM;
  auto tiles = ts::resource("tiles", q);
  return detail::cooperative_manager<LayoutLoadSchedule<SmemAB>, LayoutMathSchedule<SmemAB, Accumulator>>(
      gmem, smem, acc, out, tiles, o);
}

}  // namespace gemm::multicast
