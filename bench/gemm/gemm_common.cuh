// Shared pieces of the GEMM benchmark: random inputs, cuBLAS reference, error norm,
// event timing with warm-up and medians.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "ts/runtime/cuda/tensor_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BENCH_CHECK(x)                                                                                \
  do {                                                                                                \
    cudaError_t e_ = (x);                                                                             \
    if (e_ != cudaSuccess) {                                                                          \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, \
                   cudaGetErrorString(e_));                                                           \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)
#define BENCH_CUBLAS(x)                                                            \
  do {                                                                             \
    cublasStatus_t s_ = (x);                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                             \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", int(s_), __FILE__, __LINE__); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

namespace bench {

// Row-major bf16 [rows][cols] in boxes of box_rows x box_cols, 128-byte swizzled (what the
// wgmma descriptors and the epilogue's boxes expect).
inline CUtensorMap tensor_map_bf16(void const* base, uint64_t rows, uint64_t cols, uint32_t box_rows, uint32_t box_cols,
                                   bool swizzle128) {
  return ts::cuda::make_tensor_map_2d(base, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, rows, cols, box_rows, box_cols,
                                      swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE);
}

__global__ void fill_random_bf16(__nv_bfloat16* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    float u = float(x & 0xffffff) / float(0x1000000) - 0.5f;  // [-0.5, 0.5)
    p[i] = __float2bfloat16(u);
  }
}

__global__ void poison_bf16(__nv_bfloat16* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16(__int_as_float(0x7fc00000));  // NaN: unwritten outputs fail the check
}

__global__ void error_norms(__nv_bfloat16 const* x, __nv_bfloat16 const* ref, size_t n, double* out) {
  double num = 0, den = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    double a = __bfloat162float(x[i]), b = __bfloat162float(ref[i]);
    double diff = (a != a) ? 1e30 : a - b;
    num += diff * diff;
    den += b * b;
  }
  atomicAdd(&out[0], num);
  atomicAdd(&out[1], den);
}

inline double relative_error(__nv_bfloat16 const* x, __nv_bfloat16 const* ref, size_t n) {
  double* d;
  BENCH_CHECK(cudaMalloc(&d, 2 * sizeof(double)));
  BENCH_CHECK(cudaMemset(d, 0, 2 * sizeof(double)));
  error_norms<<<1024, 256>>>(x, ref, n, d);
  BENCH_CHECK(cudaGetLastError());
  double h[2];
  BENCH_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaFree(d));
  return h[1] > 0 ? std::sqrt(h[0] / h[1]) : 1e30;
}

// Relative error of D against a float64 host reference on 512 sampled elements: an
// independent check that does not trust cuBLAS.
inline double sampled_host_error(__nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16 const* d, int M, int N,
                                 int K) {
  std::vector<__nv_bfloat16> row(K), col(K);
  double num = 0, den = 0;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int s = 0; s < 512; ++s) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int i = int(x % uint64_t(M)), j = int((x >> 32) % uint64_t(N));
    BENCH_CHECK(cudaMemcpy(row.data(), a + size_t(i) * K, size_t(K) * 2, cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy(col.data(), b + size_t(j) * K, size_t(K) * 2, cudaMemcpyDeviceToHost));
    __nv_bfloat16 got;
    BENCH_CHECK(cudaMemcpy(&got, d + size_t(i) * N + j, 2, cudaMemcpyDeviceToHost));
    double ref = 0;
    for (int k = 0; k < K; ++k) ref += double(__bfloat162float(row[k])) * double(__bfloat162float(col[k]));
    double g = __bfloat162float(got);
    double diff = (g != g) ? 1e30 : g - ref;
    num += diff * diff;
    den += ref * ref;
  }
  return den > 0 ? std::sqrt(num / den) : 1e30;
}

// The same sampled float64 check with B stored K x N row-major (column j is strided).
inline double sampled_host_error_rowmajor_b(__nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16 const* d,
                                            int M, int N, int K) {
  std::vector<__nv_bfloat16> row(K), col(K);
  double num = 0, den = 0;
  uint64_t x = 0x243F6A8885A308D3ull;
  for (int s = 0; s < 256; ++s) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int i = int(x % uint64_t(M)), j = int((x >> 32) % uint64_t(N));
    BENCH_CHECK(cudaMemcpy(row.data(), a + size_t(i) * K, size_t(K) * 2, cudaMemcpyDeviceToHost));
    BENCH_CHECK(cudaMemcpy2D(col.data(), 2, b + j, size_t(N) * 2, 2, K, cudaMemcpyDeviceToHost));
    __nv_bfloat16 got;
    BENCH_CHECK(cudaMemcpy(&got, d + size_t(i) * N + j, 2, cudaMemcpyDeviceToHost));
    double ref = 0;
    for (int k = 0; k < K; ++k) ref += double(__bfloat162float(row[k])) * double(__bfloat162float(col[k]));
    double g = __bfloat162float(got);
    double diff = (g != g) ? 1e30 : g - ref;
    num += diff * diff;
    den += ref * ref;
  }
  return den > 0 ? std::sqrt(num / den) : 1e30;
}

// D (M x N, row-major) = A (M x K, row-major) * B^T, B stored N x K row-major. In
// cuBLAS's column-major view D is D^T (N x M) = B (N x K) * A^T (K x M): gemm(T, N) with
// m = N, n = M, k = K, both operands with leading dimension K.
inline void cublas_gemm(cublasHandle_t h, __nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16* d, int M,
                        int N, int K) {
  float alpha = 1.f, beta = 0.f;
  BENCH_CUBLAS(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, b, CUDA_R_16BF, K, a, CUDA_R_16BF, K,
                            &beta, d, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// D (M x N, row-major) = A (M x K, row-major) * B, B stored K x N row-major. Column-major
// view: D^T (N x M) = B^T (N x K, column-major with ld N) * A^T (K x M, ld K): gemm(N, N).
inline void cublas_gemm_rowmajor_b(cublasHandle_t h, __nv_bfloat16 const* a, __nv_bfloat16 const* b,
                                   __nv_bfloat16* d, int M, int N, int K) {
  float alpha = 1.f, beta = 0.f;
  BENCH_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b, CUDA_R_16BF, N, a, CUDA_R_16BF, K,
                            &beta, d, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// Median of `reps` event-timed runs of f (ms), after `warmup` untimed runs.
template <class F>
float median_ms(F&& f, int warmup = 3, int reps = 20, cudaStream_t stream = 0) {
  for (int i = 0; i < warmup; ++i) f();
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    BENCH_CHECK(cudaEventRecord(e0, stream));
    f();
    BENCH_CHECK(cudaEventRecord(e1, stream));
    BENCH_CHECK(cudaEventSynchronize(e1));
    float ms;
    BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace bench
