// Interleaved event timing of a few launch forms on one stream: each round runs every form
// once, in a shuffled order, as `per_event` back-to-back launches between two CUDA events;
// the result is each form's median in microseconds per launch. For benches whose forms
// are not kernels of one size (PDL chains: a pair of kernels, a kernel alone), where
// gemm_common.cuh's interleaved_timing does not fit.
#pragma once
#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "cuda_check.cuh"

namespace bench {

inline std::vector<float> interleaved_event_medians_us(cudaStream_t s, int rounds, int per_event, unsigned seed,
                                                       std::vector<std::function<void()>> const& forms) {
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  std::vector<std::vector<float>> t(forms.size());
  std::vector<int> order(forms.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::mt19937 rng(seed);
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(order.begin(), order.end(), rng);
    for (int f : order) {
      BENCH_CHECK(cudaEventRecord(e0, s));
      for (int i = 0; i < per_event; ++i) forms[size_t(f)]();
      BENCH_CHECK(cudaEventRecord(e1, s));
      BENCH_CHECK(cudaEventSynchronize(e1));
      float ms;
      BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
      t[size_t(f)].push_back(ms * 1000.f / float(per_event));
    }
  }
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  std::vector<float> med;
  for (auto& v : t) {
    std::sort(v.begin(), v.end());
    med.push_back(v[v.size() / 2]);
  }
  return med;
}

}  // namespace bench
