// bench/gemm trace: the cost of in-kernel step tracing on the TS GEMM at 8192^3, at each
// trace level against the untraced kernel, side by side in one process (interleaved
// rounds, back-to-back launches per event pair, medians; every kernel's result checked),
// and a trace of a smaller GEMM written as Chrome trace-event JSON and as an HTML
// timeline into the directory argv[1], with its stall table.
// `ts_bench_trace pingpong M N K dir` traces the ping-pong GEMM once at MxNxK (result
// checked), writes its timeline and prints its stall table: where its gap to the
// cooperative shape goes.
// `ts_bench_trace san M N K` instead runs each traced level once at MxNxK with its result
// checked, for compute-sanitizer at >= 512 tiles (the trace ring's bulk copies wrap).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gemm_common.cuh"
#include "ts/print/pictures.hpp"
#include "ts/print/stall_report.hpp"
#include "ts_gemm.cuh"
#include "ts_gemm_pingpong.cuh"

namespace {

struct Inputs {
  __nv_bfloat16 *a = nullptr, *b = nullptr, *d = nullptr;
  CUtensorMap* maps = nullptr;
  gemm::Problem p;
  Inputs(int M, int N, int K, uint64_t seed) {
    BENCH_CHECK(cudaMalloc(&a, size_t(M) * K * 2));
    BENCH_CHECK(cudaMalloc(&b, size_t(N) * K * 2));
    BENCH_CHECK(cudaMalloc(&d, size_t(M) * N * 2));
    bench::fill_random_bf16<<<1024, 256>>>(a, size_t(M) * K, seed);
    bench::fill_random_bf16<<<1024, 256>>>(b, size_t(N) * K, seed + 1);
    CUtensorMap h[3] = {bench::tensor_map_bf16(a, M, K, gemm::kTileM, gemm::kTileK, true),
                        bench::tensor_map_bf16(b, N, K, gemm::kTileN, gemm::kTileK, true),
                        bench::tensor_map_bf16(d, M, N, 64, 64, true)};
    BENCH_CHECK(cudaMalloc(&maps, sizeof h));
    BENCH_CHECK(cudaMemcpy(maps, h, sizeof h, cudaMemcpyHostToDevice));
    p = gemm::Problem{M, N, K, maps, maps + 1, reinterpret_cast<uint16_t*>(d), maps + 2};
  }
};

// The traced kernel of one level, as a launch callable.
template <ts::cuda::TraceLevel L>
auto traced_launch(bench::TsGemm const& g, ts::cuda::TraceBuffer const& buf) {
  return [&g, &buf] { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>, L>(*g.tm, g.grid, 0, {.trace = &buf}); };
}

// A decoded trace is sane: every lane's steps in time order, the span close to one run.
void print_decoded(char const* level, ts::Model const& m, ts::cuda::TraceBuffer const& buf, float run_ms) {
  BENCH_CHECK(cudaDeviceSynchronize());
  ts::Trace t;
  int full = ts::cuda::decode_trace(m, buf, t);
  long long lo = 0, hi = 0;
  int disorder = 0;
  for (size_t i = 0; i < t.events.size(); ++i) {
    auto const& e = t.events[i];
    if (i == 0 || e.begin < lo) lo = e.begin;
    if (e.end > hi) hi = e.end;
    if (e.end < e.begin) ++disorder;
  }
  std::printf("trace decoded level=%s steps=%zu full_regions=%d span_ms=%.3f run_ms=%.3f negative_intervals=%d\n", level,
              t.events.size(), full, double(hi - lo) * 1e-6, run_ms, disorder);
}

}  // namespace

