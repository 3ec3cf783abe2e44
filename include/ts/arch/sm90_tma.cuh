// Tensor Memory Accelerator (TMA) tile copies for sm_90: 2-D tiled loads completing
// transaction bytes on an mbarrier, tiled stores from shared memory, and the host-side
// tensor-map encoder obtained from the driver at run time (no link against libcuda).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ts::sm90 {

__device__ inline void tma_load_2d(void* smem_dst, CUtensorMap const* map, uint64_t* bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst))),
      "l"(map), "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(c0), "r"(c1)
      : "memory");
}

__device__ inline void tma_store_2d(CUtensorMap const* map, void const* smem_src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map),
               "r"(static_cast<uint32_t>(__cvta_generic_to_shared(smem_src))), "r"(c0), "r"(c1)
               : "memory");
}
__device__ inline void tma_store_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
template <int N>
__device__ inline void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
template <int N>
__device__ inline void tma_store_wait() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}
// Ordinary shared-memory writes must be made visible to the async proxy (TMA/wgmma).
__device__ inline void fence_proxy_async_shared() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ inline void prefetch_tensor_map(CUtensorMap const* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}

// Row-major 2-D bf16 tensor [rows][cols] (cols contiguous) loaded in boxes of
// box_rows x box_cols, 128-byte swizzled when box_cols * 2 == 128.
inline CUtensorMap make_tensor_map_2d_bf16(void const* base, uint64_t rows, uint64_t cols, uint32_t box_rows,
                                           uint32_t box_cols, bool swizzle128) {
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, cuuint64_t const*,
                              cuuint64_t const*, cuuint32_t const*, cuuint32_t const*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !fn)
      throw std::runtime_error("ts: cuTensorMapEncodeTiled is not available from the driver");
    return reinterpret_cast<Encode>(fn);
  }();
  CUtensorMap map{};
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * 2};
  cuuint32_t box[2] = {box_cols, box_rows};
  cuuint32_t elem_strides[2] = {1, 1};
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(base), dims, strides, box,
                      elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("ts: cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(r)) +
                             " (rows " + std::to_string(rows) + ", cols " + std::to_string(cols) +
                             "; the row pitch must be a multiple of 16 bytes)");
  return map;
}

}  // namespace ts::sm90
