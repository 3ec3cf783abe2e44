// bench/peers: the TS GEMM beside cuBLAS and beside CUTLASS (issue 15.4), in one process
// on the same inputs per shape. CUTLASS runs every configuration of cutlass_registry.cu
// under each raster swizzle (1, 2, 4, 8; TS_PEERS_SWIZZLES="1 2" picks others); its best
// per shape is the `ref_name=cutlass` reference. Every result is checked against cuBLAS
// (and TS and cuBLAS against a sampled float64 host reference) before any timing; a
// kernel whose result does not match is left out of the timing and makes the exit code 1.
// Timing: bench::interleaved_timing (back-to-back launches are the headline, single
// launches after an idle gap beside them in the `timing` lines). First a screen of every
// kernel together (TS_PEERS_ROUNDS rounds, 10 by default), then a final run of cuBLAS,
// TS's per-shape choice (gemm::choose_shape: cooperative or ping-pong; `ts_shape=` in the
// `peer best` line) and the screen's two fastest CUTLASS kernels (twice the rounds) that the bench lines
// come from. TS_PEERS_ONLY="a b" keeps only the CUTLASS configurations whose names
// contain one of the words. TS_PEERS_GROUPS="1 2 4 16" adds TS's cooperative and ping-pong
// kernels under those raster groups (gemm::Problem::raster_group; the default kernels use
// gemm::kGroupM) to the screen, as ts_g<n> and ts_pingpong_g<n>.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cutlass_peer.hpp"
#include "gemm_common.cuh"
#include "ts_gemm.cuh"
#include "gemm/gemm_shape_choice.hpp"
#include "ts_gemm_pingpong.cuh"

