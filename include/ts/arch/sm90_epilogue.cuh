// Asynchronous epilogue for a warp group's 64 x 256 fp32 wgmma fragment on sm_90a: the
// fragment is converted to bf16 and written, 64 x 64 at a time, into a 128-byte swizzled
// SMEM box (bank-conflict free for the fragment layout), then one elected thread issues a
// TMA store of the box. Two boxes alternate, so the warp group goes back to its MMAs
// while the last stores drain. Out-of-range rows/columns are clipped by the TMA unit.
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

#include "ts/arch/cuda_copy.cuh"

namespace ts::sm90 {

__device__ inline void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// frag: the m64n256 accumulator of one warp group (128 floats per thread).
// staging: 2 x 8 KiB of this warp group's SMEM, 1024-byte aligned.
// t128: the thread's index in its warp group; barrier_id: a named barrier for the group.
__device__ inline void store_fragment_tma(float const* frag, unsigned char* staging, CUtensorMap const* map_d,
                                          int row_base, int col_base, int t128, int barrier_id) {
  int const warp = t128 / 32, lane = t128 % 32;
  bool const issuer = t128 == 0;
  // The previous tile's stores must have finished reading both boxes.
  if (issuer) ts::cuda::bulk_wait_read<0>();
  named_barrier_sync(barrier_id, 128);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    unsigned char* box = staging + (q % 2) * 8192;
    if (q >= 2) {  // the store issued two boxes ago read this buffer
      if (issuer) ts::cuda::bulk_wait_read<1>();
      named_barrier_sync(barrier_id, 128);
    }
#pragma unroll
    for (int jj = 0; jj < 8; ++jj) {
      int const j = q * 8 + jj;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int const r = warp * 16 + lane / 4 + h * 8;  // row in the 64-row slice
        // 128-byte swizzle: the 16-byte chunk index is XORed with the row within 8.
        int const byte = r * 128 + ((jj ^ (r & 7)) << 4) + (lane % 4) * 4;
        *reinterpret_cast<__nv_bfloat162*>(box + byte) = __floats2bfloat162_rn(frag[4 * j + 2 * h], frag[4 * j + 2 * h + 1]);
      }
    }
    ts::cuda::fence_proxy_async();
    named_barrier_sync(barrier_id, 128);
    if (issuer) {
      ts::cuda::tensor_store_2d(map_d, box, col_base + q * 64, row_base);
      ts::cuda::bulk_commit();
    }
  }
}

// Before the CTA exits: the last stores must complete.
__device__ inline void drain_fragment_stores(int t128) {
  if (t128 == 0) ts::cuda::bulk_wait<0>();
}

}  // namespace ts::sm90
