// Column-major A for the Hopper GEMM: D[M][N] = A[M][K] * B, A given K x M row-major
// (i.e. A is stored column-major; M-major for wgmma), B either N x K (K-major, as in the
// plain GEMM) or K x N row-major (N-major, as in gemm_layouts.hpp).
//
// A stage's A slice (64 K rows x 128 M columns) arrives as two TMA boxes of 64 (M) x 64 (K)
// with 128-byte swizzle, 8 KiB apart: every K row of a box is 64 M-contiguous bf16 (one
// 128-byte swizzle row), which is the canonical 128B-swizzled MN-major layout. Box j holds
// tile rows 64j..64j+63, exactly the rows of math warpgroup j, so each warpgroup's
// m64 wgmma reads one box: one 64-wide M block, hence the descriptor's leading byte offset
// (the distance to the next M block) is never used by an m64 MMA; it is set to the box
// distance anyway. The stride byte offset is 1024 B (8-row K groups), and a k16 step
// moves the descriptor by 16 K rows = 2048 B, as for row-major B. wgmma reads it with the
// A-transpose bit (bf16 allows transposing A from shared memory).
//
// Bytes per stage, ring depth, barriers, tasks and the schedules' shape are the plain
// GEMM's, so the TaskManager model is the same; only the work bodies differ. They live in
// new derived types (the plain and row-major-B kernels are untouched) and reuse the
// layout schedules LayoutLoadSchedule<Ring> / LayoutMathSchedule<Ring, Acc>.
#pragma once
#include "gemm_layouts.hpp"

namespace gemm {

constexpr int kColABoxM = 64;  // M extent of one A box: 64 bf16 = one 128-byte swizzle row

// The SMEM ring with an M-major A slice; B K-major (RowB = false) or N-major (RowB = true).
template <bool RowB>
struct SmemABColA : SmemAB {
  // Producer work: the elected lane issues the two A boxes and the B box(es) onto the
  // stage's full barrier. Box sizes sum to kBytesA + kBytesB, the plain GEMM's transaction.
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
    if (si.thread.thread_in_task != 0) return;
    auto* base_a = stage_a(si);
TS_UNROLL
    for (int j = 0; j < kTileM / kColABoxM; ++j)  // coordinates: (M column, K row)
      ts::arch::tensor_load_2d(base_a + j * kColABoxM * kTileK, map_a, src.m + j * kColABoxM, src.k, si.barrier);
    if constexpr (RowB)
      load_b_n_major(stage_b(si), map_b, src, si.barrier);
    else
      ts::arch::tensor_load_2d(stage_b(si), map_b, src.k, src.n, si.barrier);  // (K column, N row)
  }
  // Consumer work: this warpgroup's A box (M-major) and the B slice.
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
    int wg = si.thread.warp_in_task() / 4;
    uint64_t da = ts::arch::wgmma_desc_mn_major(stage_a(si) + wg * kColABoxM * kTileK, kColABoxM * kTileK * 2);
    if constexpr (RowB)
      return StageDescs{da, desc_b_n_major(stage_b(si))};
    else
      return StageDescs{da, ts::arch::wgmma_desc_k_major(stage_b(si))};
  }
};

// The accumulator fed by an M-major A: wgmma with the A-transpose bit (and the B one when
// B is N-major). A k16 step moves A by 16 K rows = 2048 B; B by 32 B when K-major, by
// 2048 B when N-major.
template <bool RowB>
struct AccumulatorColA : Accumulator {
  TS_HD void mma(ts::ProducerStage const& si, StageDescs d) { mma_steps<RowB ? 1 : 0, 1, 2048, RowB ? 2048 : 32>(si, d); }
};

// The operand layouts. make_gemm<ColMajorA>(p): p.map_a is the device CUtensorMap of A as
// K x M row-major in 64 (M) x 64 (K) boxes, 128-byte swizzle; p.map_b as for make_gemm
// (B N x K, 256 x 64 boxes). make_gemm<ColMajorARowMajorB>(p): p.map_a as above, p.map_b
// as for RowMajorB (B K x N row-major, 64 (N) x 64 (K) boxes): D = A * B with both
// operands MN-major.
using ColMajorA = OperandLayout<SmemABColA<false>, AccumulatorColA<false>>;
using ColMajorARowMajorB = OperandLayout<SmemABColA<true>, AccumulatorColA<true>>;

}  // namespace gemm