namespace {

std::vector<int> int_list(char const* env) {
  std::vector<int> v;
  if (char const* e = std::getenv(env)) {
    std::istringstream in(e);
    for (int x; in >> x;) v.push_back(x);
  }
  return v;
}

std::vector<int> swizzles() {
  std::vector<int> v = int_list("TS_PEERS_SWIZZLES");
  if (v.empty()) v = {1, 2, 4, 8};
  return v;
}

bool selected(char const* config) {
  char const* e = std::getenv("TS_PEERS_ONLY");
  if (!e || !*e) return true;
  std::istringstream in(e);
  for (std::string w; in >> w;)
    if (std::string(config).find(w) != std::string::npos) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  auto shapes = bench::gemm_shapes(argc, argv);
  int rounds = std::getenv("TS_PEERS_ROUNDS") ? std::atoi(std::getenv("TS_PEERS_ROUNDS")) : 10;
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int const sms = prop.multiProcessorCount;
  std::vector<int> const sw = swizzles();
  std::printf("device %s, %d SMs; CUTLASS %s, %zu configurations x %zu swizzles\n", prop.name, sms,
              peers::cutlass_version().c_str(), peers::cutlass_configs().size(), sw.size());
  std::fflush(stdout);
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  uint64_t seed = 0x9ABC;
  bool all_ok = true;
  for (auto s : shapes) {
    if (s.n % 8 || s.k % 8) {
      std::printf("skip size=%dx%dx%d: N and K must be multiples of 8 (16-byte rows for TMA)\n", s.m, s.n, s.k);
      continue;
    }
    bench::GemmOperands ops(s, seed);
    __nv_bfloat16 *a = ops.a, *b = ops.b, *d = ops.d, *ref = ops.ref;
    size_t const nd = ops.nd;
    double const flop = 2.0 * s.m * s.n * s.k;
    char what[64];
    std::snprintf(what, sizeof what, "gemm_peer size=%dx%dx%d", s.m, s.n, s.k);

    // TS: the cooperative GEMM of bench/gemm (its `bench gemm` line) and the ping-pong one.
    CUtensorMap host_maps[6] = {bench::tensor_map_bf16(a, s.m, s.k, gemm::kTileM, gemm::kTileK, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::kTileN, gemm::kTileK, true),
                                bench::tensor_map_bf16(d, s.m, s.n, 64, 64, true),
                                bench::tensor_map_bf16(b, s.n, s.k, gemm::pingpong::kTileN, gemm::kTileK, true),
                                bench::tensor_map_bf16(a, s.m, s.k, 64, gemm::kTileK, true),
                                bench::tensor_map_bf16(b, s.n, s.k, 64, gemm::kTileK, true)};
    CUtensorMap* maps;
    BENCH_CHECK(cudaMalloc(&maps, sizeof host_maps));
    BENCH_CHECK(cudaMemcpy(maps, host_maps, sizeof host_maps, cudaMemcpyHostToDevice));
    gemm::Problem prob{s.m, s.n, s.k, maps, maps + 1, reinterpret_cast<uint16_t*>(d), maps + 2};
    auto coop = bench::prepare_ts_gemm(prob, sms, false);
    auto pp = bench::prepare_ts_gemm_pingpong(prob, maps + 3, sms, false);
    auto pp64 = bench::prepare_ts_gemm_pingpong_64x256(prob, maps + 4, sms, false);
    auto ppmc = bench::prepare_ts_gemm_pingpong_multicast<gemm::pingpong::Tile128x128>(prob, {maps, maps + 3, maps + 5},
                                                                                       false);
    auto pp64mc = bench::prepare_ts_gemm_pingpong_multicast<gemm::pingpong::Tile64x256>(
        prob, {maps + 4, maps + 1, maps + 3}, false);
    // The same two schedules under other raster groups (proved above: static checks only).
    std::vector<int> const groups = int_list("TS_PEERS_GROUPS");
    std::vector<bench::TsGemm> coop_g;
    std::vector<bench::TsGemmPingPong> pp_g;
    for (int g : groups) {
      gemm::Problem pg = prob;
      pg.raster_group = g;
      coop_g.push_back(bench::prepare_ts_gemm(pg, sms, false, false));
      pp_g.push_back(bench::prepare_ts_gemm_pingpong(pg, maps + 3, sms, false, false));
    }

    // CUTLASS: every configuration under every swizzle, parameters made once.
    peers::GemmArgs ga{s.m, s.n, s.k, a, b, d, sms};
    std::vector<std::unique_ptr<peers::Runner>> runners;
    std::vector<std::string> runner_names;
    for (auto const& c : peers::cutlass_configs())
      for (int x : sw) {
        if (!selected(c.name)) continue;
        std::string name = std::string("cutlass_") + c.name + "_sw" + std::to_string(x);
        auto r = c.make(ga, x);
        BENCH_CHECK(cudaGetLastError());
        if (!r->ok()) {
          std::printf("skip %s kernel=%s: %s\n", what, name.c_str(), r->why().c_str());
          continue;
        }
        runners.push_back(std::move(r));
        runner_names.push_back(name);
      }

    // The reference, checked itself against float64 on sampled elements.
    bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k);
    BENCH_CHECK(cudaDeviceSynchronize());
    double err_cublas_host = bench::sampled_host_error(a, b, ref, s.m, s.n, s.k);
    bool cublas_ok = err_cublas_host < 1e-2;
    std::printf("check %s kernel=cublas err_vs_host_fp64=%.2e %s\n", what, err_cublas_host,
                cublas_ok ? "OK" : "MISMATCH");
    all_ok &= cublas_ok;

    std::vector<std::string> names = {"cublas"};
    std::vector<std::function<void()>> launches = {[&] { bench::cublas_gemm(h, a, b, ref, s.m, s.n, s.k); }};
    auto check = [&](std::string const& name, std::function<void()> launch, bool host) {
      bench::poison_bf16<<<1024, 256>>>(d, nd);
      BENCH_CHECK(cudaGetLastError());
      launch();
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaDeviceSynchronize());
      double err = bench::relative_error(d, ref, nd);
      double err_host = host ? bench::sampled_host_error(a, b, d, s.m, s.n, s.k) : 0;
      bool ok = err < 1e-2 && err_host < 1e-2;
      if (host)
        std::printf("check %s kernel=%s err_vs_cublas=%.2e err_vs_host_fp64=%.2e %s\n", what, name.c_str(), err,
                    err_host, ok ? "OK" : "MISMATCH");
      else
        std::printf("check %s kernel=%s err_vs_cublas=%.2e %s\n", what, name.c_str(), err, ok ? "OK" : "MISMATCH");
      all_ok &= ok;
      if (ok) {
        names.push_back(name);
        launches.push_back(std::move(launch));
      }
      return ok;
    };
    bool ts_ok = check("ts", [&] { coop.launch(); }, true);
    bool pp_ok = check("ts_pingpong", [&] { pp.launch(); }, true);
    check("ts_pingpong_64x256", [&] { pp64.launch(); }, true);
    check("ts_pingpong_multicast", [&] { ppmc.launch(); }, true);
    check("ts_pingpong_64x256_multicast", [&] { pp64mc.launch(); }, true);
    for (size_t j = 0; j < groups.size(); ++j) {
      std::string g = std::to_string(groups[j]);
      check("ts_g" + g, [&, j] { coop_g[j].launch(); }, false);
      check("ts_pingpong_g" + g, [&, j] { pp_g[j].launch(); }, false);
    }
    for (size_t i = 0; i < runners.size(); ++i) {
      peers::Runner* r = runners[i].get();
      check(runner_names[i], [r] { r->run(0); }, false);
    }
    std::fflush(stdout);

