// The portable primitive layer work bodies call (DESIGN layer 8): bulk and tensor
// copies that complete transaction bytes on an mbarrier, barrier arrivals, the CTA
// barrier, checked SMEM accessors, MMA fragments and (emulated) UMMA / tensor memory.
// On the host these call into the CPU emulator (the running emulated thread is found
// through a thread-local pointer); on the device they are PTX.
#pragma once
#include <cstdint>

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

}  // namespace ts::arch
#else
// ---------------- device: sm_90a ----------------
namespace ts::arch {
template <class T>
__device__ inline T smem_load(T const* p) { return *p; }
template <class T>
__device__ inline void smem_store(T* p, T v) { *p = v; }
__device__ inline void cta_sync() { __syncthreads(); }
// TODO(cuda backend helper): mbar_arrive / mbar_arrive_expect_tx / mbar_try_wait /
// mbar_wait, bulk_copy_g2s / s2g (cp.async.bulk), tensor_copy_2d_g2s
// (cp.async.bulk.tensor.2d with a CUtensorMap), mma_sync (mma.sync / wgmma).
// UMMA / tensor memory do not exist on sm_90: emulated on the CPU backend only.
}  // namespace ts::arch
#endif
