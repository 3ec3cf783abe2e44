// bench/gemm multicast: the cooperative TS GEMM on clusters of two CTAs with B multicast,
// against cuBLAS and the single-CTA cooperative TS GEMM, side by side in one process on
// fresh random inputs per shape (interleaved rounds of events, medians); the multicast
// result is checked against cuBLAS and a sampled fp64 host product.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "gemm/gemm_multicast_manager.hpp"
#include "gemm_common.cuh"
#include "ts_gemm.cuh"

namespace {
using MulticastManager = decltype(gemm::multicast::make_gemm_multicast(std::declval<gemm::Problem const&>(), nullptr));
}  // namespace

int main(int argc, char** argv) {
  auto shapes = bench::gemm_shapes(argc, argv);
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  uint64_t seed = 0x9abc;
  for (auto s : shapes) {
    if (s.n % 8) continue;  // TMA-store epilogue
    bench::GemmOperands ops(s, seed);
    __nv_bfloat16 *a = ops.a, *b = ops.b, *d = ops.d, *ref = ops.ref;
    size_t nd = ops.nd;
    CUtensorMap host_maps[4] = {bench::tensor_map_bf16(a, s.m, s.k, gemm::kTileM, gemm::kTileK, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::kTileN, gemm::kTileK, true),
                                bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::kTileN / 2, gemm::kTileK, true)};
    CUtensorMap* maps;
    BENCH_CHECK(cudaMalloc(&maps, sizeof host_maps));
    BENCH_CHECK(cudaMemcpy(maps, host_maps, sizeof host_maps, cudaMemcpyHostToDevice));
    gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(d), maps + 2};
    auto coop = bench::prepare_ts_gemm(prob, prop.multiProcessorCount, false);
    auto mc = std::make_unique<MulticastManager>(
        gemm::multicast::make_gemm_multicast(prob, maps + 3, ts::Options{.verbose = false}));
    mc->print_and_verify();
    // One persistent wave: as many clusters as can be resident (fewer than SMs / 2 when a
    // GPC's SMs do not pair up), at most one per pair of tiles.
    int resident = ts::cuda::resident_grid<ts::cuda::TaskRegisterBudgets<384>>(*mc) / gemm::multicast::kClusterM;
    int clusters = gemm::multicast::pairs(prob) < resident ? gemm::multicast::pairs(prob) : resident;
    int grid = clusters * gemm::multicast::kClusterM;
    auto launch_mc = [&] { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*mc, grid); };
    bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k);
    bench::poison_bf16<<<1024, 256>>>(d, nd);
    launch_mc();
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    double err_mc = bench::relative_error(d, ref, nd);
    double err_host = bench::sampled_host_error(a, b, d, s.m, s.n, s.k);
    auto [ms_ref, ms_coop, ms_mc] = bench::interleaved_median_ms(
        5, 20, [&] { bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k); }, [&] { coop.launch(); }, launch_mc);
    BENCH_CHECK(cudaGetLastError());
    double flop = 2.0 * s.m * s.n * s.k;
    double tf_ref = flop / ms_ref / 1e9, tf_coop = flop / ms_coop / 1e9, tf_mc = flop / ms_mc / 1e9;
    std::printf("bench gemm_multicast size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", s.m,
                s.n, s.k, tf_mc, tf_ref, tf_mc / tf_ref);
    std::printf("bench gemm_cooperative size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n",
                s.m, s.n, s.k, tf_coop, tf_ref, tf_coop / tf_ref);
    std::printf("multicast gemm size=%dx%dx%d clusters=%d resident_clusters=%d multicast_over_cooperative=%.3f\n", s.m,
                s.n, s.k, clusters, resident, tf_mc / tf_coop);
    std::printf("check gemm_multicast size=%dx%dx%d err_vs_cublas=%.2e err_vs_host_fp64=%.2e %s\n", s.m, s.n, s.k,
                err_mc, err_host, (err_mc < 1e-2 && err_host < 1e-2) ? "OK" : "MISMATCH");
    BENCH_CHECK(cudaFree(maps));
  }
  BENCH_CUBLAS(cublasDestroy(h));
  return 0;
}
