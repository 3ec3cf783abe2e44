// The ping-pong TS GEMM (examples/gemm/gemm_pingpong.hpp) through the library launcher.
#pragma once
#include <memory>
#include <utility>

#include "dynamic_run.cuh"
#include "gemm/gemm_pingpong_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

using PingPongManager =
    decltype(gemm::pingpong::make_gemm_pingpong(std::declval<gemm::Problem const&>(), nullptr));

struct TsGemmPingPong {
  std::unique_ptr<PingPongManager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};

// p.map_a: A in 128 x 64 boxes (the cooperative shape's map); map_b_128: B in 128 x 64
// boxes (device memory). One CTA per SM, at most one per pair of tiles.
inline TsGemmPingPong prepare_ts_gemm_pingpong(gemm::Problem const& p, void const* map_b_128, int sms, bool verbose) {
  TsGemmPingPong g;
  g.tm = std::make_unique<PingPongManager>(
      gemm::pingpong::make_gemm_pingpong(p, map_b_128, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int pairs = gemm::pingpong::pairs(p);
  g.grid = pairs < sms ? pairs : sms;
  return g;
}

// The same schedules under the dynamic (global-counter) scheduler: a scheduler warp hands
// the pairs out; the counter is zeroed before each launch.
using PingPongDynamicManager = decltype(gemm::pingpong::make_gemm_pingpong(
    std::declval<gemm::Problem const&>(), nullptr, std::declval<ts::GlobalCounterScheduler const&>()));

using TsGemmPingPongDynamic = DynamicRun<PingPongDynamicManager>;

// `exhaustive`: run the model checker too (about 20 s for these schedules with the scheduler
// warp). Its proof covers every K length and tile count, so it does not depend on the
// problem: a bench over many problems proves the first and runs the static checks on the rest.
inline std::unique_ptr<TsGemmPingPongDynamic> prepare_ts_gemm_pingpong_dynamic(gemm::Problem const& p,
                                                                               void const* map_b_128, int sms,
                                                                               bool exhaustive) {
  auto g = std::make_unique<TsGemmPingPongDynamic>();
  auto sched = g->allocate(gemm::pingpong::pairs(p), sms);
  g->tm = std::make_unique<PingPongDynamicManager>(gemm::pingpong::make_gemm_pingpong(
      p, map_b_128, sched, ts::Options{.verbose = false, .exhaustive_check = exhaustive}));
  g->tm->print_and_verify();
  return g;
}

}  // namespace bench
