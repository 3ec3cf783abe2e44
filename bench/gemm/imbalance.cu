// bench/imbalance, case (a): a concurrent kernel on a second stream holds H SMs for the
// whole run while the persistent TS GEMM runs with one CTA per SM. The static scheduler
// binds tiles to CTAs, so the CTAs that cannot get an SM hold their tiles back until the
// other kernel ends; the dynamic (CLC-contract) scheduler hands tiles to the CTAs that run.
// Prints static vs dynamic times and the ideal (total work / available SMs).
//
// bench/imbalance, case (b): a grouped GEMM whose tiles differ in cost (K differs per
// group; tiles of 128 x 256), run alone on the GPU under the static persistent scheduler
// and under the dynamic (CLC-contract) one, with the same tile bodies. The distribution is
// stated, chosen rather than drawn: the weight-gradient GEMMs of a mixture-of-experts layer
// with 64 experts of 1024 x 1024 (32 tiles each), where K_g is the number of tokens routed
// to expert g: 5 hot experts get K = 16384, the 59 others K = 1024. Groups are sorted by K,
// descending (what a grouped-GEMM host would do; it also helps the static scheduler, whose
// round-robin then spreads the hot tiles as evenly as it can). 160 heavy tiles on 132 SMs
// is 1.2 waves: the static schedule gives 28 CTAs two heavy tiles plus their round-robin
// share of the light ones; the dynamic one lets the other CTAs take the light tiles.
// A second, coarser mix (19 experts of 1024 x 2048, 3 hot: 192 heavy tiles, 1.45 waves)
// shows how the gain depends on the mix. light_work_over_gap says how much light work
// there is against the time the static tail leaves the other SMs idle.
// Static and dynamic are timed alternately (medians of 41 each after 20 warm-up pairs), so
// clock and power drift weighs on both alike. The ideal is described at calibrate().
//
// Case (s), for the sanitizers (scripts/gpu_sanitize.sh): one small grouped mix of 512
// tiles (16 experts of 1024 x 1024, K = 2 x 2048 + 14 x 512), static and dynamic, each
// checked against cuBLAS, no timing: the cases above run minutes under racecheck, most of
// it in the cuBLAS reference at K = 16384.
//
// Usage: ts_bench_imbalance [busy_sms=44] [a|b|s|ab]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gemm_common.cuh"
#include "ts_gemm.cuh"
#include "ts_grouped_gemm.cuh"

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

void case_a(int hogs) {
  int M = 8192, N = 8192, K = 4096;
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
}

