// The portable primitive layer work bodies call (DESIGN layer 8): bulk and tensor
// copies that complete transaction bytes on an mbarrier, TMA stores and their bulk
// groups, barrier arrivals, the CTA and named barriers, checked SMEM accessors, bf16
// packing, MMA fragments and (emulated) UMMA / tensor memory. Every name a work body
// calls exists in both halves below with one signature, so a body is written once:
// on the host the calls go into the CPU emulator (the running emulated thread is found
// through a thread-local pointer), on the device they are PTX (ts/arch/cuda_copy.cuh).
// The warpgroup MMA (wgmma) has its own portable header, ts/arch/wgmma.hpp.
//
// Tensor maps travel as `void const*`: a CUtensorMap in device memory on the GPU, a
// TensorMap2D (below) on the emulator; each half casts to its own type.
#pragma once
#include <cstdint>

#include "ts/arch/bf16.hpp"
#include "ts/core/macros.hpp"
#include "ts/core/stage_info.hpp"

namespace ts::arch {

// Row-major GEMM fragment shape: D[M,N] = A[M,K] * B[K,N] (+ C).
struct MmaShape {
  int m = 16, n = 8, k = 8;
};

// A 2-D tensor described like a TMA descriptor: row-major global tensor and the box
// one copy moves; out-of-bounds box elements arrive as zeros.
struct TensorMap2D {
  void const* base = nullptr;
  int elem_bytes = 1;
  long long width = 0, height = 0;  // elements per row, rows
  long long row_stride_bytes = 0;
  int box_w = 0, box_h = 0;
};

// The MMA reference every backend's fragment op is tested against (float accumulate).
template <class TA, class TB>
TS_HD void mma_reference(float* d, TA const* a, TB const* b, float const* c, MmaShape s) {
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      float acc = c ? c[i * s.n + j] : 0.0f;
      for (int kk = 0; kk < s.k; ++kk) acc += float(a[i * s.k + kk]) * float(b[kk * s.n + j]);
      d[i * s.n + j] = acc;
    }
}

}  // namespace ts::arch

#if !defined(__CUDA_ARCH__)
// ---------------- host: the CPU emulator ----------------
namespace ts::arch {

void mbar_arrive(uint64_t* bar);
void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes);
void mbar_expect_tx(uint64_t* bar, uint32_t bytes);  // arms bytes, no arrival
bool mbar_try_wait(uint64_t* bar, uint32_t parity);
void mbar_wait(uint64_t* bar, uint32_t parity);
void cta_sync();
// 1-D bulk copy global -> shared; completes `bytes` transaction bytes on `bar` later.
void bulk_copy_g2s(void* dst_smem, void const* src, uint32_t bytes, uint64_t* bar);
// 1-D bulk copy shared -> global (complete on return in the emulator).
void bulk_copy_s2g(void* dst, void const* src_smem, uint32_t bytes);
// 2-D tensor copy of the box at element (x, y); completes box bytes on `bar` later.
void tensor_copy_2d_g2s(void* dst_smem, TensorMap2D const& map, long long x, long long y, uint64_t* bar);
// bar.sync id, threads: the named barrier of `threads` threads of the CTA.
void named_barrier_sync(int id, int threads);
// Checked SMEM access: range-checked always, race-checked with detect_races.
void smem_check(void const* p, std::size_t bytes, bool write);
template <class T>
T smem_load(T const* p) {
  smem_check(p, sizeof(T), false);
  return *p;
}
template <class T>
void smem_store(T* p, T v) {
  smem_check(p, sizeof(T), true);
  *p = v;
}
// Warp-synchronous MMA fragment (reference semantics; one lane computes it here).
void mma_sync(float* d, float const* a, float const* b, float const* c, MmaShape s);
// Emulated UMMA (tcgen05.mma): D in tensor memory at `tmem_col` (lanes = rows) is
// (accumulate ? D : 0) + A*B with A, B read from SMEM when the MMA engine runs it.
void umma_issue(uint32_t tmem_col, float const* a_smem, float const* b_smem, MmaShape s, bool accumulate);
// tcgen05.commit: the barrier gets one arrival once every earlier MMA of the CTA ran.
void umma_commit(uint64_t* bar);
// tcgen05.ld: rows x cols floats out of tensor memory (row-major into dst).
void tmem_load(float* dst, uint32_t tmem_col, int rows, int cols);


