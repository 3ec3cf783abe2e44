// bench/gemm: GEMM kernels against cuBLAS, side by side in one process, on fresh random
// inputs per shape; events, warm-up, medians of back-to-back launches (the `ratio`) and of
// single launches after an idle gap (the `timing` lines); every result checked against cuBLAS.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_common.cuh"
#include "handwritten_gemm.cuh"
#include "ts_gemm.cuh"

namespace {

using bench::Shape;

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
    char what[64];
    std::snprintf(what, sizeof what, "gemm_rowmajor_b size=%dx%dx%d", s.m, s.n, s.k);
    auto [ms_ref, ms_ts] = bench::interleaved_median_ms_named(
        what, 2.0 * s.m * s.n * s.k, {"cublas", "ts"}, 5, 20,
        [&] { bench::cublas_gemm_rowmajor_b(h, a, b, ref, s.m, s.n, s.k); }, [&] { g.launch(); });
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

// Column-major A (K x M row-major), with B N x K (row_b false) or K x N (row_b true): the
// TS variants of gemm_colmajor_a.hpp against cuBLAS with the matching transposes
// (gemm(T, T) / gemm(N, T)), fresh random inputs, D poisoned first, plus the sampled
// float64 host check. With `timed` false (the racecheck run) it only checks.
void run_colmajor_a(cublasHandle_t h, Shape s, int sms, uint64_t seed, bool timed, bool row_b) {
  size_t na = size_t(s.k) * s.m, nb = size_t(s.k) * s.n, nd = size_t(s.m) * s.n;
  __nv_bfloat16 *a, *b, *d, *ref;
  BENCH_CHECK(cudaMalloc(&a, na * 2));
  BENCH_CHECK(cudaMalloc(&b, nb * 2));
  BENCH_CHECK(cudaMalloc(&d, nd * 2));
  BENCH_CHECK(cudaMalloc(&ref, nd * 2));
  bench::fill_random_bf16<<<1024, 256>>>(a, na, seed);
  bench::fill_random_bf16<<<1024, 256>>>(b, nb, seed + 1);
  bench::poison_bf16<<<1024, 256>>>(d, nd);
  BENCH_CHECK(cudaGetLastError());
  CUtensorMap h_maps[3] = {
      bench::tensor_map_bf16(a, s.k, s.m, gemm::kTileK, gemm::kColABoxM, true),  // A: K rows x M columns
      row_b ? bench::tensor_map_bf16(b, s.k, s.n, gemm::kTileK, gemm::kRowBBoxN, true)
            : bench::tensor_map_bf16(b, s.n, s.k, bench::kTileN, bench::kTileK, true),
      bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true)};
  CUtensorMap* maps;
  BENCH_CHECK(cudaMalloc(&maps, sizeof h_maps));
  BENCH_CHECK(cudaMemcpy(maps, h_maps, sizeof h_maps, cudaMemcpyHostToDevice));
  bool tma_epilogue = s.n % 8 == 0;
  gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(d), tma_epilogue ? maps + 2 : nullptr};
  auto launch_ref = [&] { bench::cublas_gemm_colmajor_a(h, a, b, ref, s.m, s.n, s.k, row_b); };
  auto body = [&](auto const& g) {
    launch_ref();
    g.launch();
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    double err = bench::relative_error(d, ref, nd);
    double err_host = bench::sampled_host_error_layout(a, b, d, s.m, s.n, s.k, true, row_b);
    char const* name = row_b ? "gemm_colmajor_a_rowmajor_b" : "gemm_colmajor_a";
    if (timed) {
      char what[64];
      std::snprintf(what, sizeof what, "%s size=%dx%dx%d", name, s.m, s.n, s.k);
      auto [ms_ref, ms_ts] = bench::interleaved_median_ms_named(what, 2.0 * s.m * s.n * s.k, {"cublas", "ts"}, 5, 20,
                                                                launch_ref, [&] { g.launch(); });
      BENCH_CHECK(cudaGetLastError());
      double flop = 2.0 * s.m * s.n * s.k;
      double tf_ref = flop / ms_ref / 1e9, tf_ts = flop / ms_ts / 1e9;
      std::printf("bench %s size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", name, s.m, s.n,
                  s.k, tf_ts, tf_ref, tf_ts / tf_ref);
    }
    std::printf("check %s size=%dx%dx%d err_vs_cublas_%s=%.2e err_vs_host_fp64=%.2e %s\n", name, s.m, s.n, s.k,
                row_b ? "nt" : "tt", err, err_host, (err < 1e-2 && err_host < 1e-2) ? "OK" : "MISMATCH");
  };
  if (row_b)
    body(bench::prepare_ts_gemm_colmajor_a<true>(prob, sms));
  else
    body(bench::prepare_ts_gemm_colmajor_a<false>(prob, sms));
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
  // `ts_bench_gemm cola|colab M N K`: only the column-major-A variant (B K-major, or
  // row-major B), checked, not timed (racecheck). `ts_bench_gemm layouts`: only the
  // column-major-A variants, timed against cuBLAS at 8192^3 and 4096^3.
  bool cola = argc == 5 && std::strcmp(argv[1], "cola") == 0, colab = argc == 5 && std::strcmp(argv[1], "colab") == 0;
  if (cola || colab || (argc == 2 && std::strcmp(argv[1], "layouts") == 0)) {
    cudaDeviceProp prop;
    BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    cublasHandle_t h;
    BENCH_CUBLAS(cublasCreate(&h));
    if (argc == 5) {
      run_colmajor_a(h, {std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4])}, prop.multiProcessorCount, 78,
                     false, colab);
    } else {
      std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
      uint64_t seed = 0x5678;
      for (bool row_b : {false, true})
        for (Shape s : {Shape{8192, 8192, 8192}, Shape{4096, 4096, 4096}}) {
          run_colmajor_a(h, s, prop.multiProcessorCount, seed, true, row_b);
          seed += 2;
        }
    }
    BENCH_CUBLAS(cublasDestroy(h));
    return 0;
  }
  std::vector<Shape> shapes = bench::gemm_shapes(argc, argv);
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
    char what[64];
    std::snprintf(what, sizeof what, "gemm size=%dx%dx%d", s.m, s.n, s.k);
    auto [ms_ref, ms_hw, ms_ts, ms_dyn] = bench::interleaved_median_ms_named(
        what, 2.0 * s.m * s.n * s.k, {"cublas", "handwritten", "ts", "ts_dynamic"}, 5, 20,
        [&] { bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k); },
        [&] { run_handwritten(ta, tb, d, s.m, s.n, s.k, prop.multiProcessorCount, map_d_hw); }, [&] { tsg.launch(); },
        [&] { dyn->launch(); });
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
  // Column-major A (B K-major, then B row-major) on the same shapes.
  for (bool row_b : {false, true})
    for (auto s : rowb) {
      run_colmajor_a(h, s, prop.multiProcessorCount, seed, true, row_b);
      seed += 2;
    }
  BENCH_CUBLAS(cublasDestroy(h));
  return 0;
}
