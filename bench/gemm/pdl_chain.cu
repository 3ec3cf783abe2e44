// bench/gemm pdl_chain: Programmatic Dependent Launch between a TS GEMM and a TS kernel
// that reads its output (SPEC S12), on the H200. The GEMM is the cooperative kernel of
// examples/gemm with one more resource: its Load task commits a PdlLaunch before its
// first tile (the GEMM is the first kernel of the chain, so nothing is waited for:
// assume_pdl_wait_completed). The reader is example 06's secondary: it waits on the
// GEMM grid (PdlWait) and copies D, as ints, to out. Per shape: pairs (GEMM, reader)
// launched back to back, the reader with and without PDL, 20 pairs per event pair,
// interleaved rounds, medians; before timing, D is checked against a sampled host
// reference and out against D, element for element, in both forms.
//   ts_bench_pdl_gemm [M N K]
// Lines: `bench pdl_gemm_chain size=MxNxK ts=<pairs/ms> ref=<pairs/ms> ref_name=no_pdl
// unit=pairs/ms ratio=<no_pdl_us/pdl_us> pdl_us=.. no_pdl_us=.. gemm_us=..`.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../event_timing.cuh"
#include "copy/copy_pdl.hpp"
#include "gemm_common.cuh"
#include "gemm/gemm_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace {

constexpr int kPairsPerEvent = 20;
constexpr int kRounds = 15;

// The cooperative GEMM's load schedule, first letting the dependent grid launch.
struct PdlLoadSchedule {
  template <class S, class L, class G, class Smem, class Q>
  TS_HD void operator()(S& s, L& launch, G& gmem, Smem& smem, Q& wq) const {
    launch.acquire();
    launch.commit();  // griddepcontrol.launch_dependents: the reader's CTAs may be scheduled
    gemm::LoadSchedule{}(s, gmem, smem, wq);
  }
};

// The tasks of gemm::make_gemm (cooperative, K-major, static scheduler) with the launch
// resource on the Load task.
auto make_pdl_gemm(gemm::Problem const& p) {
  auto [gmem, smem, acc, out] = gemm::detail::gemm_resources<gemm::KMajorAB>(p);
  auto tiles = ts::resource("tiles", gemm::detail::tile_queue(p, ts::StaticScheduler{}));
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem, launch).schedule(
      ts::with_registers<40>(PdlLoadSchedule{}), launch, gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(gemm::MathSchedule{}), smem, acc, out, tiles);
  ts::Options o{.verbose = false, .exhaustive_check = true};
  o.assume_pdl_wait_completed = true;  // the first kernel of the chain
  return ts::TaskManager(ts::tasks(load, math), ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

__global__ void count_diff(int const* a, int const* b, long long n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(bad, local);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  int sms = ts::cuda::persistent_grid();
  std::vector<bench::Shape> shapes = argc == 4 ? bench::gemm_shapes(argc, argv)
                                               : std::vector<bench::Shape>{{1024, 1024, 1024},
                                                                           {2048, 2048, 1024},
                                                                           {2048, 2048, 2048},
                                                                           {4096, 4096, 1024},
                                                                           {4096, 4096, 4096}};
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned long long* bad = nullptr;
  BENCH_CHECK(cudaMalloc(&bad, sizeof(*bad)));
  uint64_t seed = 77;
  bool ok = true;
  for (auto sh : shapes) {
    bench::GemmOperands ops(sh, seed);
    CUtensorMap h[3] = {bench::tensor_map_bf16(ops.a, sh.m, sh.k, gemm::kTileM, gemm::kTileK, true),
                        bench::tensor_map_bf16(ops.b, sh.n, sh.k, gemm::kTileN, gemm::kTileK, true),
                        bench::tensor_map_bf16(ops.d, sh.m, sh.n, 64, 64, true)};
    CUtensorMap* maps = nullptr;
    BENCH_CHECK(cudaMalloc(&maps, sizeof h));
    BENCH_CHECK(cudaMemcpy(maps, h, sizeof h, cudaMemcpyHostToDevice));
    gemm::Problem p{sh.m, sh.n, sh.k, maps, maps + 1, reinterpret_cast<uint16_t*>(ops.d), maps + 2};
    auto g = make_pdl_gemm(p);
    g.print_and_verify();
    int tiles = p.tiles_m() * p.tiles_n();
    int grid = tiles < sms ? tiles : sms;
    long long n = (long long)sh.m * sh.n / 2;  // D as ints
    int* out = nullptr;
    BENCH_CHECK(cudaMalloc(&out, size_t(n) * 4));
    ts::Options ro;
    ro.verbose = false;
    auto reader = examples::make_pdl_secondary(reinterpret_cast<int*>(ops.d), out, n, ro, 8);
    reader.print_and_verify();
    int rgrid = int(std::min<long long>((n + 255) / 256, sms * 8));
    auto gemm_launch = [&] { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(g, grid, s); };
    auto pair = [&](bool pdl) {
      gemm_launch();
      ts::cuda::launch(reader, rgrid, s, {.pdl = pdl});
    };
    for (int pdl = 0; pdl < 2; ++pdl) {
      BENCH_CHECK(cudaMemsetAsync(ops.d, 0xff, size_t(sh.m) * sh.n * 2, s));
      BENCH_CHECK(cudaMemsetAsync(out, 0x7f, size_t(n) * 4, s));
      BENCH_CHECK(cudaMemsetAsync(bad, 0, sizeof(*bad), s));
      pair(pdl);
      count_diff<<<sms * 8, 256, 0, s>>>(reinterpret_cast<int const*>(ops.d), out, n, bad);
      unsigned long long hb = 0;
      BENCH_CHECK(cudaMemcpyAsync(&hb, bad, sizeof hb, cudaMemcpyDeviceToHost, s));
      BENCH_CHECK(cudaStreamSynchronize(s));
      double err = bench::sampled_host_error(ops.a, ops.b, ops.d, sh.m, sh.n, sh.k);
      bool pass = hb == 0 && err < 2e-2;
      ok &= pass;
      std::printf("check pdl_gemm_chain size=%dx%dx%d pdl=%d gemm_sampled_rel_err=%.2e out_wrong=%llu %s\n", sh.m, sh.n,
                  sh.k, pdl, err, hb, pass ? "PASS" : "FAIL");
    }
    for (int w = 0; w < 6; ++w) pair(w & 1);
    // No PDL, PDL, the GEMM alone.
    auto med = bench::interleaved_event_medians_us(s, kRounds, kPairsPerEvent, 11,
                                                   {[&] { pair(false); }, [&] { pair(true); }, [&] { gemm_launch(); }});
    float no_pdl = med[0], pdl = med[1], alone = med[2];
    std::printf("bench pdl_gemm_chain size=%dx%dx%d ts=%.2f ref=%.2f ref_name=no_pdl unit=pairs/ms ratio=%.3f "
                "pdl_us=%.2f no_pdl_us=%.2f saved_us=%.2f gemm_alone_us=%.2f reader_grid=%d pairs_per_event=%d "
                "rounds=%d\n",
                sh.m, sh.n, sh.k, 1000.0 / pdl, 1000.0 / no_pdl, no_pdl / pdl, pdl, no_pdl, no_pdl - pdl, alone, rgrid,
                kPairsPerEvent, kRounds);
    cudaFree(out);
    cudaFree(maps);
  }
  cudaFree(bad);
  std::printf("pdl_gemm_chain %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
