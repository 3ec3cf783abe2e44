// bench/imbalance, case (a): a concurrent kernel on a second stream holds H SMs for the
// whole run while the persistent TS GEMM runs with one CTA per SM. The static scheduler
// binds tiles to CTAs, so the CTAs that cannot get an SM hold their tiles back until the
// other kernel ends; the dynamic (CLC-contract) scheduler hands tiles to the CTAs that run.
// Prints static vs dynamic times and the ideal (total work / available SMs).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "gemm_common.cuh"
#include "ts_gemm.cuh"

namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// One block per SM (its SMEM leaves no room for a GEMM CTA), spinning for `ns`.
__global__ void hog(unsigned long long ns, int* started) {
  extern __shared__ unsigned char pad[];
  if (threadIdx.x == 0) {
    pad[0] = 1;
    atomicAdd_system(started, 1);
  }
  unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) {
  }
}

constexpr int kHogSmem = 120 * 1024;

template <class G>
float timed_with_hog(G const& g, int hogs, unsigned long long hog_ns, int* started, cudaStream_t s_hog,
                     cudaStream_t s_gemm) {
  *started = 0;
  hog<<<hogs, 32, kHogSmem, s_hog>>>(hog_ns, started);
  BENCH_CHECK(cudaGetLastError());
  auto t0 = std::chrono::steady_clock::now();
  while (*reinterpret_cast<int volatile*>(started) < hogs) {  // every hog block resident
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(5)) {
      std::fprintf(stderr, "hog blocks did not all start\n");
      std::exit(1);
    }
  }
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  BENCH_CHECK(cudaEventRecord(e0, s_gemm));
  g.launch(s_gemm);
  BENCH_CHECK(cudaEventRecord(e1, s_gemm));
  BENCH_CHECK(cudaDeviceSynchronize());
  float ms;
  BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  return ms;
}

template <class F>
float median_of(int n, F&& f) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(f());
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int M = 8192, N = 8192, K = 4096;
  int hogs = argc > 1 ? std::atoi(argv[1]) : 44;
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  BENCH_CHECK(cudaFuncSetAttribute(hog, cudaFuncAttributeMaxDynamicSharedMemorySize, kHogSmem));
  __nv_bfloat16 *a, *b, *d;
  BENCH_CHECK(cudaMalloc(&a, size_t(M) * K * 2));
  BENCH_CHECK(cudaMalloc(&b, size_t(N) * K * 2));
  BENCH_CHECK(cudaMalloc(&d, size_t(M) * N * 2));
  bench::fill_random_bf16<<<1024, 256>>>(a, size_t(M) * K, 11);
  bench::fill_random_bf16<<<1024, 256>>>(b, size_t(N) * K, 12);
  CUtensorMap maps_h[3] = {bench::tensor_map_bf16(a, M, K, gemm::kTileM, gemm::kTileK, true),
                           bench::tensor_map_bf16(b, N, K, gemm::kTileN, gemm::kTileK, true),
                           bench::tensor_map_bf16(d, M, N, 64, 64, true)};
  CUtensorMap* maps;
  BENCH_CHECK(cudaMalloc(&maps, sizeof maps_h));
  BENCH_CHECK(cudaMemcpy(maps, maps_h, sizeof maps_h, cudaMemcpyHostToDevice));
  gemm::Problem p{M, N, K, maps, maps + 1, reinterpret_cast<uint16_t*>(d), maps + 2};
  auto stat = bench::prepare_ts_gemm(p, sms, false);
  auto dyn = bench::prepare_ts_gemm_dynamic(p, sms);
  int* started;
  BENCH_CHECK(cudaHostAlloc(&started, sizeof(int), cudaHostAllocMapped));
  cudaStream_t s_hog, s_gemm;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s_hog, cudaStreamNonBlocking));
  BENCH_CHECK(cudaStreamCreateWithFlags(&s_gemm, cudaStreamNonBlocking));

  float alone_static = bench::median_ms([&] { stat.launch(s_gemm); }, 3, 20, s_gemm);
  float alone_dynamic = bench::median_ms([&] { dyn->launch(s_gemm); }, 3, 20, s_gemm);
  // The other kernel outlives every GEMM run: 3x the GEMM alone, at least 5 ms.
  unsigned long long hog_ns = static_cast<unsigned long long>(std::max(5.0f, 3 * alone_static) * 1e6);
  float with_static = median_of(5, [&] { return timed_with_hog(stat, hogs, hog_ns, started, s_hog, s_gemm); });
  float with_dynamic = median_of(5, [&] { return timed_with_hog(*dyn, hogs, hog_ns, started, s_hog, s_gemm); });
  // Total work over the SMs left: the better alone time scaled by sms / (sms - busy).
  float ideal = std::min(alone_static, alone_dynamic) * float(sms) / float(sms - hogs);
  std::printf("device %s, %d SMs; other kernel holds %d SMs for %.1f ms\n", prop.name, sms, hogs, hog_ns / 1e6);
  std::printf("imbalance alone_static_ms=%.3f alone_dynamic_ms=%.3f ideal_ms=%.3f\n", alone_static, alone_dynamic,
              ideal);
  std::printf("bench imbalance_busy_sms size=%dx%dx%d:busy=%d ts=%.3f ref=%.3f ref_name=static unit=ms ratio=%.3f\n",
              M, N, K, hogs, with_dynamic, with_static, with_static / with_dynamic);
  std::printf("imbalance dynamic_over_ideal=%.3f static_over_ideal=%.3f\n", with_dynamic / ideal, with_static / ideal);
  return 0;
}
