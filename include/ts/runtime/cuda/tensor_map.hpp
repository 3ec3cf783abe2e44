// Host-side TMA descriptors. cuTensorMapEncodeTiled is a driver API; it is obtained
// through the runtime's driver entry point so that programs do not link libcuda
// directly (the runtime loads the driver anyway). The CUtensorMap is then stored in a
// resource struct, which travels as a __grid_constant__ kernel parameter, so the
// device reads it in place (the copy instructions need its parameter-space address).
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ts::cuda {

using EncodeTiledFn = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, cuuint64_t const*,
                                   cuuint64_t const*, cuuint32_t const*, cuuint32_t const*, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

inline EncodeTiledFn encode_tiled_fn() {
  static EncodeTiledFn fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p)
      throw std::runtime_error(std::string("ts::cuda: cuTensorMapEncodeTiled not available from the driver: ") +
                               cudaGetErrorString(e));
    return reinterpret_cast<EncodeTiledFn>(p);
  }();
  return fn;
}

// A 2-D row-major tensor [rows][cols] of `elem_bytes`-byte elements, read and written
// in boxes of box_rows x box_cols (box_cols * elem_bytes a multiple of 16, <= 256
// elements per dimension). No swizzle: plain copies and epilogues; MMA operands pass
// their swizzle.
inline CUtensorMap make_tensor_map_2d(void const* base, CUtensorMapDataType type, int elem_bytes, uint64_t rows,
                                      uint64_t cols, uint32_t box_rows, uint32_t box_cols,
                                      CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE) {
  CUtensorMap map{};
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * uint64_t(elem_bytes)};
  cuuint32_t box[2] = {box_cols, box_rows};
  cuuint32_t estride[2] = {1, 1};
  CUresult r = encode_tiled_fn()(&map, type, 2, const_cast<void*>(base), dims, strides, box, estride,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("ts::cuda: cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(r)) +
                             " (rows " + std::to_string(rows) + ", cols " + std::to_string(cols) + ", box " +
                             std::to_string(box_rows) + "x" + std::to_string(box_cols) + ")");
  return map;
}

}  // namespace ts::cuda
