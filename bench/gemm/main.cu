// bench/gemm: GEMM kernels against cuBLAS, side by side in one process, on fresh random
// inputs per shape; events, warm-up, medians; every result checked against cuBLAS.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_common.cuh"
#include "handwritten_gemm.cuh"
#include "ts_gemm.cuh"

namespace {

struct Shape {
  int m, n, k;
};

constexpr int kStages = 4;

void run_handwritten(CUtensorMap const& ta, CUtensorMap const& tb, __nv_bfloat16* d, int M, int N, int K, int sms,
                     CUtensorMap const* map_d) {
  int tiles = ((M + bench::kTileM - 1) / bench::kTileM) * ((N + bench::kTileN - 1) / bench::kTileN);
  int grid = tiles < sms ? tiles : sms;
  bench::handwritten_gemm<kStages><<<grid, 384, bench::handwritten_smem_bytes<kStages>()>>>(ta, tb, d, M, N, K, map_d);
}

// Row-major B (K x N): the TS variant of gemm_layouts.hpp against cuBLAS with B not
// transposed, fresh random inputs, D poisoned first. With `timed` false (the racecheck
// run) it only checks.
void run_rowmajor_b(cublasHandle_t h, Shape s, int sms, uint64_t seed, bool timed) {
  size_t na = size_t(s.m) * s.k, nb = size_t(s.k) * s.n, nd = size_t(s.m) * s.n;
  __nv_bfloat16 *a, *b, *d, *ref;
  BENCH_CHECK(cudaMalloc(&a, na * 2));
  BENCH_CHECK(cudaMalloc(&b, nb * 2));
  BENCH_CHECK(cudaMalloc(&d, nd * 2));
  BENCH_CHECK(cudaMalloc(&ref, nd * 2));
  bench::fill_random_bf16<<<1024, 256>>>(a, na, seed);
  bench::fill_random_bf16<<<1024, 256>>>(b, nb, seed + 1);
  bench::poison_bf16<<<1024, 256>>>(d, nd);
  BENCH_CHECK(cudaGetLastError());
  CUtensorMap h_maps[3] = {bench::tensor_map_bf16(a, s.m, s.k, bench::kTileM, bench::kTileK, true),
                           bench::tensor_map_bf16(b, s.k, s.n, gemm::kTileK, gemm::kRowBBoxN, true),
                           bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true)};
  CUtensorMap* maps;
  BENCH_CHECK(cudaMalloc(&maps, sizeof h_maps));
  BENCH_CHECK(cudaMemcpy(maps, h_maps, sizeof h_maps, cudaMemcpyHostToDevice));
  bool tma_epilogue = s.n % 8 == 0;
  gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(d), tma_epilogue ? maps + 2 : nullptr};
  bench::TsGemmRowB g = bench::prepare_ts_gemm_rowmajor_b(prob, sms);
  bench::cublas_gemm_rowmajor_b(h, a, b, ref, s.m, s.n, s.k);
  g.launch();
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaDeviceSynchronize());
  double err = bench::relative_error(d, ref, nd);
  double err_host = bench::sampled_host_error_rowmajor_b(a, b, d, s.m, s.n, s.k);
  if (timed) {
    float ms_ref = bench::median_ms([&] { bench::cublas_gemm_rowmajor_b(h, a, b, ref, s.m, s.n, s.k); });
    float ms_ts = bench::median_ms([&] { g.launch(); });
    BENCH_CHECK(cudaGetLastError());
    double flop = 2.0 * s.m * s.n * s.k;
    double tf_ref = flop / ms_ref / 1e9, tf_ts = flop / ms_ts / 1e9;
    std::printf("bench gemm_rowmajor_b size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", s.m,
                s.n, s.k, tf_ts, tf_ref, tf_ts / tf_ref);
  }
  std::printf("check gemm_rowmajor_b size=%dx%dx%d err_vs_cublas_nn=%.2e err_vs_host_fp64=%.2e %s\n", s.m, s.n, s.k,
              err, err_host, (err < 1e-2 && err_host < 1e-2) ? "OK" : "MISMATCH");
  BENCH_CHECK(cudaFree(maps));
  BENCH_CHECK(cudaFree(a));
  BENCH_CHECK(cudaFree(b));
  BENCH_CHECK(cudaFree(d));
  BENCH_CHECK(cudaFree(ref));
}

}  // namespace

