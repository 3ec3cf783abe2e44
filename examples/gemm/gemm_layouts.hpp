// Operand layouts of the Hopper GEMM beside the plain one's (B stored N x K, K-major).
//
// Row-major B: D[M][N] = A[M][K] * B[K][N], B given K x N row-major, i.e. N-major for
// wgmma. A stage's B slice (64 K rows x 256 N columns) arrives as four TMA boxes of
// 64 (N) x 64 (K) with 128-byte swizzle, one after the other (8 KiB apart): every K row of
// a box is 64 N-contiguous bf16, which is the canonical 128B-swizzled MN-major layout.
// wgmma reads it with the B-transpose bit set and an MN-major descriptor (leading byte
// offset = the 8 KiB between N blocks, stride byte offset = 1024 B between 8-row K groups).
// The stage's bytes, its ring, barriers and the schedules' shape are the plain GEMM's, so
// the TaskManager model is the same; only the work bodies differ, hence new resource types
// (derived, so the untouched methods are shared) rather than edits of gemm_resources.hpp.
#pragma once
#include "gemm_resources.hpp"

namespace gemm {

constexpr int kRowBBoxN = 64;  // N extent of one B box: 64 bf16 = one 128-byte swizzle row

// The SMEM ring with a row-major (N-major) B slice; A as in the plain GEMM.
struct SmemABRowB : SmemAB {
  // Producer work: the elected lane issues the A box and the four B boxes onto the stage's
  // full barrier (the transaction bytes, kBytesA + kBytesB, are the plain GEMM's).
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
#if defined(__CUDA_ARCH__)
    if (si.thread.thread_in_task == 0) {
      auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK;
      auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
      ts::cuda::tensor_load_2d(base_a, static_cast<CUtensorMap const*>(map_a), src.k, src.m, si.barrier);
      auto const* mb = static_cast<CUtensorMap const*>(map_b);
#pragma unroll
      for (int j = 0; j < kTileN / kRowBBoxN; ++j)  // coordinates: (N column, K row)
        ts::cuda::tensor_load_2d(base_b + j * kRowBBoxN * kTileK, mb, src.n + j * kRowBBoxN, src.k, si.barrier);
    }
#else
    (void)si;
    (void)src;
#endif
  }
  // Consumer work: this warpgroup's A rows (K-major) and the N-major B slice.
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
#if defined(__CUDA_ARCH__)
    int wg = si.thread.warp_in_task() / 4;
    auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK + wg * 64 * kTileK;
    auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
    return StageDescs{ts::sm90::desc_k_major_sw128(base_a),
                      ts::sm90::desc_mn_major_sw128(base_b, kRowBBoxN * kTileK * 2)};
#else
    (void)si;
    return {};
#endif
  }
};

// The accumulator fed by an N-major B: wgmma with the B-transpose bit; a k16 step moves
// A by 32 bytes (2 descriptor units) and B by 16 K rows = 2048 bytes (128 units).
struct AccumulatorRowB : Accumulator {
  TS_HD void mma(ts::ProducerStage const&, StageDescs d) {
#if defined(__CUDA_ARCH__)
    ts::sm90::fence_accumulators(acc);
    ts::sm90::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kTileK / 16; ++kk)
      ts::sm90::wgmma_m64n256k16_bf16<1>(acc, d.a + 2 * kk, d.b + 128 * kk, (fresh && kk == 0) ? 0 : 1);
    ts::sm90::wgmma_commit();
#else
    (void)d;
#endif
    fresh = false;
  }
};

// The operand layout: the plain GEMM's schedules over these ring and accumulator types.
// make_gemm<RowMajorB>(p): p.map_b is the device CUtensorMap of B as K x N row-major in
// 64 (N) x 64 (K) boxes, 128-byte swizzle; everything else as for make_gemm.
using RowMajorB = OperandLayout<SmemABRowB, AccumulatorRowB>;

}  // namespace gemm