// Event time of one call of f (ms).
template <class F>
float time_once(F&& f, cudaEvent_t e0, cudaEvent_t e1) {
  BENCH_CHECK(cudaEventRecord(e0));
  f();
  BENCH_CHECK(cudaEventRecord(e1));
  BENCH_CHECK(cudaEventSynchronize(e1));
  float ms;
  BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

// Medians of f and g timed alternately (f, g, f, g, ...) after `warmup` untimed pairs:
// clock and power drift over the run then weighs on both alike.
template <class F, class G>
std::pair<float, float> alternating_medians(F&& f, G&& g, int warmup, int reps) {
  for (int i = 0; i < warmup; ++i) {
    f();
    g();
  }
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  std::vector<float> tf, tg;
  for (int i = 0; i < reps; ++i) {
    tf.push_back(time_once(f, e0, e1));
    tg.push_back(time_once(g, e0, e1));
  }
  BENCH_CHECK(cudaEventDestroy(e0));
  BENCH_CHECK(cudaEventDestroy(e1));
  std::sort(tf.begin(), tf.end());
  std::sort(tg.begin(), tg.end());
  return {tf[tf.size() / 2], tg[tg.size() / 2]};
}

// The ideal: total work over the SMs, with every SM busy to the end. Per-tile costs come
// from perfectly balanced runs of the same kernel mixing the same two kinds of tile:
// groups of exactly one wave (33 x 4 = 132 tiles of 128 x 256) each, so the static
// round-robin gives every CTA the same tiles. With a = n_heavy / SMs and b = n_light / SMs
// rounded down, T(a, b) is measured, and the time of one more wave of each kind from
// T(a+1, b) and T(a, b+4); the ideal interpolates to the mix's fractional wave counts:
// ideal = T(a, b) + (n_heavy - a SMs) / SMs c_heavy + (n_light - b SMs) / SMs c_light,
// i.e. intercept + (n_heavy c_heavy + n_light c_light) / SMs (c: one SM's time per tile).
struct TileCost {
  float heavy_ms, light_ms, fixed_ms;
};
TileCost calibrate(int heavy_k, int light_k, int a, int b, int sms, uint64_t seed) {
  if (sms % 33 != 0) {
    std::fprintf(stderr, "calibration assumes waves of 33 x 4 tiles (132 SMs), got %d SMs\n", sms);
    std::exit(1);
  }
  auto run = [&](int na, int nb) {
    std::vector<int> ks(na, heavy_k);
    ks.insert(ks.end(), nb, light_k);
    bench::GroupedGemm g(33 * gemm::kTileM, (sms / 33) * gemm::kTileN, ks, sms, seed + 13 * na + nb);
    return bench::median_ms([&] { g.launch_static(); }, 10, 30);
  };
  float t = run(a, b), th = run(a + 1, b), tl = run(a, b + 4);
  TileCost c;
  c.heavy_ms = th - t;  // one more wave: every SM runs one more heavy tile
  c.light_ms = (tl - t) / 4.0f;
  c.fixed_ms = t - a * c.heavy_ms - b * c.light_ms;  // the intercept (launch, fill, drain)
  std::printf("calibration balanced T(%d,%d)=%.4f T(%d,%d)=%.4f T(%d,%d)=%.4f ms\n", a, b, t, a + 1, b, th, a, b + 4,
              tl);
  return c;
}

// One tile-cost mix: heavy groups (K = heavy_k) first, then light groups (K = light_k),
// every group M x N. Checked against cuBLAS per group, then timed.
void grouped_mix(cublasHandle_t h, int M, int N, int heavy_groups, int heavy_k, int light_groups, int light_k, int sms,
                 uint64_t seed) {
  std::vector<int> ks(heavy_groups, heavy_k);
  ks.insert(ks.end(), light_groups, light_k);
  bench::GroupedGemm g(M, N, ks, sms, seed);
  int tiles_per_group = g.p.tiles_m() * g.p.tiles_n();
  int heavy = heavy_groups * tiles_per_group, light = light_groups * tiles_per_group;

  g.reference(h);
  g.poison();
  g.launch_static();
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaDeviceSynchronize());
  double err_static = g.max_group_error();
  g.poison();
  g.launch_dynamic();
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaDeviceSynchronize());
  double err_dynamic = g.max_group_error();

  auto [st, dy] = alternating_medians([&] { g.launch_static(); }, [&] { g.launch_dynamic(); }, 20, 41);
  BENCH_CHECK(cudaGetLastError());
  TileCost c = calibrate(heavy_k, light_k, std::max(1, heavy / sms), std::max(1, light / sms), sms, seed + 1000);
  float ideal = c.fixed_ms + (heavy * c.heavy_ms + light * c.light_ms) / float(sms);
  // How much light work there is against the gap a static tail leaves: the SMs without a
  // last-wave heavy tile, for one heavy tile's time.
  int last_wave = heavy % sms == 0 ? sms : heavy % sms;
  char size[128];
  std::snprintf(size, sizeof size, "%dx%dx%d:K=%dx%d+%dx%d", g.groups(), g.M, g.N, heavy_groups, heavy_k,
                light_groups, light_k);
  std::printf("grouped %s tiles=%d (heavy %d, light %d) gflop=%.1f light_work_over_gap=%.2f\n", size,
              g.p.num_tiles(), heavy, light, g.flop() / 1e9,
              light * c.light_ms / ((sms - last_wave) * c.heavy_ms));
  std::printf("grouped %s calibration heavy_tile_ms=%.4f light_tile_ms=%.4f intercept_ms=%.4f\n", size, c.heavy_ms,
              c.light_ms, c.fixed_ms);
  std::printf("check imbalance_grouped size=%s max_group_err_vs_cublas static=%.2e dynamic=%.2e %s\n", size,
              err_static, err_dynamic, (err_static < 1e-2 && err_dynamic < 1e-2) ? "OK" : "MISMATCH");
  std::printf("bench imbalance_grouped size=%s ts=%.3f ref=%.3f ref_name=static unit=ms ratio=%.3f\n", size, dy, st,
              st / dy);
  std::printf("imbalance_grouped size=%s ideal_ms=%.3f dynamic_over_ideal=%.3f static_over_ideal=%.3f "
              "tflops_dynamic=%.1f tflops_static=%.1f\n",
              size, ideal, dy / ideal, st / ideal, g.flop() / dy / 1e9, g.flop() / st / 1e9);
}

void case_b() {
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, sms);
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  // The stated mix (see the top of this file): 64 experts, 5 hot.
  grouped_mix(h, 1024, 1024, 5, 16384, 59, 1024, sms, 101);
  // A coarser mix: 3 hot of 19 larger experts (192 heavy tiles, 1.45 waves).
  grouped_mix(h, 1024, 2048, 3, 16384, 16, 1024, sms, 201);
  // The stated mix again on fresh data: the spread between the two runs is the noise.
  grouped_mix(h, 1024, 1024, 5, 16384, 59, 1024, sms, 301);
  BENCH_CUBLAS(cublasDestroy(h));
}

// Case (s): one grouped mix, checked, not timed.
void case_s() {
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  std::vector<int> ks(2, 2048);
  ks.insert(ks.end(), 14, 512);
  bench::GroupedGemm g(1024, 1024, ks, sms, 401);
  g.reference(h);
  double err[2];
  for (int dynamic = 0; dynamic < 2; ++dynamic) {
    g.poison();
    if (dynamic) g.launch_dynamic();
    else g.launch_static();
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaDeviceSynchronize());
    err[dynamic] = g.max_group_error();
  }
  std::printf("check imbalance_grouped size=%dx1024x1024:K=2x2048+14x512 tiles=%d max_group_err_vs_cublas "
              "static=%.2e dynamic=%.2e %s\n",
              g.groups(), g.p.num_tiles(), err[0], err[1], (err[0] < 1e-2 && err[1] < 1e-2) ? "OK" : "MISMATCH");
  BENCH_CUBLAS(cublasDestroy(h));
}

}  // namespace

int main(int argc, char** argv) {
  int hogs = argc > 1 ? std::atoi(argv[1]) : 44;
  std::string which = argc > 2 ? argv[2] : "ab";
  if (which.find('a') != std::string::npos) case_a(hogs);
  if (which.find('b') != std::string::npos) case_b();
  if (which.find('s') != std::string::npos) case_s();
  return 0;
}