int main(int argc, char** argv) {
  // `ts_bench_gemm rowb M N K`: only the row-major-B variant, checked, not timed (racecheck).
  if (argc == 5 && std::strcmp(argv[1], "rowb") == 0) {
    cudaDeviceProp prop;
    BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    cublasHandle_t h;
    BENCH_CUBLAS(cublasCreate(&h));
    run_rowmajor_b(h, {std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4])}, prop.multiProcessorCount, 77,
                   false);
    BENCH_CUBLAS(cublasDestroy(h));
    return 0;
  }
  std::vector<Shape> shapes = {{8192, 8192, 8192},  {4096, 4096, 4096}, {2048, 2048, 2048},  {8192, 8192, 1024},
                               {1024, 8192, 8192},  {4096, 4096, 16384}, {3000, 5000, 4000}, {16384, 16384, 512}};
  if (argc == 4) shapes = {{std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])}};
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  BENCH_CHECK(cudaFuncSetAttribute(bench::handwritten_gemm<kStages>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   bench::handwritten_smem_bytes<kStages>()));
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  uint64_t seed = 0x1234;
  bool first_shape = true;
  for (auto s : shapes) {
    size_t na = size_t(s.m) * s.k, nb = size_t(s.n) * s.k, nd = size_t(s.m) * s.n;
    __nv_bfloat16 *a, *b, *d, *ref;
    BENCH_CHECK(cudaMalloc(&a, na * 2));
    BENCH_CHECK(cudaMalloc(&b, nb * 2));
    BENCH_CHECK(cudaMalloc(&d, nd * 2));
    BENCH_CHECK(cudaMalloc(&ref, nd * 2));
    bench::fill_random_bf16<<<1024, 256>>>(a, na, seed++);
    bench::fill_random_bf16<<<1024, 256>>>(b, nb, seed++);
    bench::poison_bf16<<<1024, 256>>>(d, nd);
    BENCH_CHECK(cudaGetLastError());
    CUtensorMap ta = bench::tensor_map_bf16(a, s.m, s.k, bench::kTileM, bench::kTileK, true);
    CUtensorMap tb = bench::tensor_map_bf16(b, s.n, s.k, bench::kTileN, bench::kTileK, true);
    CUtensorMap* maps;  // the TS resources read their tensor maps from device memory
    BENCH_CHECK(cudaMalloc(&maps, 4 * sizeof(CUtensorMap)));
    BENCH_CHECK(cudaMemcpy(maps, &ta, sizeof ta, cudaMemcpyHostToDevice));
    BENCH_CHECK(cudaMemcpy(maps + 1, &tb, sizeof tb, cudaMemcpyHostToDevice));
    __nv_bfloat16* dts;
    BENCH_CHECK(cudaMalloc(&dts, nd * 2));
    // TMA-store epilogue maps for D (row pitch must be a multiple of 16 bytes).
    bool tma_epilogue = s.n % 8 == 0 && !std::getenv("GEMM_DIRECT_EPILOGUE");
    CUtensorMap const* map_d_hw = nullptr;
    CUtensorMap const* map_d_ts = nullptr;
    if (tma_epilogue) {
      CUtensorMap td_hw = bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true);
      CUtensorMap td_ts = bench::tensor_map_bf16(dts, s.m, s.n, 64, 64, true);
      BENCH_CHECK(cudaMemcpy(maps + 2, &td_hw, sizeof td_hw, cudaMemcpyHostToDevice));
      BENCH_CHECK(cudaMemcpy(maps + 3, &td_ts, sizeof td_ts, cudaMemcpyHostToDevice));
      map_d_hw = maps + 2;
      map_d_ts = maps + 3;
    }
    bench::poison_bf16<<<1024, 256>>>(dts, nd);
    gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(dts), map_d_ts};
    bench::TsGemm tsg = bench::prepare_ts_gemm(prob, prop.multiProcessorCount, first_shape);
    first_shape = false;

    bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k);
    run_handwritten(ta, tb, d, s.m, s.n, s.k, prop.multiProcessorCount, map_d_hw);
    tsg.launch();
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    double err_hw = bench::relative_error(d, ref, nd);
    double err_ts = bench::relative_error(dts, ref, nd);
    // The dynamic scheduler variant writes the same D (poisoned first).
    auto dyn = bench::prepare_ts_gemm_dynamic(prob, prop.multiProcessorCount);
    bench::poison_bf16<<<1024, 256>>>(dts, nd);
    dyn->launch();
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    double err_dyn = bench::relative_error(dts, ref, nd);
    double err_ts_host = bench::sampled_host_error(a, b, dts, s.m, s.n, s.k);
    float ms_ref = bench::median_ms([&] { bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k); });
    float ms_hw = bench::median_ms([&] { run_handwritten(ta, tb, d, s.m, s.n, s.k, prop.multiProcessorCount, map_d_hw); });
    float ms_ts = bench::median_ms([&] { tsg.launch(); });
    float ms_dyn = bench::median_ms([&] { dyn->launch(); });
    BENCH_CHECK(cudaGetLastError());
    double flop = 2.0 * s.m * s.n * s.k;
    double tf_ref = flop / ms_ref / 1e9, tf_hw = flop / ms_hw / 1e9, tf_ts = flop / ms_ts / 1e9;
    std::printf("bench gemm size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", s.m, s.n, s.k,
                tf_ts, tf_ref, tf_ts / tf_ref);
    std::printf("bench gemm_twin size=%dx%dx%d ts=%.1f ref=%.1f ref_name=handwritten unit=TFLOP/s ratio=%.3f\n", s.m,
                s.n, s.k, tf_ts, tf_hw, tf_ts / tf_hw);
    double tf_dyn = flop / ms_dyn / 1e9;
    std::printf("bench gemm_dynamic size=%dx%dx%d ts=%.1f ref=%.1f ref_name=static unit=TFLOP/s ratio=%.3f\n", s.m,
                s.n, s.k, tf_dyn, tf_ts, tf_dyn / tf_ts);
    std::printf("check gemm_dynamic size=%dx%dx%d err_vs_cublas=%.2e %s\n", s.m, s.n, s.k, err_dyn,
                err_dyn < 1e-2 ? "OK" : "MISMATCH");
    std::printf("epilogue gemm size=%dx%dx%d %s\n", s.m, s.n, s.k, tma_epilogue ? "tma-store" : "direct");
    std::printf("check gemm size=%dx%dx%d err_ts_vs_cublas=%.2e err_handwritten_vs_cublas=%.2e err_ts_vs_host_fp64=%.2e %s\n",
                s.m, s.n, s.k, err_ts, err_hw, err_ts_host,
                (err_ts < 1e-2 && err_hw < 1e-2 && err_ts_host < 1e-2) ? "OK" : "MISMATCH");
    BENCH_CHECK(cudaFree(maps));
    BENCH_CHECK(cudaFree(dts));
    BENCH_CHECK(cudaFree(a));
    BENCH_CHECK(cudaFree(b));
    BENCH_CHECK(cudaFree(d));
    BENCH_CHECK(cudaFree(ref));
  }
  // Row-major B on the two square shapes (or the one given shape).
  std::vector<Shape> rowb = {{8192, 8192, 8192}, {4096, 4096, 4096}};
  if (argc == 4) rowb = shapes;
  for (auto s : rowb) run_rowmajor_b(h, s, prop.multiProcessorCount, seed++, true);
  BENCH_CUBLAS(cublasDestroy(h));
  return 0;
}
