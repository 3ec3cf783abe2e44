// Host-side declaration of the column-major-A GEMMs (gemm_colmajor_a.hpp): the plain
// GEMM's tasks, graph, pipeline and register budgets over the column-major-A ring and
// accumulator, with B K-major (make_gemm_colmajor_a) or row-major (…_rowmajor_b).
#pragma once
#include <tuple>

#include "gemm_colmajor_a.hpp"
#include "gemm_manager.hpp"

namespace gemm {

namespace detail {
// One manager for every column-major-A combination: only the ring and accumulator types
// (their work bodies) differ; resources, pipeline, tasks and graph are make_gemm's.
template <bool RowB>
inline auto make_gemm_colmajor_a_impl(Problem const& p, ts::Options o) {
  using Ring = SmemABColA<RowB>;
  using Acc = AccumulatorColA<RowB>;
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  Ring ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  auto smem = ts::resource("smem_ab", ring);
  auto acc = ts::resource("acc", Acc{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  auto tiles = ts::resource("tiles", static_queue(p));
  return cooperative_manager<LayoutLoadSchedule<Ring>, LayoutMathSchedule<Ring, Acc>>(gmem, smem, acc, out, tiles, o);
}
}  // namespace detail

// p.map_a is the device CUtensorMap of A as K x M row-major in 64 (M) x 64 (K) boxes,
// 128-byte swizzle; p.map_b as for make_gemm (B N x K, 256 x 64 boxes).
inline auto make_gemm_colmajor_a(Problem const& p, ts::Options o = {}) {
  return detail::make_gemm_colmajor_a_impl<false>(p, o);
}

// Column-major A and row-major B: p.map_a as above, p.map_b as for make_gemm_rowmajor_b
// (B K x N row-major, 64 (N) x 64 (K) boxes). D = A · B with both operands MN-major.
inline auto make_gemm_colmajor_a_rowmajor_b(Problem const& p, ts::Options o = {}) {
  return detail::make_gemm_colmajor_a_impl<true>(p, o);
}

}  // namespace gemm