// Every traced level once at MxNxK, each result checked and its trace decoded.
int sanitize_run(int M, int N, int K, int sms) {
  Inputs in(M, N, K, 41);
  auto g = bench::prepare_ts_gemm(in.p, sms, false);
  int tasks = int(g.tm->model().tasks.size());
  // Step level: per tile K/64 iterations x 3 steps + anchors, tiles/grid tiles per CTA.
  long tiles = long((M + gemm::kTileM - 1) / gemm::kTileM) * ((N + gemm::kTileN - 1) / gemm::kTileN);
  int per_task = int((tiles / g.grid + 2) * (K / gemm::kTileK * 3 + 8) + 64);
  ts::cuda::TraceBuffer step_buf(g.grid, tasks, per_task), stage_buf(g.grid, tasks, per_task),
      tile_buf(g.grid, tasks, per_task);
  auto one = [&](char const* what, auto&& launch, ts::cuda::TraceBuffer const& buf) {
    BENCH_CHECK(cudaMemset(in.d, 0, size_t(M) * N * 2));
    launch();
    BENCH_CHECK(cudaDeviceSynchronize());
    double err = bench::sampled_host_error(in.a, in.b, in.d, M, N, K);
    ts::Trace t;
    int full = ts::cuda::decode_trace(g.tm->model(), buf, t);
    bool ok = err < 2e-2 && !t.events.empty() && full == 0;
    std::printf("check trace_gemm_san kernel=%s size=%dx%dx%d tiles=%ld grid=%d sampled_rel_err=%.2e events=%zu "
                "full_regions=%d %s\n",
                what, M, N, K, tiles, g.grid, err, t.events.size(), full, ok ? "PASS" : "FAIL");
    return ok;
  };
  bool ok = one("step", traced_launch<ts::cuda::TraceLevel::Step>(g, step_buf), step_buf);
  ok = one("stage", traced_launch<ts::cuda::TraceLevel::Stage>(g, stage_buf), stage_buf) && ok;
  ok = one("tile", traced_launch<ts::cuda::TraceLevel::Tile>(g, tile_buf), tile_buf) && ok;
  return ok ? 0 : 1;
}

