// Copy primitives of the sm_90a arch layer, called from work bodies: cp.async with
// mbarrier completion, 1-D bulk copies (TMA without a tensor map) and tiled tensor
// copies through a CUtensorMap made on the host (runtime/cuda/tensor_map.hpp).
//
// Completion rules the pipelines rely on (docs/cuda-backend.md):
//  - loads into SMEM (bulk_load / tensor_load_*) complete transaction bytes on the
//    stage's full barrier; the producer's elected thread armed expect_tx with the
//    stage's bytes in acquire(), so the work body only issues the copies;
//  - stores out of SMEM (bulk_store / tensor_store_*) are tracked by bulk groups:
//    bulk_commit() then bulk_wait_read<N>() before the stage may be released;
//  - SMEM written by ordinary stores and read by the copy engine needs
//    fence_proxy_async() in each writing thread first.
#pragma once
#include <cstdint>

#include "ts/arch/cuda_sm90.cuh"

struct CUtensorMap_st;  // from <cuda.h>; only its address is used here

namespace ts::cuda {

// ---- cp.async (AsyncLoad producers) ----
__device__ inline void cp_async_16(void* smem_dst, void const* gmem_src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(smem_dst)), "l"(gmem_src) : "memory");
}

// ---- 1-D bulk copies ----
// Global -> shared, completing `bytes` (a multiple of 16, 16-byte aligned addresses)
// on `bar`.
__device__ inline void bulk_load(void* smem_dst, void const* gmem_src, uint32_t bytes, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          smem_addr(smem_dst)),
      "l"(gmem_src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}
// Shared -> global, tracked by the issuing thread's bulk group.
__device__ inline void bulk_store(void* gmem_dst, void const* smem_src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem_dst),
               "r"(smem_addr(smem_src)), "r"(bytes)
               : "memory");
}
__device__ inline void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Waits until at most N committed groups still read their SMEM source.
template <int N>
__device__ inline void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
// Waits until at most N committed groups are incomplete (writes visible).
template <int N>
__device__ inline void bulk_wait() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}
__device__ inline void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// A transfer shorter than the stage's armed bytes (the tail of a domain) completes
// the missing bytes itself so the phase still flips.
__device__ inline void complete_missing_tx(uint64_t* bar, uint32_t missing) {
  if (missing) mbar_complete_tx(bar, missing);
}

// ---- tiled tensor copies (tensor map passed as a __grid_constant__ field) ----
__device__ inline void tensor_load_2d(void* smem_dst, CUtensorMap_st const* map, int c0, int c1, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
      "[%4];" ::"r"(smem_addr(smem_dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(smem_addr(bar))
      : "memory");
}
// The same box into the same SMEM offset of every CTA in `cta_mask` (cluster ranks),
// completing its bytes on the barrier at the same offset in each of them.
__device__ inline void tensor_load_2d_multicast(void* smem_dst, CUtensorMap_st const* map, int c0, int c1,
                                                uint64_t* bar, uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
      "[%0], [%1, {%2, %3}], [%4], %5;" ::"r"(smem_addr(smem_dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(smem_addr(bar)), "h"(cta_mask)
      : "memory");
}
__device__ inline void tensor_store_2d(CUtensorMap_st const* map, void const* smem_src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map),
               "r"(c0), "r"(c1), "r"(smem_addr(smem_src))
               : "memory");
}
__device__ inline void prefetch_tensor_map(CUtensorMap_st const* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

}  // namespace ts::cuda
