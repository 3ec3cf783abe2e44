// Host-side declaration of the row-major-B GEMM (gemm_layouts.hpp): the plain GEMM's
// tasks, graph, pipeline and register budgets over the row-major-B ring and accumulator.
#pragma once
#include <tuple>

#include "gemm_layouts.hpp"
#include "gemm_manager.hpp"

namespace gemm {

// p.map_b is the device CUtensorMap of B as K x N row-major in 64 (N) x 64 (K) boxes,
// 128-byte swizzle; everything else as for make_gemm.
inline auto make_gemm_rowmajor_b(Problem const& p, ts::Options o = {}) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  SmemABRowB ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  auto smem = ts::resource("smem_ab", ring);
  auto acc = ts::resource("acc", AccumulatorRowB{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  auto tiles = ts::resource("tiles", detail::static_queue(p));
  return detail::cooperative_manager<LayoutLoadSchedule<SmemABRowB>, LayoutMathSchedule<SmemABRowB, AccumulatorRowB>>(
      gmem, smem, acc, out, tiles, o);
}

}  // namespace gemm
