// bench/copy: the TS copy kernels against cudaMemcpy device-to-device and against
// hand-written kernels of the same design, side by side in one process.
//   ts_bench_copy [max_bytes]     sizes 256 MiB, 1 GiB, 4 GiB (capped at max_bytes)
// Each measurement: fresh random source, 3 warm-up launches, the median of 15 timed
// launches (CUDA events), bandwidth counted as read + write (2 x bytes / time).
// Lines:
//   bench <name> size=<bytes> ts=<TB/s> ref=<TB/s> ref_name=<memcpy|handwritten> unit=TB/s ratio=<ts/ref>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <iostream>
#include <vector>

#include "copy_cuda.cuh"
#include "handwritten.cuh"

namespace {

void ck(cudaError_t e, char const* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

__global__ void fill_random(uint64_t* p, long long words, uint64_t seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    p[i] = x;
  }
}

__global__ void count_diff(uint64_t const* a, uint64_t const* b, long long words, unsigned long long* bad) {
  unsigned long long local = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(bad, local);
}

// Median time in ms of `run` on the default stream.
double median_ms(std::function<void()> const& run, int warmup = 3, int reps = 15) {
  for (int i = 0; i < warmup; ++i) run();
  ck(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a);
    run();
    cudaEventRecord(b);
    ck(cudaEventSynchronize(b), "timed run");
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double tbps(long long bytes, double ms) { return 2.0 * double(bytes) / (ms * 1e-3) / 1e12; }

void line(char const* name, long long bytes, double ts, double ref, char const* ref_name) {
  std::printf("bench %s size=%lld ts=%.3f ref=%.3f ref_name=%s unit=TB/s ratio=%.3f\n", name, bytes, ts, ref, ref_name,
              ts / ref);
  std::fflush(stdout);
}

// The TMA copy's design at other ring depths, stage sizes and CTAs per SM (the
// hand-written form), against cudaMemcpy: which shape of the design reaches memcpy.
template <int S, int B>
void tma_shape(long long bytes, int sms, int ctas_per_sm, void* src, void* dst, auto& timed, double mc) {
  int smem = S * B + 16 * S;
  ck(cudaFuncSetAttribute(bench::hw_tma<S, B>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "smem attr");
  double t = tbps(bytes, timed("hw_tma_sweep", [&] {
    bench::hw_tma<S, B><<<sms * ctas_per_sm, 64, smem>>>(static_cast<char const*>(src), static_cast<char*>(dst), bytes);
  }));
  std::printf("sweep tma_copy size=%lld stages=%d stage_bytes=%d ctas_per_sm=%d tbps=%.3f of_memcpy=%.3f\n", bytes, S, B,
              ctas_per_sm, t, t / mc);
}
void tma_sweep(long long bytes, int sms, void* src, void* dst, auto& timed, double mc) {
  tma_shape<3, 32768>(bytes, sms, 2, src, dst, timed, mc);
  tma_shape<4, 16384>(bytes, sms, 3, src, dst, timed, mc);
  tma_shape<6, 16384>(bytes, sms, 2, src, dst, timed, mc);
  tma_shape<8, 8192>(bytes, sms, 3, src, dst, timed, mc);
  tma_shape<4, 32768>(bytes, sms, 1, src, dst, timed, mc);
  tma_shape<6, 32768>(bytes, sms, 1, src, dst, timed, mc);
  tma_shape<2, 32768>(bytes, sms, 3, src, dst, timed, mc);
  tma_shape<3, 16384>(bytes, sms, 4, src, dst, timed, mc);
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("bench copy: no CUDA device, nothing measured\n");
    return 0;
  }
  long long max_bytes = argc > 1 ? std::atoll(argv[1]) : (4ll << 30);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs, cc %d.%d\n", prop.name, sms, prop.major, prop.minor);

  unsigned long long* bad = nullptr;
  unsigned* counter = nullptr;
  ck(cudaMalloc(&bad, sizeof(*bad)), "cudaMalloc");
  ck(cudaMalloc(&counter, sizeof(*counter)), "cudaMalloc");
  constexpr int kTmaSmem = examples::kTmaStages * examples::kTmaStageBytes + 16 * examples::kTmaStages;
  ck(cudaFuncSetAttribute(bench::hw_tma<>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTmaSmem), "smem attr");
  bool sweep = argc > 2 && std::string(argv[2]) == "sweep";

  for (long long bytes : {256ll << 20, 1ll << 30, 4ll << 30}) {
    if (bytes > max_bytes) continue;
    void *src = nullptr, *dst = nullptr;
    ck(cudaMalloc(&src, bytes), "cudaMalloc src");
    ck(cudaMalloc(&dst, bytes), "cudaMalloc dst");
    fill_random<<<sms * 8, 256>>>(static_cast<uint64_t*>(src), bytes / 8, 0x1234 + bytes);
    auto check_copy = [&](char const* name) {
      cudaMemset(bad, 0, sizeof(*bad));
      count_diff<<<sms * 8, 256>>>(static_cast<uint64_t const*>(src), static_cast<uint64_t const*>(dst), bytes / 8, bad);
      unsigned long long h = 0;
      ck(cudaMemcpy(&h, bad, sizeof(h), cudaMemcpyDeviceToHost), "check");
      if (h) std::printf("bench %s size=%lld WRONG: %llu words differ\n", name, bytes, h);
    };
    auto timed = [&](char const* name, std::function<void()> run) {
      ck(cudaMemset(dst, 0, bytes), "memset");
      double ms = median_ms(run);
      check_copy(name);
      return ms;
    };

    double memcpy_ms = timed("memcpy", [&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice); });
    double mc = tbps(bytes, memcpy_ms);

    auto gs = examples::make_grid_stride_copy_cuda(src, dst, bytes, nullptr);
    auto pc = examples::make_pipelined_copy_cuda(src, dst, bytes, nullptr);
    auto tc = examples::make_tma_copy_cuda(src, dst, bytes, nullptr);
    auto dq = examples::make_dynamic_tile_copy_cuda(src, dst, bytes, counter, nullptr);
    long long n16 = bytes / 2;
    auto* s16 = static_cast<int16_t const*>(src);
    auto* d16 = static_cast<int16_t*>(dst);

    double ts_gs = tbps(bytes, timed("grid_stride_copy", [&] { gs.launch(nullptr); }));
    double hw_gs = tbps(bytes, timed("hw_grid_stride", [&] { bench::hw_grid_stride<<<sms * 8, 256>>>(s16, d16, n16, n16); }));
    line("grid_stride_copy", bytes, ts_gs, mc, "memcpy");
    line("grid_stride_copy", bytes, ts_gs, hw_gs, "handwritten");

    double ts_pc = tbps(bytes, timed("pipelined_copy", [&] { pc.launch(nullptr); }));
    double hw_pc = tbps(bytes, timed("hw_pipelined", [&] { bench::hw_pipelined<<<sms * 16, 64>>>(s16, d16, n16); }));
    line("pipelined_copy", bytes, ts_pc, mc, "memcpy");
    line("pipelined_copy", bytes, ts_pc, hw_pc, "handwritten");

    double ts_tc = tbps(bytes, timed("tma_copy", [&] { tc.launch(nullptr); }));
    double hw_tc = tbps(bytes, timed("hw_tma", [&] {
                          bench::hw_tma<><<<sms * 2, 64, kTmaSmem>>>(static_cast<char const*>(src),
                                                                   static_cast<char*>(dst), bytes);
                        }));
    line("tma_copy", bytes, ts_tc, mc, "memcpy");
    line("tma_copy", bytes, ts_tc, hw_tc, "handwritten");

    if (sweep) tma_sweep(bytes, sms, src, dst, timed, mc);

    double ts_dq = tbps(bytes, timed("dynamic_tile_copy", [&] { dq.launch(nullptr); }));
    line("dynamic_tile_copy", bytes, ts_dq, mc, "memcpy");

    ck(cudaGetLastError(), "launches");
    cudaFree(src);
    cudaFree(dst);
  }
  cudaFree(bad);
  cudaFree(counter);
  return 0;
}
