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

// The B slice as kTileN / kRowBBoxN boxes of 64 (N) x 64 (K), 8 KiB apart (coordinates:
// N column, K row). Shared by the row-major-B and the column-major-A rings.
TS_HD inline void load_b_n_major(uint16_t* base_b, void const* map_b, TileSource src, uint64_t* bar) {
TS_UNROLL
  for (int j = 0; j < kTileN / kRowBBoxN; ++j)
    ts::arch::tensor_load_2d(base_b + j * kRowBBoxN * kTileK, map_b, src.n + j * kRowBBoxN, src.k, bar);
}
// The descriptor of an N-major B slice: N blocks 8 KiB apart.
TS_HD inline uint64_t desc_b_n_major(uint16_t const* base_b) {
  return ts::arch::wgmma_desc_mn_major(base_b, kRowBBoxN * kTileK * 2);
}

// The SMEM ring with a row-major (N-major) B slice; A as in the plain GEMM.
struct SmemABRowB : SmemAB {
  // Producer work: the elected lane issues the A box and the four B boxes onto the stage's
  // full barrier (the transaction bytes, kBytesA + kBytesB, are the plain GEMM's).
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
    if (si.thread.thread_in_task != 0) return;
    ts::arch::tensor_load_2d(stage_a(si), map_a, src.k, src.m, si.barrier);
    load_b_n_major(stage_b(si), map_b, src, si.barrier);
  }
  // Consumer work: this warpgroup's A rows (K-major) and the N-major B slice.
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
    return StageDescs{ts::arch::wgmma_desc_k_major(stage_a_rows(si)), desc_b_n_major(stage_b(si))};
  }
};

// The accumulator fed by an N-major B: wgmma with the B-transpose bit; a k16 step moves
// A by 32 bytes and B by 16 K rows = 2048 bytes.
struct AccumulatorRowB : Accumulator {
  TS_HD void mma(ts::ProducerStage const& si, StageDescs d) { mma_steps<1, 0, 32, 2048>(si, d); }
};

// The operand layout: the plain GEMM's schedules over these ring and accumulator types.
// make_gemm<RowMajorB>(p): p.map_b is the device CUtensorMap of B as K x N row-major in
// 64 (N) x 64 (K) boxes, 128-byte swizzle; everything else as for make_gemm.
using RowMajorB = OperandLayout<SmemABRowB, AccumulatorRowB>;

}  // namespace gemm
