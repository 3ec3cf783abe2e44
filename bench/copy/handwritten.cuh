// Hand-written twins of the TS copy kernels: the same design (threads per block, grid,
// ring depth, stage size, who waits and who signals), written directly against the
// mbarrier / bulk-copy primitives without the TS runtime. The bench compares each TS
// kernel with its twin to measure what the abstraction costs.
#pragma once
#include <cstdint>

#include "copy_resources.hpp"
#include "tma_copy.hpp"
#include "ts/arch/cuda_copy.cuh"

namespace bench {

using ts::cuda::Sm90Arch;

// 01: grid-stride, one int16 per thread per iteration, 256 threads. Like the TS work
// bodies, the load checks the input's length and the store the output's.
__global__ void hw_grid_stride(int16_t const* __restrict__ src, int16_t* __restrict__ dst, long long n_in,
                               long long n_out) {
  long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n_in; i += step) {
    int16_t v = i < n_in ? src[i] : int16_t(0);
    if (i < n_out) dst[i] = v;
  }
}

__device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t phase) {
  Sm90Arch a;
  while (!a.mbar_try_wait(bar, phase)) {
  }
}

// 02: warp 0 loads 32-element chunks into a 4-stage SMEM ring, warp 1 stores them. The
// load is issued before the wait for a free stage, as in example 02's schedule (nvcc
// hoisted it there by itself in this kernel).
__global__ void hw_pipelined(int16_t const* __restrict__ src, int16_t* __restrict__ dst, long long n) {
  constexpr int S = examples::kRingStages, C = examples::kChunk;
  __shared__ __align__(128) int16_t ring[S * C];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ts::cuda::mbar_init(&full[s], 32);
      ts::cuda::mbar_init(&empty[s], 32);
    }
    ts::cuda::fence_barrier_init();
  }
  __syncthreads();
  Sm90Arch a;
  int lane = threadIdx.x & 31;
  long long chunks = (n + C - 1) / C;
  int stage = 0;
  uint32_t phase = 0;
  if (threadIdx.x < 32) {
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
      long long i = c * C + lane;
      int16_t v = i < n ? src[i] : int16_t(0);
      wait_parity(&empty[stage], phase ^ 1u);
      ring[stage * C + lane] = v;
      a.mbar_arrive(&full[stage]);
      if (++stage == S) stage = 0, phase ^= 1u;
    }
  } else {
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
      wait_parity(&full[stage], phase);
      int16_t v = ring[stage * C + lane];
      long long i = c * C + lane;
      if (i < n) dst[i] = v;
      a.mbar_arrive(&empty[stage]);
      if (++stage == S) stage = 0, phase ^= 1u;
    }
  }
}

// 03: warp 0's lane 0 bulk-loads 32 KiB stages into a 3-stage ring (expect_tx), warp 1's
// lane 0 bulk-stores each stage and releases it after wait_group.read. S stages of B
// bytes (the bench's sweep times other depths and sizes of the same design).
template <int S = examples::kTmaStages, int B = examples::kTmaStageBytes>
__global__ void hw_tma(char const* __restrict__ src, char* __restrict__ dst, long long bytes) {
  extern __shared__ __align__(1024) unsigned char smem[];
  auto* full = reinterpret_cast<uint64_t*>(smem + S * B);
  auto* empty = full + S;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      ts::cuda::mbar_init(&full[s], 1);
      ts::cuda::mbar_init(&empty[s], 1);
    }
    ts::cuda::fence_barrier_init();
  }
  __syncthreads();
  Sm90Arch a;
  bool leader = (threadIdx.x & 31) == 0;
  long long chunks = (bytes + B - 1) / B;
  int stage = 0;
  uint32_t phase = 0;
  if (threadIdx.x < 32) {
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
      wait_parity(&empty[stage], phase ^ 1u);
      if (leader) {
        a.mbar_arrive_expect_tx(&full[stage], B);
        long long left = bytes - c * B;
        uint32_t nb = static_cast<uint32_t>(left < B ? left : B);
        ts::cuda::bulk_load(smem + stage * B, src + c * B, nb, &full[stage]);
        ts::cuda::complete_missing_tx(&full[stage], B - nb);
      }
      if (++stage == S) stage = 0, phase ^= 1u;
    }
  } else {
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
      wait_parity(&full[stage], phase);
      if (leader) {
        long long left = bytes - c * B;
        uint32_t nb = static_cast<uint32_t>(left < B ? left : B);
        ts::cuda::bulk_store(dst + c * B, smem + stage * B, nb);
        ts::cuda::bulk_commit();
        ts::cuda::bulk_wait_read<0>();
      }
      __syncwarp();
      if (leader) a.mbar_arrive(&empty[stage]);
      if (++stage == S) stage = 0, phase ^= 1u;
    }
  }
}

}  // namespace bench
