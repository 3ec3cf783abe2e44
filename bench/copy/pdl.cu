// bench/copy pdl: Programmatic Dependent Launch on the GPU (SPEC S12). The chain of
// example 06 on device buffers: the primary lets its dependents launch (PdlLaunch commit),
// then writes buf; the secondary waits for the primary grid (PdlWait), then copies buf to
// out. Each size times chains of pairs launched back to back, the secondary with
// programmatic stream serialization (PDL) and without, in interleaved rounds (20 pairs per
// event pair, medians), and checks every element of out after a run of each form (out and
// buf poisoned first). Both managers pass print_and_verify (the checker proves the
// secondary waits before it reads) before anything runs.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_check.cuh"
#include "../event_timing.cuh"
#include "copy_pdl.hpp"
#include "ts/runtime/cuda/launch.cuh"


namespace {

constexpr int kPairsPerEvent = 20;
constexpr int kWarps = 8;  // warps per CTA of both kernels

// One size's chain: device buffers and the two verified managers.
struct Chain {
  long long n;
  int* buf = nullptr;
  int* out = nullptr;
  int grid;
  decltype(examples::make_pdl_primary(nullptr, 0)) primary;
  decltype(examples::make_pdl_secondary(nullptr, nullptr, 0)) secondary;
  static ts::Options quiet() {
    ts::Options o;
    o.verbose = false;
    return o;
  }
  Chain(long long n_, int grid_, int* b, int* o)
      : n(n_), buf(b), out(o), grid(grid_),
        primary(examples::make_pdl_primary(b, n_, quiet(), kWarps)),
        secondary(examples::make_pdl_secondary(b, o, n_, quiet(), kWarps)) {
    primary.print_and_verify();
    secondary.print_and_verify();
  }
  void pair(bool pdl, cudaStream_t s) {
    ts::cuda::launch(primary, grid, s);
    ts::cuda::launch(secondary, grid, s, {.pdl = pdl});
  }
  // Poisons buf and out, runs one pair, and checks every element of out.
  bool check(bool pdl, cudaStream_t s) {
    BENCH_CHECK(cudaMemsetAsync(buf, 0xff, size_t(n) * 4, s));
    BENCH_CHECK(cudaMemsetAsync(out, 0xff, size_t(n) * 4, s));
    pair(pdl, s);
    BENCH_CHECK(cudaStreamSynchronize(s));
    std::vector<int> h(static_cast<size_t>(n));
    BENCH_CHECK(cudaMemcpy(h.data(), out, size_t(n) * 4, cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long i = 0; i < n; ++i) bad += h[size_t(i)] != int(i * 5 + 1);
    std::printf("check pdl_chain size=%lld pdl=%d wrong=%lld %s\n", n, int(pdl), bad, bad ? "FAIL" : "PASS");
    return bad == 0;
  }
};

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int sms = ts::cuda::persistent_grid();
  long long const max_n = 64ll << 20;  // 256 MiB of ints
  int *buf = nullptr, *out = nullptr;
  BENCH_CHECK(cudaMalloc(&buf, size_t(max_n) * 4));
  BENCH_CHECK(cudaMalloc(&out, size_t(max_n) * 4));
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool ok = true;
  for (long long n : {1ll << 14, 1ll << 18, 1ll << 22, max_n}) {
    // Enough CTAs to fill the GPU for large n, one element per thread at most for small n.
    long long threads_needed = (n + kWarps * 32 - 1) / (kWarps * 32);
    int grid = int(std::min<long long>(threads_needed, sms * 8));
    Chain c(n, grid, buf, out);
    ok &= c.check(false, s);
    ok &= c.check(true, s);
    for (int w = 0; w < 5; ++w) c.pair(w & 1, s);
    auto med = bench::interleaved_event_medians_us(s, 21, kPairsPerEvent, 7,
                                                   {[&] { c.pair(false, s); }, [&] { c.pair(true, s); }});
    float no_pdl_us = med[0], pdl_us = med[1];
    double bytes = 12.0 * double(n);  // the primary writes buf; the secondary reads it and writes out
    std::printf("bench pdl_chain size=%lld ts=%.2f ref=%.2f ref_name=no_pdl unit=GB/s ratio=%.3f pdl_us=%.2f "
                "no_pdl_us=%.2f grid=%d warps=%d pairs_per_event=%d rounds=21\n",
                n, bytes / pdl_us * 1e-3, bytes / no_pdl_us * 1e-3, no_pdl_us / pdl_us, pdl_us, no_pdl_us, grid, kWarps,
                kPairsPerEvent);
  }
  std::printf("pdl_chain %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
