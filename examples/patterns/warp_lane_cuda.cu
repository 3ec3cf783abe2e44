// Example 16 (warp-lane interleaved consumer, docs/warp-lanes.md) on the CUDA backend:
// the same resources and schedules the emulator runs, bound to device buffers, launched
// through ts::cuda::launch and checked against the host reference. Warp w of Lanes
// starts its stage counters at stage w; a warp starting at the wrong stage would read
// another warp's chunk, and the output (x * 3 + warp) would differ.
// Prints one line per tile length:
//   example 16_warp_lane_consumer backend=cuda verdict=<...> result=<PASS|FAIL> pairs=<p> elements=<n>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <vector>

#include "patterns/warp_lane_consumer.hpp"
#include "ts/runtime/cuda/launch.cuh"

int main() {
  namespace p = examples::patterns;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("example 16_warp_lane_consumer backend=cuda verdict=- result=NOT_RUN (no CUDA device)\n");
    return 0;
  }
  bool ok = true;
  for (long long n : {4096LL + 17, (1LL << 22) + 5}) {
    for (int pairs : {1, 4, 16}) {
      p::PatternBuffers h(n);
      p::warp_lane_expected(h);
      int32_t *src = nullptr, *dst = nullptr;
      ts::cuda::check(cudaMalloc(&src, n * 4), "cudaMalloc");
      ts::cuda::check(cudaMalloc(&dst, n * 4), "cudaMalloc");
      ts::cuda::check(cudaMemcpy(src, h.src.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
      ts::cuda::check(cudaMemset(dst, 0xff, n * 4), "cudaMemset");
      ts::Options o;
      o.verbose = false;
      auto tm = p::make_warp_lane_consumer_on(src, dst, n, o, pairs);
      std::ostringstream sink;
      auto verdict = ts::to_string(tm.print_and_verify(sink).verdict);
      ts::cuda::launch(tm, p::warp_lane_tiles(n, pairs));
      ts::cuda::check(cudaDeviceSynchronize(), "kernel execution");
      ts::cuda::check(cudaMemcpy(h.dst.data(), dst, n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      long long bad = 0;
      for (long long i = 0; i < n; ++i) bad += h.dst[i] != h.expected[i];
      ok &= bad == 0;
      std::printf("example 16_warp_lane_consumer backend=cuda verdict=%s result=%s pairs=%d elements=%lld mismatches=%lld\n",
                  verdict.c_str(), bad == 0 ? "PASS" : "FAIL", pairs, n, bad);
      cudaFree(src);
      cudaFree(dst);
    }
  }
  return ok ? 0 : 1;
}
