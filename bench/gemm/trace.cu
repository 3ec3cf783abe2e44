// bench/gemm trace: the cost of in-kernel step tracing on the TS GEMM (8192^3, traced vs
// untraced, side by side in one process, medians of 20), and a trace of a smaller GEMM
// written as Chrome trace-event JSON and as an HTML timeline into the directory argv[1].
#include <cstdio>
#include <fstream>
#include <string>

#include "gemm_common.cuh"
#include "ts/print/pictures.hpp"
#include "ts_gemm.cuh"

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

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  {
    Inputs in(8192, 8192, 8192, 21);
    auto g = bench::prepare_ts_gemm(in.p, sms, false);
    int per_task = 16384;  // > 16 tiles x (128 k-iterations x 5 steps + 8) per leader
    ts::cuda::TraceBuffer buf(g.grid, 2, per_task);
    auto traced = [&] { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*g.tm, g.grid, 0, {.trace = &buf}); };
    double flop = 2.0 * 8192.0 * 8192.0 * 8192.0;
    float plain_ms = bench::median_ms([&] { g.launch(); });
    float traced_ms = bench::median_ms(traced);
    float plain_ms2 = bench::median_ms([&] { g.launch(); });
    BENCH_CHECK(cudaDeviceSynchronize());
    ts::Trace t;
    int full = ts::cuda::decode_trace(g.tm->model(), buf, t);
    float plain = std::min(plain_ms, plain_ms2);
    std::printf("trace gemm size=8192x8192x8192 untraced_ms=%.3f traced_ms=%.3f overhead_pct=%.2f untraced_tflops=%.1f "
                "traced_tflops=%.1f steps=%zu full_regions=%d\n",
                plain, traced_ms, 100.0 * (traced_ms - plain) / plain, flop / plain / 1e9, flop / traced_ms / 1e9,
                t.events.size(), full);
  }
  {
    Inputs in(2048, 2048, 1024, 31);
    auto g = bench::prepare_ts_gemm(in.p, sms, false);
    ts::cuda::TraceBuffer buf(g.grid, 2, 4096);
    ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*g.tm, g.grid, 0, {.synchronize = true, .trace = &buf});
    ts::Trace t;
    ts::cuda::decode_trace(g.tm->model(), buf, t);
    std::ofstream(dir + "/gemm_trace.json") << ts::print::trace_chrome_json(g.tm->model(), t);
    std::ofstream(dir + "/gemm_trace.html")
        << ts::print::trace_html(g.tm->model(), t, "H200 trace: TS GEMM 2048x2048x1024, " + std::to_string(g.grid) +
                                                       " CTAs");
    std::printf("trace gemm size=2048x2048x1024 steps=%zu written=%s/gemm_trace.{json,html}\n", t.events.size(),
                dir.c_str());
  }
  return 0;
}
