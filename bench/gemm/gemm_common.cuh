// Shared pieces of the GEMM benchmark: random inputs, cuBLAS reference, error norm,
// interleaved event timing (back-to-back and single launches) with warm-up and medians.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "ts/runtime/cuda/tensor_map.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../cuda_check.cuh"

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

// Relative error of D against a float64 host reference on `samples` sampled elements (an
// independent check that does not trust cuBLAS), for any operand layout: A M x K row-major
// (col_a false) or K x M row-major (col_a true, row i strided by M); B N x K (row_b false)
// or K x N (row_b true, column j strided by N). `seed` starts the sample sequence.
inline double sampled_host_error_layout(__nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16 const* d,
                                        int M, int N, int K, bool col_a, bool row_b, int samples = 256,
                                        uint64_t seed = 0x13198A2E03707344ull) {
  std::vector<__nv_bfloat16> row(K), col(K);
  double num = 0, den = 0;
  uint64_t x = seed;
  for (int s = 0; s < samples; ++s) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int i = int(x % uint64_t(M)), j = int((x >> 32) % uint64_t(N));
    if (col_a)
      BENCH_CHECK(cudaMemcpy2D(row.data(), 2, a + i, size_t(M) * 2, 2, K, cudaMemcpyDeviceToHost));
    else
      BENCH_CHECK(cudaMemcpy(row.data(), a + size_t(i) * K, size_t(K) * 2, cudaMemcpyDeviceToHost));
    if (row_b)
      BENCH_CHECK(cudaMemcpy2D(col.data(), 2, b + j, size_t(N) * 2, 2, K, cudaMemcpyDeviceToHost));
    else
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

// The plain layout (A M x K, B N x K), 512 samples.
inline double sampled_host_error(__nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16 const* d, int M, int N,
                                 int K) {
  return sampled_host_error_layout(a, b, d, M, N, K, false, false, 512, 0x9E3779B97F4A7C15ull);
}
// B stored K x N row-major.
inline double sampled_host_error_rowmajor_b(__nv_bfloat16 const* a, __nv_bfloat16 const* b, __nv_bfloat16 const* d,
                                            int M, int N, int K) {
  return sampled_host_error_layout(a, b, d, M, N, K, false, true, 256, 0x243F6A8885A308D3ull);
}

// D (M x N, row-major) = A · B with A stored K x M row-major (column-major A) and B
// stored N x K (row_b false) or K x N (row_b true), row-major. Column-major view:
// D^T (N x M) = op(B) (N x K) * op(A) (K x M). The stored A is, column-major, an M x K
// matrix with leading dimension M, so op(A) = T; op(B) = T with ld K (B N x K) or N with
// ld N (B K x N): gemm(T, T) or gemm(N, T).
inline void cublas_gemm_colmajor_a(cublasHandle_t h, __nv_bfloat16 const* a, __nv_bfloat16 const* b,
                                   __nv_bfloat16* d, int M, int N, int K, bool row_b) {
  float alpha = 1.f, beta = 0.f;
  BENCH_CUBLAS(cublasGemmEx(h, row_b ? CUBLAS_OP_N : CUBLAS_OP_T, CUBLAS_OP_T, N, M, K, &alpha, b, CUDA_R_16BF,
                            row_b ? N : K, a, CUDA_R_16BF, M, &beta, d, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}

// Timing that does not flatter (issue 15.5). Kernels are timed in interleaved rounds, so
// clock and power drift over the measurement touch them alike (timing them one after the
// other favoured whichever ran first on a cold or a hot GPU). Each round measures every
// kernel two ways:
//   (a) back-to-back: kBackToBack launches between one pair of events, the time divided by
//       kBackToBack. Launch gaps hide under the previous launch and the card runs at the
//       clock sustained load gives it. This is the headline: the medians returned, and the
//       `ratio` of every bench line.
//   (b) single: after an idle gap (cudaStreamSynchronize, then TS_BENCH_IDLE_US host
//       microseconds, 1000 by default) one launch between one pair of events. Short kernels
//       look faster this way (boost clock after idle), slower where launch latency counts.
// Each round runs the kernels in a fresh order (a fixed-seed shuffle), so no kernel always
// follows the same one: on a card at its power cap a kernel timed right after a slow,
// low-power one runs at a higher clock (seen in bench/peers' 31-kernel screen, where a
// fixed order gave the kernel after TS's ping-pong a steady lead). Every kernel gets a
// `timing` line with both medians.
constexpr int kBackToBack = 20;

struct KernelTiming {
  float b2b_ms = 0;     // median over rounds of (kBackToBack launches per event pair) / kBackToBack
  float single_ms = 0;  // median over rounds of one launch per event pair after an idle gap
};

inline int idle_gap_us() {
  char const* e = std::getenv("TS_BENCH_IDLE_US");
  return e ? std::atoi(e) : 1000;
}

// Times f[0..n) in `rounds` interleaved rounds after `warmup` untimed launches each, and
// prints `timing [what ]kernel=<name> b2b_ms=... single_ms=...` per kernel (names default
// to k0, k1, ... in argument order; with flop > 0 the lines carry TFLOP/s too).
inline std::vector<KernelTiming> interleaved_timing(cudaStream_t stream, int warmup, int rounds,
                                                    std::vector<std::function<void()>> const& f,
                                                    std::vector<std::string> const& names = {},
                                                    std::string const& what = "", double flop = 0) {
  // Under compute-sanitizer one launch per kernel is enough (and all there is time for):
  // scripts/gpu_sanitize.sh sets TS_BENCH_ONCE; the timings printed then mean nothing.
  bool once = std::getenv("TS_BENCH_ONCE") != nullptr;
  if (once) warmup = 0, rounds = 1;
  int const per_pair = once ? 1 : kBackToBack;
  int const gap_us = idle_gap_us();
  std::size_t const n = f.size();
  for (int i = 0; i < warmup; ++i)
    for (auto const& g : f) g();
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  std::vector<std::vector<float>> tb(n), ts(n);
  auto elapsed = [&] {
    BENCH_CHECK(cudaEventSynchronize(e1));
    float ms;
    BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
  };
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::mt19937 rng(0x5EED);
  for (int r = 0; r < rounds; ++r) {
    if (r > 0) std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k : order) {  // (a) back-to-back
      BENCH_CHECK(cudaEventRecord(e0, stream));
      for (int i = 0; i < per_pair; ++i) f[k]();
      BENCH_CHECK(cudaEventRecord(e1, stream));
      tb[k].push_back(elapsed() / float(per_pair));
    }
    if (once) continue;
    for (std::size_t k : order) {  // (b) one launch after an idle gap
      BENCH_CHECK(cudaStreamSynchronize(stream));
      std::this_thread::sleep_for(std::chrono::microseconds(gap_us));
      BENCH_CHECK(cudaEventRecord(e0, stream));
      f[k]();
      BENCH_CHECK(cudaEventRecord(e1, stream));
      ts[k].push_back(elapsed());
    }
  }
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  auto median = [](std::vector<float> v) {
    if (v.empty()) return 0.f;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<KernelTiming> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    out[k].b2b_ms = median(tb[k]);
    out[k].single_ms = once ? out[k].b2b_ms : median(ts[k]);
    std::string name = k < names.size() ? names[k] : "k" + std::to_string(k);
    std::printf("timing %s%skernel=%s b2b_ms=%.4f single_ms=%.4f single_over_b2b=%.3f", what.c_str(),
                what.empty() ? "" : " ", name.c_str(), out[k].b2b_ms, out[k].single_ms,
                out[k].single_ms / out[k].b2b_ms);
    if (flop > 0)
      std::printf(" b2b_tflops=%.1f single_tflops=%.1f", flop / out[k].b2b_ms / 1e9, flop / out[k].single_ms / 1e9);
    std::printf(" launches_per_pair=%d rounds=%d idle_us=%d\n", per_pair, rounds, gap_us);
  }
  return out;
}

// The back-to-back medians (ms) of several kernels, timed as above; the `timing` lines
// name them k0, k1, ... in argument order, or `names` (with `what` and flop) in the
// _named form. `reps` is the number of rounds.
template <class... F>
std::array<float, sizeof...(F)> interleaved_median_ms_on(cudaStream_t stream, int warmup, int reps, F&&... f) {
  std::vector<std::function<void()>> fs{std::function<void()>(std::ref(f))...};
  auto t = interleaved_timing(stream, warmup, reps, fs);
  std::array<float, sizeof...(F)> med{};
  for (std::size_t k = 0; k < med.size(); ++k) med[k] = t[k].b2b_ms;
  return med;
}
template <class... F>
std::array<float, sizeof...(F)> interleaved_median_ms(int warmup, int reps, F&&... f) {
  return interleaved_median_ms_on(cudaStream_t(0), warmup, reps, f...);
}
template <class... F>
std::array<float, sizeof...(F)> interleaved_median_ms_named(std::string const& what, double flop,
                                                            std::vector<std::string> const& names, int warmup, int reps,
                                                            F&&... f) {
  std::vector<std::function<void()>> fs{std::function<void()>(std::ref(f))...};
  auto t = interleaved_timing(cudaStream_t(0), warmup, reps, fs, names, what, flop);
  std::array<float, sizeof...(F)> med{};
  for (std::size_t k = 0; k < med.size(); ++k) med[k] = t[k].b2b_ms;
  return med;
}

template <class F>
float median_ms(F&& f, int warmup = 3, int reps = 20, cudaStream_t stream = 0) {
  return interleaved_median_ms_on(stream, warmup, reps, f)[0];
}

// The eight GEMM shapes of the issue (M x N x K), or the one given as `M N K` arguments.
struct Shape {
  int m, n, k;
};
inline std::vector<Shape> gemm_shapes(int argc, char** argv) {
  if (argc == 4) return {{std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])}};
  return {{8192, 8192, 8192}, {4096, 4096, 4096},  {2048, 2048, 2048}, {8192, 8192, 1024},
          {1024, 8192, 8192}, {4096, 4096, 16384}, {3000, 5000, 4000}, {16384, 16384, 512}};
}

// One shape's device operands: A (M x K) and B (N x K) filled with fresh random bf16 from
// two consecutive seeds, D and the cuBLAS reference left for the caller.
struct GemmOperands {
  size_t na, nb, nd;
  __nv_bfloat16 *a = nullptr, *b = nullptr, *d = nullptr, *ref = nullptr;
  GemmOperands(Shape s, uint64_t& seed)
      : na(size_t(s.m) * s.k), nb(size_t(s.n) * s.k), nd(size_t(s.m) * s.n) {
    BENCH_CHECK(cudaMalloc(&a, na * 2));
    BENCH_CHECK(cudaMalloc(&b, nb * 2));
    BENCH_CHECK(cudaMalloc(&d, nd * 2));
    BENCH_CHECK(cudaMalloc(&ref, nd * 2));
    fill_random_bf16<<<1024, 256>>>(a, na, seed++);
    fill_random_bf16<<<1024, 256>>>(b, nb, seed++);
    BENCH_CHECK(cudaGetLastError());
  }
  GemmOperands(GemmOperands const&) = delete;
  ~GemmOperands() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
    cudaFree(ref);
  }
};

}  // namespace bench