    // Screen: every kernel that passed, interleaved (`timing gemm_peer_screen ...` lines).
    std::string screen_what = std::string("gemm_peer_screen") + (what + 9);
    auto t = bench::interleaved_timing(cudaStream_t(0), 3, rounds, launches, names, screen_what, flop);
    size_t i_ts = 0, i_pp = 0;
    std::vector<size_t> cut;  // CUTLASS kernels by screened back-to-back time, fastest first
    for (size_t k = 1; k < names.size(); ++k) {
      if (names[k] == "ts") i_ts = k;
      if (names[k] == "ts_pingpong") i_pp = k;
      if (names[k].rfind("cutlass_", 0) == 0) cut.push_back(k);
    }
    std::sort(cut.begin(), cut.end(), [&](size_t x, size_t y) { return t[x].b2b_ms < t[y].b2b_ms; });
    auto tf = [&](float ms) { return flop / ms / 1e9; };
    if (i_pp)
      std::printf("peer screen size=%dx%dx%d ts_pingpong_tflops=%.1f ts_pingpong_single_tflops=%.1f\n", s.m, s.n,
                  s.k, tf(t[i_pp].b2b_ms), tf(t[i_pp].single_ms));
    for (size_t k = 1; k < names.size(); ++k)  // the TS shapes beside the one the rule picks
      if (names[k].rfind("ts_pingpong_", 0) == 0 || names[k].rfind("ts_g", 0) == 0)
        std::printf("peer screen size=%dx%dx%d %s_tflops=%.1f %s_single_tflops=%.1f\n", s.m, s.n, s.k,
                    names[k].c_str(), tf(t[k].b2b_ms), names[k].c_str(), tf(t[k].single_ms));
    if (!cublas_ok || !ts_ok || cut.empty()) {
      std::printf("skip %s: no final run (cublas_ok=%d ts_ok=%d cutlass kernels=%zu)\n", what, cublas_ok, ts_ok,
                  cut.size());
      std::fflush(stdout);
      BENCH_CHECK(cudaFree(maps));
      continue;
    }
    // Final: cuBLAS, TS and the screen's two fastest CUTLASS kernels alone, twice the
    // rounds. Taking the best of 28 noisy screen figures would flatter CUTLASS (the
    // winner's curse), and the screen's company of 30 other kernels is not the bench's:
    // the bench lines come from this run, the best CUTLASS being the faster of the two here.
    // TS is its per-shape choice (gemm::choose_shape): the ping-pong kernel where the rule
    // picks it and its result matched, the cooperative one otherwise.
    bool const pick_pp = pp_ok && i_pp && gemm::choose_shape(prob, sms) == gemm::GemmShape::PingPong;
    char const* ts_shape = pick_pp ? "pingpong" : "cooperative";
    size_t const n_final = std::min<size_t>(2, cut.size());
    std::vector<std::string> fn = {"cublas", pick_pp ? "ts_pingpong" : "ts"};
    std::vector<std::function<void()>> fl = {launches[0], launches[pick_pp ? i_pp : i_ts]};
    for (size_t j = 0; j < n_final; ++j) {
      fn.push_back(names[cut[j]]);
      fl.push_back(launches[cut[j]]);
    }
    auto f = bench::interleaved_timing(cudaStream_t(0), 3, 2 * rounds, fl, fn, what, flop);
    size_t best = 2;
    for (size_t k = 3; k < fn.size(); ++k)
      if (f[k].b2b_ms < f[best].b2b_ms) best = k;
    double ts_tf = tf(f[1].b2b_ms), cublas_tf = tf(f[0].b2b_ms), cutlass_tf = tf(f[best].b2b_ms);
    std::printf("bench gemm_peer size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cublas unit=TFLOP/s ratio=%.3f\n", s.m, s.n,
                s.k, ts_tf, cublas_tf, ts_tf / cublas_tf);
    std::printf("bench gemm_peer size=%dx%dx%d ts=%.1f ref=%.1f ref_name=cutlass unit=TFLOP/s ratio=%.3f\n", s.m, s.n,
                s.k, ts_tf, cutlass_tf, ts_tf / cutlass_tf);
    std::printf("peer best size=%dx%dx%d cutlass=%s cutlass_tflops=%.1f cutlass_single_tflops=%.1f "
                "cutlass_screen_tflops=%.1f ts_shape=%s ts_tflops=%.1f ts_single_tflops=%.1f cublas_tflops=%.1f "
                "cublas_single_tflops=%.1f single_ratio_ts_over_cutlass=%.3f single_ratio_ts_over_cublas=%.3f\n",
                s.m, s.n, s.k, fn[best].c_str(), cutlass_tf, tf(f[best].single_ms), tf(t[cut[best - 2]].b2b_ms),
                ts_shape, ts_tf, tf(f[1].single_ms), cublas_tf, tf(f[0].single_ms), f[best].single_ms / f[1].single_ms,
                f[0].single_ms / f[1].single_ms);
    std::fflush(stdout);
    BENCH_CHECK(cudaFree(maps));
  }
  BENCH_CUBLAS(cublasDestroy(h));
  return all_ok ? 0 : 1;
}