// ---- the names both halves implement (host definitions) ----

// The emulator runs every CTA as its own cluster (docs/emulator.md): a body that splits a
// load between the CTAs of a cluster loads the whole of it when this is false.
inline constexpr bool kClusters = false;
// Integer division by zero traps on the host CPU; on the GPU it yields an unspecified value.
inline constexpr bool kDivisionByZeroTraps = true;

// The i-th map of an array of tensor maps (one per group of a grouped GEMM).
inline void const* tensor_map_at(void const* maps, int i) { return static_cast<TensorMap2D const*>(maps) + i; }
// The box at element (x, y) of `map` into SMEM, completing its bytes on `bar`.
inline void tensor_load_2d(void* dst_smem, void const* map, int x, int y, uint64_t* bar) {
  tensor_copy_2d_g2s(dst_smem, *static_cast<TensorMap2D const*>(map), x, y, bar);
}
// The multicast form: in a cluster of one CTA the mask reaches this CTA alone.
inline void tensor_load_2d_multicast(void* dst_smem, void const* map, int x, int y, uint64_t* bar, uint16_t) {
  tensor_load_2d(dst_smem, map, x, y, bar);
}
// The SMEM box (rows of box_w elements, unswizzled on the host) to element (x, y) of
// `map`; what lies outside the tensor is clipped, as the TMA unit clips it. Complete
// on return (the emulator's shared -> global copies are).
inline void tensor_store_2d(void const* map, void const* src_smem, int x, int y) {
  auto const& m = *static_cast<TensorMap2D const*>(map);
  long long const cols = m.width - x < m.box_w ? m.width - x : m.box_w;
  auto const* src = static_cast<unsigned char const*>(src_smem);
  for (int r = 0; r < m.box_h && cols > 0; ++r) {
    if (y + r < 0 || y + r >= m.height || x < 0) continue;
    auto* dst = static_cast<unsigned char*>(const_cast<void*>(m.base)) + (y + r) * m.row_stride_bytes + x * m.elem_bytes;
    bulk_copy_s2g(dst, src + std::size_t(r) * m.box_w * m.elem_bytes, uint32_t(cols * m.elem_bytes));
  }
}
// Bulk groups and the proxy fence: nothing to wait for or order when every store out of
// SMEM completed on issue.
inline void bulk_commit() {}
template <int N>
inline void bulk_wait_read() {}
template <int N>
inline void bulk_wait() {}
inline void fence_proxy_async() {}
// Two floats as bf16x2 (lo in the low half), round to nearest even.
inline uint32_t pack_bf16x2(float lo, float hi) { return uint32_t(float_to_bf16(lo)) | uint32_t(float_to_bf16(hi)) << 16; }
// Byte offset of 16-byte chunk `chunk` of row `row` in a 128-byte-swizzled SMEM box: the
// host keeps boxes unswizzled (the swizzle is a device layout detail, invisible to the
// arithmetic and undone by no host copy).
inline int sw128_chunk_offset(int row, int chunk) { return row * 128 + (chunk << 4); }
// A warp's four 8 x 8 bf16 matrices into a 128-byte-swizzled box: matrix i covers rows
// row0 + 8 (i % 2) .. + 7 (row0 a multiple of 8) in 16-byte chunk chunk0 + i / 2; lane l
// holds its row l / 4, columns 2 (l % 4) .. + 1 of matrix i as bf16x2 v[i] (the wgmma
// accumulator layout). The device stores them with one stmatrix; here each lane its own.
inline void store_matrices_x4_sw128(unsigned char* box, int row0, int chunk0, uint32_t const* v, int lane) {
  for (int i = 0; i < 4; ++i) {
    int const row = row0 + 8 * (i % 2) + lane / 4;
    smem_store(reinterpret_cast<uint32_t*>(box + sw128_chunk_offset(row, chunk0 + i / 2) + 4 * (lane % 4)), v[i]);
  }
}

}  // namespace ts::arch
#else
// ---------------- device: sm_90a ----------------
#include <cuda.h>

