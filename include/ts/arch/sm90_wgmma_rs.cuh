// Hopper wgmma forms the attention kernel needs beyond ts/arch/sm90_wgmma.cuh: the RS
// forms, A from registers (P V: the probabilities never leave the
// registers; the S accumulator fragment of m64nNk16 is, pair by pair, the A fragment of
// the next m64 x k16 MMA, so a k16 slice of P is four bf16x2 words of the thread's S,
// packed by ts::arch::pack_bf16x2).
// sm_90a only (compile with -gencode=arch=compute_90a,code=sm_90a).
#pragma once
#include <cstdint>

#include "ts/arch/sm90_wgmma_regs.cuh"

namespace ts::sm90 {

// D(64xN, f32) (+)= A(64x16, bf16 registers: a[0..3] in the wgmma A fragment) * B(16xN, smem)
// for N = 64, 128, 256; B K-major (TransB = 0) or N-major (TransB = 1); scale_d == 0
// overwrites D.
template <int TransB>
__device__ inline void wgmma_m64n64k16_rs_bf16(float* d, uint32_t const (&a)[4], uint64_t desc_b, int scale_d) {
  TS_WGMMA_RS(64, 32, 32, 33, 34, 35, 36, 37, 38, d, a, desc_b, scale_d, TransB);
}
template <int TransB>
__device__ inline void wgmma_m64n128k16_rs_bf16(float* d, uint32_t const (&a)[4], uint64_t desc_b, int scale_d) {
  TS_WGMMA_RS(128, 64, 64, 65, 66, 67, 68, 69, 70, d, a, desc_b, scale_d, TransB);
}
template <int TransB>
__device__ inline void wgmma_m64n256k16_rs_bf16(float* d, uint32_t const (&a)[4], uint64_t desc_b, int scale_d) {
  TS_WGMMA_RS(256, 128, 128, 129, 130, 131, 132, 133, 134, d, a, desc_b, scale_d, TransB);
}

}  // namespace ts::sm90