// The ping-pong GEMM traced at the step level: one untraced and one traced run, both
// checked; the traced timeline written to dir, its stall table printed.
int pingpong_trace(int M, int N, int K, int sms, std::string const& dir) {
  Inputs in(M, N, K, 51);
  CUtensorMap map_b_128 = bench::tensor_map_bf16(in.b, N, K, gemm::pingpong::kTileN, gemm::kTileK, true);
  CUtensorMap* dmap = nullptr;
  BENCH_CHECK(cudaMalloc(&dmap, sizeof map_b_128));
  BENCH_CHECK(cudaMemcpy(dmap, &map_b_128, sizeof map_b_128, cudaMemcpyHostToDevice));
  auto g = bench::prepare_ts_gemm_pingpong(in.p, dmap, sms, false);
  long pairs = gemm::pingpong::pairs(in.p);
  int per_task = int((pairs / g.grid + 2) * (2 * (K / gemm::kTileK) * 6 + 16) + 64);
  ts::cuda::TraceBuffer buf(g.grid, int(g.tm->model().tasks.size()), per_task);
  bool ok = true;
  auto check = [&](char const* what) {
    BENCH_CHECK(cudaDeviceSynchronize());
    double err = bench::sampled_host_error(in.a, in.b, in.d, M, N, K);
    std::printf("check trace_pingpong kernel=%s size=%dx%dx%d sampled_rel_err=%.2e %s\n", what, M, N, K, err,
                err < 2e-2 ? "PASS" : "FAIL");
    ok = ok && err < 2e-2;
  };
  BENCH_CHECK(cudaMemset(in.d, 0, size_t(M) * N * 2));
  g.launch();
  check("untraced");
  BENCH_CHECK(cudaMemset(in.d, 0, size_t(M) * N * 2));
  ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>, ts::cuda::TraceLevel::Step>(*g.tm, g.grid, 0,
                                                                                   {.trace = &buf});
  check("step");
  ts::Trace t;
  int full = ts::cuda::decode_trace(g.tm->model(), buf, t);
  std::string name = dir + "/pingpong_trace_" + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  std::ofstream(name + ".json") << ts::print::trace_chrome_json(g.tm->model(), t);
  std::ofstream(name + ".html") << ts::print::trace_html(
      g.tm->model(), t, "H200 trace: TS ping-pong GEMM " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                            std::to_string(K) + ", " + std::to_string(g.grid) + " CTAs");
  std::printf("trace pingpong size=%dx%dx%d steps=%zu full_regions=%d written=%s.{json,html}\n", M, N, K,
              t.events.size(), full, name.c_str());
  std::printf("%s", ts::print::stall_table(ts::print::stall_report(g.tm->model(), t)).c_str());
  BENCH_CHECK(cudaFree(dmap));
  return ok && full == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive an exception's abort
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  if (argc == 5 && std::string(argv[1]) == "san")
    return sanitize_run(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), sms);
  if (argc >= 5 && std::string(argv[1]) == "pingpong")
    return pingpong_trace(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), sms, argc > 5 ? argv[5] : ".");
  std::string dir = argc > 1 ? argv[1] : ".";
  {
    int const n = 8192;
    Inputs in(n, n, n, 21);
    auto g = bench::prepare_ts_gemm(in.p, sms, false);
    int tasks = int(g.tm->model().tasks.size());
    // > 16 tiles x (128 k-iterations x 3 steps + anchors) per leader at the step level.
    int per_task = 16384;
    ts::cuda::TraceBuffer step_buf(g.grid, tasks, per_task), stage_buf(g.grid, tasks, per_task),
        tile_buf(g.grid, tasks, per_task);
    double flop = 2.0 * n * n * n;
    auto plain = [&] { g.launch(); };
    auto step = traced_launch<ts::cuda::TraceLevel::Step>(g, step_buf);
    auto stage = traced_launch<ts::cuda::TraceLevel::Stage>(g, stage_buf);
    auto tile = traced_launch<ts::cuda::TraceLevel::Tile>(g, tile_buf);
    // Every kernel's result is checked against a sampled host reference.
    auto check = [&](char const* what, auto&& launch) {
      BENCH_CHECK(cudaMemset(in.d, 0, size_t(n) * n * 2));
      launch();
      BENCH_CHECK(cudaDeviceSynchronize());
      double err = bench::sampled_host_error(in.a, in.b, in.d, n, n, n);
      std::printf("check trace_gemm kernel=%s sampled_rel_err=%.2e %s\n", what, err, err < 2e-2 ? "PASS" : "FAIL");
      if (!(err < 2e-2)) std::exit(1);
    };
    check("untraced", plain);
    check("step", step);
    check("stage", stage);
    check("tile", tile);
    auto med = bench::interleaved_median_ms_named("trace_gemm", flop, {"untraced", "step", "stage", "tile"}, 3, 25,
                                                  plain, step, stage, tile);
    char const* names[3] = {"step", "stage", "tile"};
    for (int l = 0; l < 3; ++l)
      std::printf("bench trace_gemm_%s size=%dx%dx%d ts=%.1f ref=%.1f ref_name=untraced unit=TFLOP/s ratio=%.3f "
                  "overhead_pct=%.2f\n",
                  names[l], n, n, n, flop / med[l + 1] / 1e9, flop / med[0] / 1e9, med[0] / med[l + 1],
                  100.0 * (med[l + 1] - med[0]) / med[0]);
    print_decoded("step", g.tm->model(), step_buf, med[1]);
    print_decoded("stage", g.tm->model(), stage_buf, med[2]);
    print_decoded("tile", g.tm->model(), tile_buf, med[3]);
  }
  {
    Inputs in(2048, 2048, 1024, 31);
    auto g = bench::prepare_ts_gemm(in.p, sms, false);
    ts::cuda::TraceBuffer buf(g.grid, int(g.tm->model().tasks.size()), 4096);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*g.tm, g.grid, 0, {.synchronize = true, .trace = &buf});
    ts::Trace t;
    ts::cuda::decode_trace(g.tm->model(), buf, t);
    std::ofstream(dir + "/gemm_trace.json") << ts::print::trace_chrome_json(g.tm->model(), t);
    std::ofstream(dir + "/gemm_trace.html")
        << ts::print::trace_html(g.tm->model(), t, "H200 trace: TS GEMM 2048x2048x1024, " + std::to_string(g.grid) +
                                                       " CTAs");
    std::printf("trace gemm size=2048x2048x1024 steps=%zu written=%s/gemm_trace.{json,html}\n", t.events.size(),
                dir.c_str());
    std::printf("%s", ts::print::stall_table(ts::print::stall_report(g.tm->model(), t)).c_str());
  }
  return 0;
}
