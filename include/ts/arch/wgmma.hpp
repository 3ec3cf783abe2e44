// The warpgroup MMA (Hopper wgmma) as the portable layer offers it to work bodies: one
// name per operation, defined by both halves, so a GEMM body issues its MMAs once.
//   device: the sm_90a instructions (ts/arch/sm90_wgmma.cuh), operands as SMEM matrix
//           descriptors of 128-byte swizzled tiles;
//   host:   the emulator's per-thread wgmma (ts/arch/emulated_mma.hpp), operands as the
//           addresses of the unswizzled tiles. This is a different algorithm (a reference
//           MMA over SMEM, run when the group retires), hidden behind the same calls.
// A "descriptor" is therefore a uint64_t on both sides; a body moves it along K only
// through wgmma_desc_advance, which knows each side's unit (16 bytes / 1 byte).
//
// Operand tiles are K-major (TransA / TransB = 0) with rows of 64 bf16 (one 128-byte
// swizzle row, the GEMM's kTileK), or MN-major (= 1): blocks of 64 M (or N) rows, each
// block K rows of 64 MN-contiguous bf16 (one TMA box of 64 x K), the blocks
// `mn_block_bytes` apart. The host descriptor of an MN-major tile keeps that distance in
// its top 16 bits (16-byte units, as the device descriptor's leading byte offset); its low
// 48 bits are the address, which a user-space pointer never exceeds, so an advance along
// K (bytes added to the low bits) leaves the distance alone.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"

#if !defined(__CUDA_ARCH__)
#include "ts/arch/emulated_mma.hpp"

namespace ts::arch {

// Elements per K-major operand row: the host boxes are as wide as the device's swizzle rows.
inline constexpr int kWgmmaRowElems = 64;

inline constexpr int kHostDescAddressBits = 48;
inline constexpr uint64_t kHostDescAddressMask = (uint64_t(1) << kHostDescAddressBits) - 1;

inline uint64_t wgmma_desc_k_major(void const* tile) { return uint64_t(reinterpret_cast<uintptr_t>(tile)); }
// Fails the run (EmulationError) when the address or the distance does not fit its field.
uint64_t wgmma_desc_mn_major(void const* tile, uint32_t mn_block_bytes);
inline uint64_t wgmma_desc_advance(uint64_t desc, uint32_t bytes) { return desc + bytes; }

// wgmma.fence before the first MMA of a group (the accumulators are per thread here).
template <int R>
inline void wgmma_fence(float*) {}
// wgmma.commit_group of the thread owning `acc`.
inline void wgmma_commit(float* acc) { emu::wgmma_commit(acc); }
// wgmma.wait_group Pending; the emulated MMAs of the retired groups read SMEM now.
template <int Pending, int R>
inline void wgmma_wait(float* acc) {
  emu::wgmma_wait(acc, Pending);
}

namespace detail {
// The emulator's view of an operand descriptor.
template <int Trans>
inline emu::Operand operand(uint64_t desc) {
  auto const* base = reinterpret_cast<uint16_t const*>(uintptr_t(desc & kHostDescAddressMask));
  if constexpr (Trans == 0)
    return emu::Operand::k_major(base, kWgmmaRowElems);
  else
    return emu::Operand::mn_major(base, int((desc >> kHostDescAddressBits) * 16 / 2));
}
}  // namespace detail

// D(64x256) (+)= A(64x16) * B(16x256); scale_d == 0 overwrites D. t: the thread's index
// in its warpgroup (its place in the fragment).
template <int TransB = 0, int TransA = 0>
inline void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t a, uint64_t b, int scale_d, int t) {
  emu::wgmma_m64n256k16_bf16(d, detail::operand<TransA>(a), detail::operand<TransB>(b), t, scale_d != 0);
}
// D(64x128) (+)= A(64x16) * B(16x128), both K-major. `group_acc`: the thread's whole
// accumulator array (d lies in it), whose MMA group this joins.
inline void wgmma_m64n128k16_bf16(float* group_acc, float* d, uint64_t a, uint64_t b, int scale_d, int t) {
  emu::wgmma_m64n128k16_bf16(group_acc, d, detail::operand<0>(a), detail::operand<0>(b), t, scale_d != 0);
}

}  // namespace ts::arch
#else
#include "ts/arch/sm90_wgmma.cuh"

namespace ts::arch {

__device__ inline uint64_t wgmma_desc_k_major(void const* tile) { return ts::sm90::desc_k_major_sw128(tile); }
__device__ inline uint64_t wgmma_desc_mn_major(void const* tile, uint32_t mn_block_bytes) {
  return ts::sm90::desc_mn_major_sw128(tile, mn_block_bytes);
}
// The descriptor's start address counts 16-byte units, in bits 0..13 of the low word. An
// advance inside one SMEM tile never carries out of that word, so only the low word is
// added to and the high word (stride, swizzle) stays as it was: a k loop then pays one
// 32-bit add per MMA operand instead of a 64-bit carry chain and its register moves (the
// ping-pong GEMM's main loop issues 8 MMAs per 512 tensor-core cycles, stop 23).
__device__ inline uint64_t wgmma_desc_advance(uint64_t desc, uint32_t bytes) {
  uint32_t const lo = uint32_t(desc) + (bytes >> 4);
  return (desc & 0xFFFFFFFF00000000ull) | lo;
}

// Keeps the compiler from moving the R accumulators across the MMAs, then wgmma.fence.
template <int R>
__device__ inline void wgmma_fence(float* acc) {
  ts::sm90::fence_accumulators<R>(acc);
  ts::sm90::wgmma_fence();
}
__device__ inline void wgmma_commit(float*) { ts::sm90::wgmma_commit(); }
template <int Pending, int R>
__device__ inline void wgmma_wait(float* acc) {
  ts::sm90::wgmma_wait<Pending>();
  ts::sm90::fence_accumulators<R>(acc);
}

template <int TransB = 0, int TransA = 0>
__device__ inline void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t a, uint64_t b, int scale_d, int) {
  ts::sm90::wgmma_m64n256k16_bf16<TransB, TransA>(d, a, b, scale_d);
}
__device__ inline void wgmma_m64n128k16_bf16(float*, float* d, uint64_t a, uint64_t b, int scale_d, int) {
  ts::sm90::wgmma_m64n128k16_bf16(d, a, b, scale_d);
}

}  // namespace ts::arch
#endif