#include "ts/arch/cuda_copy.cuh"

namespace ts::arch {
template <class T>
__device__ inline T smem_load(T const* p) { return *p; }
template <class T>
__device__ inline void smem_store(T* p, T v) { *p = v; }
__device__ inline void cta_sync() { __syncthreads(); }
__device__ inline void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

inline constexpr bool kClusters = true;
inline constexpr bool kDivisionByZeroTraps = false;

__device__ inline void bulk_copy_g2s(void* dst_smem, void const* src, uint32_t bytes, uint64_t* bar) {
  ts::cuda::bulk_load(dst_smem, src, bytes, bar);
}
__device__ inline void bulk_copy_s2g(void* dst, void const* src_smem, uint32_t bytes) {
  ts::cuda::bulk_store(dst, src_smem, bytes);
}
__device__ inline void const* tensor_map_at(void const* maps, int i) { return static_cast<CUtensorMap const*>(maps) + i; }
__device__ inline void tensor_load_2d(void* dst_smem, void const* map, int x, int y, uint64_t* bar) {
  ts::cuda::tensor_load_2d(dst_smem, static_cast<CUtensorMap const*>(map), x, y, bar);
}
__device__ inline void tensor_load_2d_multicast(void* dst_smem, void const* map, int x, int y, uint64_t* bar,
                                                uint16_t cta_mask) {
  ts::cuda::tensor_load_2d_multicast(dst_smem, static_cast<CUtensorMap const*>(map), x, y, bar, cta_mask);
}
__device__ inline void tensor_store_2d(void const* map, void const* src_smem, int x, int y) {
  ts::cuda::tensor_store_2d(static_cast<CUtensorMap const*>(map), src_smem, x, y);
}
__device__ inline void bulk_commit() { ts::cuda::bulk_commit(); }
template <int N>
__device__ inline void bulk_wait_read() {
  ts::cuda::bulk_wait_read<N>();
}
template <int N>
__device__ inline void bulk_wait() {
  ts::cuda::bulk_wait<N>();
}
__device__ inline void fence_proxy_async() { ts::cuda::fence_proxy_async(); }
__device__ inline uint32_t pack_bf16x2(float lo, float hi) {
  uint32_t r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
// 128-byte swizzle: the 16-byte chunk index is XORed with the row within 8.
__device__ inline int sw128_chunk_offset(int row, int chunk) { return row * 128 + ((chunk ^ (row & 7)) << 4); }
// The host version's four matrices with one stmatrix: lane l addresses row l % 8 of matrix
// l / 8. This form takes the box as a 32-bit shared address (1024-byte aligned): a caller
// storing many fragments into one stage keeps one base register and ptxas folds the rest
// into immediates (with a generic pointer per store, attention's head-dim-256 epilogue
// kept dozens of 64-bit addresses live and spilled, stop 30).
__device__ inline void store_matrices_x4_sw128(uint32_t box, int row0, int chunk0, uint32_t const* v, int lane) {
  int const m = lane / 8;
  uint32_t const addr = box + sw128_chunk_offset(row0 + 8 * (m % 2) + lane % 8, chunk0 + m / 2);
  ts::cuda::stmatrix_x4(addr, v[0], v[1], v[2], v[3]);
}
// The host version's signature (the portable GEMM epilogue calls this one).
__device__ inline void store_matrices_x4_sw128(unsigned char* box, int row0, int chunk0, uint32_t const* v, int lane) {
  store_matrices_x4_sw128(ts::cuda::smem_addr(box), row0, chunk0, v, lane);
}
// UMMA / tensor memory do not exist on sm_90: emulated on the CPU backend only.
}  // namespace ts::arch
#endif
