// The Hopper GEMM's epilogues: a warp group's fp32 wgmma fragment to bf16 D, on both
// backends through the portable layer (ts/arch/portable.hpp).
//
// TMA-store epilogue: the fragment is converted to bf16 and written, 64 x 64 at a time,
// into a 128-byte swizzled SMEM box (bank-conflict free for the fragment layout; the
// emulator keeps the box unswizzled), then one elected thread issues a TMA store of the
// box. Two boxes alternate, so the warp group goes back to its MMAs while the last stores
// drain. Out-of-range rows/columns are clipped by the TMA unit (by the emulated store on
// the host). Also used by the hand-written twin (bench/gemm/handwritten_gemm.cuh).
//
// Direct-store epilogue: bf16 pairs straight from the registers, clipped per element (D
// without a tensor map, e.g. N not a multiple of 8).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ts/arch/portable.hpp"
#include "ts/core/macros.hpp"

namespace gemm {

// The m64nNk16 fragment of one warp group in 64 x 64 boxes: 4 boxes, box q holding floats
// 32 q .. 32 q + 31. BoxCols boxes side by side: q covers rows 64 (q / BoxCols) .. and
// columns 64 (q % BoxCols) .. of the warp group's tile (4: the 64 x 256 fragment of the
// cooperative GEMM; 2: the 128 x 128 one of the ping-pong shape, two m64n128 halves).
// staging: Buffers x 8 KiB of this warp group's SMEM, 1024-byte aligned (2: a box is filled
// while the previous one's store reads the other; 1: each box waits for the previous
// store's read, for a shape whose ring leaves room for one box per group); map_d: D's
// tensor map (64 x 64 boxes, 128-byte swizzle); t128: the thread's index in its warp
// group; barrier_id: a named barrier of the group's 128 threads.
template <int BoxCols = 4, int Buffers = 2>
TS_HD inline void store_fragment_tma(float const* frag, unsigned char* staging, void const* map_d, int row_base,
                                     int col_base, int t128, int barrier_id) {
  static_assert(Buffers == 1 || Buffers == 2, "one or two staging boxes per warp group");
  int const warp = t128 / 32, lane = t128 % 32;
  bool const issuer = t128 == 0;
  // The previous tile's stores must have finished reading every box.
  if (issuer) ts::arch::bulk_wait_read<0>();
  ts::arch::named_barrier_sync(barrier_id, 128);
TS_UNROLL
  for (int q = 0; q < 4; ++q) {
    unsigned char* box = staging + (q % Buffers) * 8192;
    if (q >= Buffers) {  // the store issued Buffers boxes ago read this buffer
      if (issuer) ts::arch::bulk_wait_read<Buffers - 1>();
      ts::arch::named_barrier_sync(barrier_id, 128);
    }
    // Two n8 column blocks per step: their rows 16 warp .. + 7 and + 8 .. + 15, four 8 x 8
    // matrices (one stmatrix on the device; ncu, stop 31: per-element generic stores made
    // the ping-pong GEMM execute 32 % more instructions than CUTLASS's).
TS_UNROLL
    for (int jj = 0; jj < 8; jj += 2) {
      int const j = q * 8 + jj;
      uint32_t const v[4] = {ts::arch::pack_bf16x2(frag[4 * j], frag[4 * j + 1]),
                             ts::arch::pack_bf16x2(frag[4 * j + 2], frag[4 * j + 3]),
                             ts::arch::pack_bf16x2(frag[4 * j + 4], frag[4 * j + 5]),
                             ts::arch::pack_bf16x2(frag[4 * j + 6], frag[4 * j + 7])};
      ts::arch::store_matrices_x4_sw128(box, warp * 16, jj, v, lane);
    }
    ts::arch::fence_proxy_async();
    ts::arch::named_barrier_sync(barrier_id, 128);
    if (issuer) {
      ts::arch::tensor_store_2d(map_d, box, col_base + (q % BoxCols) * 64, row_base + (q / BoxCols) * 64);
      ts::arch::bulk_commit();
    }
  }
}

// Before the CTA exits: the last stores must complete.
TS_HD inline void drain_fragment_stores(int t128) {
  if (t128 == 0) ts::arch::bulk_wait<0>();
}

// The 64 x 256 fragment of one warp group (rows from row_base, columns from col_base) as
// bf16 pairs into row-major D (M x N); pairs whose second column is past N, and every
// pair when N is odd (a 4-byte store would be misaligned), go element by element.
// warp: the warp's index in its warp group; lane: the thread's lane.
TS_HD inline void store_fragment_direct(float const* frag, uint16_t* d, int M, int N, int row_base, int col_base,
                                        int warp, int lane) {
  int const row0 = row_base + warp * 16 + lane / 4;
TS_UNROLL
  for (int j = 0; j < 32; ++j) {
    int const col = col_base + j * 8 + (lane % 4) * 2;
TS_UNROLL
    for (int h = 0; h < 2; ++h) {
      int const row = row0 + h * 8;
      if (row < M && col < N) {
        uint32_t const v = ts::arch::pack_bf16x2(frag[4 * j + 2 * h], frag[4 * j + 2 * h + 1]);
        if (col + 1 < N && (N & 1) == 0) {
          *reinterpret_cast<uint32_t*>(d + size_t(row) * N + col) = v;
        } else {
          d[size_t(row) * N + col] = uint16_t(v);
          if (col + 1 < N) d[size_t(row) * N + col + 1] = uint16_t(v >> 16);
        }
      }
    }
  }
}

}  // namespace gemm
