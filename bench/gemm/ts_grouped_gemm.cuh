// The grouped (per-group K) TS GEMM of examples/gemm/gemm_grouped.hpp on the GPU: inputs
// in device memory (fresh random data, groups back to back), per-group tensor maps, the
// static and the dynamic manager over the same tile bodies, and a per-group cuBLAS check.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "gemm/gemm_grouped_manager.hpp"
#include "gemm_common.cuh"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

using GroupedManager = decltype(gemm::make_grouped_gemm(std::declval<gemm::GroupedProblem const&>()));
using DynamicGroupedManager =
    decltype(gemm::make_grouped_gemm(std::declval<gemm::GroupedProblem const&>(), ts::GlobalCounterScheduler{nullptr, nullptr}));

struct GroupedGemm {
  int M = 0, N = 0;
  std::vector<int> K;                     // per group
  std::vector<size_t> off_a, off_b;       // element offsets of A_g, B_g
  __nv_bfloat16 *a = nullptr, *b = nullptr, *d = nullptr, *ref = nullptr;
  int* k_iters = nullptr;
  CUtensorMap* maps = nullptr;            // G maps of A, G maps of B, one of D
  unsigned* counter = nullptr;
  ts::QueueResponse* scratch = nullptr;
  gemm::GroupedProblem p;
  std::unique_ptr<GroupedManager> stat;
  std::unique_ptr<DynamicGroupedManager> dyn;
  int grid = 0;

  GroupedGemm(int M_, int N_, std::vector<int> K_, int sms, uint64_t seed) : M(M_), N(N_), K(std::move(K_)) {
    int G = int(K.size());
    size_t na = 0, nb = 0;
    std::vector<int> kit;
    for (int k : K) {
      off_a.push_back(na);
      off_b.push_back(nb);
      na += size_t(M) * k;
      nb += size_t(N) * k;
      kit.push_back(k / gemm::kTileK);
    }
    size_t nd = size_t(G) * M * N;
    BENCH_CHECK(cudaMalloc(&a, na * 2));
    BENCH_CHECK(cudaMalloc(&b, nb * 2));
    BENCH_CHECK(cudaMalloc(&d, nd * 2));
    BENCH_CHECK(cudaMalloc(&ref, nd * 2));
    fill_random_bf16<<<1024, 256>>>(a, na, seed);
    fill_random_bf16<<<1024, 256>>>(b, nb, seed + 1);
    BENCH_CHECK(cudaGetLastError());
    std::vector<CUtensorMap> h;
    for (int g = 0; g < G; ++g) h.push_back(tensor_map_bf16(a + off_a[g], M, K[g], gemm::kTileM, gemm::kTileK, true));
    for (int g = 0; g < G; ++g) h.push_back(tensor_map_bf16(b + off_b[g], N, K[g], gemm::kTileN, gemm::kTileK, true));
    h.push_back(tensor_map_bf16(d, size_t(G) * M, N, 64, 64, true));
    BENCH_CHECK(cudaMalloc(&maps, h.size() * sizeof(CUtensorMap)));
    BENCH_CHECK(cudaMemcpy(maps, h.data(), h.size() * sizeof(CUtensorMap), cudaMemcpyHostToDevice));
    BENCH_CHECK(cudaMalloc(&k_iters, G * sizeof(int)));
    BENCH_CHECK(cudaMemcpy(k_iters, kit.data(), G * sizeof(int), cudaMemcpyHostToDevice));
    p = gemm::GroupedProblem{G, M, N, k_iters, maps, maps + G, reinterpret_cast<uint16_t*>(d), maps + 2 * G};
    grid = p.num_tiles() < sms ? p.num_tiles() : sms;
    BENCH_CHECK(cudaMalloc(&counter, sizeof(unsigned)));
    BENCH_CHECK(cudaMalloc(&scratch, sizeof(ts::QueueResponse) * size_t(grid) * ts::kQueueMaxStages));
    // Recorded and verified (throws on any diagnostic or an unsafe schedule) before any launch.
    stat = std::make_unique<GroupedManager>(
        gemm::make_grouped_gemm(p, ts::Options{.verbose = false, .exhaustive_check = true}));
    stat->print_and_verify();
    dyn = std::make_unique<DynamicGroupedManager>(
        gemm::make_grouped_gemm(p, ts::GlobalCounterScheduler{counter, scratch}, ts::Options{.verbose = false, .exhaustive_check = true}));
    dyn->print_and_verify();
  }
  ~GroupedGemm() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
    cudaFree(ref);
    cudaFree(k_iters);
    cudaFree(maps);
    cudaFree(counter);
    cudaFree(scratch);
  }
  int groups() const { return int(K.size()); }
  double flop() const {
    double f = 0;
    for (int k : K) f += 2.0 * M * N * k;
    return f;
  }
  void launch_static(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*stat, grid, st); }
  void launch_dynamic(cudaStream_t st = 0) const {
    ts::cuda::reset_queue(counter, st);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*dyn, grid, st);
  }
  // cuBLAS, one GEMM per group, into `ref` (stacked like D).
  void reference(cublasHandle_t h) const {
    for (int g = 0; g < groups(); ++g)
      cublas_gemm(h, a + off_a[g], b + off_b[g], ref + size_t(g) * M * N, M, N, K[g]);
  }
  // Largest per-group relative error of D against `ref`.
  double max_group_error() const {
    double worst = 0;
    for (int g = 0; g < groups(); ++g) {
      double e = relative_error(d + size_t(g) * M * N, ref + size_t(g) * M * N, size_t(M) * N);
      worst = e > worst ? e : worst;
    }
    return worst;
  }
  void poison() const { poison_bf16<<<1024, 256>>>(d, size_t(groups()) * M * N); }
};

}  // namespace bench
