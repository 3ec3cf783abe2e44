// Hopper warpgroup MMA (wgmma) primitives for sm_90a: shared-memory matrix
// descriptors, fences, commit/wait groups and the SS (both operands in SMEM) bf16 -> f32
// MMAs m64n256k16, m64n128k16, m64n80k16 and m64n64k16. Work bodies call them through the portable
// layer (ts/arch/wgmma.hpp).
#pragma once
#include <cstdint>

#include "ts/arch/sm90_wgmma_regs.cuh"

namespace ts::sm90 {

__device__ inline uint32_t shared_addr(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// Descriptor of a K-major operand tile stored with 128-byte swizzle (the layout a TMA
// load with CU_TENSOR_MAP_SWIZZLE_128B writes): rows of 64 bf16 (128 B), 8-row groups
// 1024 B apart (stride byte offset), leading byte offset unused. The tile must be
// 1024-byte aligned; advancing K by 16 elements adds 32 bytes to the start address.
__device__ inline uint64_t desc_k_major_sw128(void const* tile) {
  uint64_t addr = (shared_addr(tile) & 0x3FFFFu) >> 4;
  return addr | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accumulator reads/writes across wgmma boundaries.
template <int R>
__device__ inline void fence_accumulators(float* d) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int R>
__device__ inline void fence_accumulators(float (&d)[R]) {
  fence_accumulators<R>(&d[0]);
}

// Descriptor of an MN-major operand tile stored with 128-byte swizzle (what a TMA load of
// K x MN row-major data in 64 (MN) x 64 (K) boxes with CU_TENSOR_MAP_SWIZZLE_128B writes):
// each K row holds 64 MN-contiguous bf16 (128 B); 8-row K groups are 1024 B apart (stride
// byte offset); the next 64 MN elements start `mn_block_bytes` further (leading byte
// offset). The tile must be 1024-byte aligned; advancing K by 16 rows adds 2048 bytes.
__device__ inline uint64_t desc_mn_major_sw128(void const* tile, uint32_t mn_block_bytes) {
  uint64_t addr = (shared_addr(tile) & 0x3FFFFu) >> 4;
  return addr | (uint64_t((mn_block_bytes >> 4) & 0x3FFFu) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

// D(64x256, f32, registers of one warpgroup) (+)= A(64x16, smem) * B(16x256, smem);
// B K-major (TransB = 0) or N-major (TransB = 1); A K-major (TransA = 0) or M-major
// (TransA = 1). bf16 allows both transposes (only 16-bit types do). TransA comes second so
// that the existing <TransB> instantiations keep their meaning. scale_d == 0 overwrites D.
template <int TransB = 0, int TransA = 0>
__device__ inline void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  TS_WGMMA_SS(256, 128, 128, 129, 130, 132, 131, d, desc_a, desc_b, scale_d, TransB, TransA);
}

// D(64x128, f32, 64 registers per thread of one warpgroup) (+)= A(64x16, smem) *
// B(16x128, smem), both K-major; scale_d == 0 overwrites D. Two of these (A rows 0..63
// and 64..127) make the 128 x 128 warpgroup tile of the ping-pong GEMM.
__device__ inline void wgmma_m64n128k16_bf16(float* d, uint64_t desc_a, uint64_t desc_b, int scale_d) {
  TS_WGMMA_SS(128, 64, 64, 65, 66, 68, 67, d, desc_a, desc_b, scale_d, 0, 0);
}

// D(64x64, f32) (+)= A(64x16, smem) * B(16x64, smem), both K-major; scale_d == 0
// overwrites D (Q K^T of 64-key blocks; the attention kernel's blocks are 80 or 128 keys today).
__device__ inline void wgmma_m64n64k16_ss_bf16(float* d, uint64_t desc_a, uint64_t desc_b, int scale_d) {
  TS_WGMMA_SS(64, 32, 32, 33, 34, 36, 35, d, desc_a, desc_b, scale_d, 0, 0);
}

// D(64x80, f32) (+)= A(64x16, smem) * B(16x80, smem), both K-major; scale_d == 0
// overwrites D (Q K^T of the attention kernel with 80-key blocks, head dim 256).
__device__ inline void wgmma_m64n80k16_ss_bf16(float* d, uint64_t desc_a, uint64_t desc_b, int scale_d) {
  TS_WGMMA_SS(80, 40, 40, 41, 42, 44, 43, d, desc_a, desc_b, scale_d, 0, 0);
}

}  // namespace ts::sm90
