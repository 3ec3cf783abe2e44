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
using PingPong64x256Manager = decltype(gemm::pingpong::make_gemm_pingpong_64x256(
    std::declval<gemm::Problem const&>(), nullptr, ts::StaticScheduler{}));

// A statically scheduled ping-pong kernel: its manager and grid.
template <class Manager>
struct TsGemmPingPongOf {
  std::unique_ptr<Manager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};
using TsGemmPingPong = TsGemmPingPongOf<PingPongManager>;
using TsGemmPingPong64x256 = TsGemmPingPongOf<PingPong64x256Manager>;

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

// The 64 x 256 tile. map_a_64: A in 64 x 64 boxes (device memory); p.map_b: B in 256 x 64
// boxes (the cooperative shape's map).
inline TsGemmPingPong64x256 prepare_ts_gemm_pingpong_64x256(gemm::Problem const& p, void const* map_a_64, int sms,
                                                            bool verbose) {
  TsGemmPingPong64x256 g;
  g.tm = std::make_unique<PingPong64x256Manager>(gemm::pingpong::make_gemm_pingpong_64x256(
      p, map_a_64, ts::StaticScheduler{}, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int pairs = gemm::pingpong::pairs<gemm::pingpong::Tile64x256>(p);
  g.grid = pairs < sms ? pairs : sms;
  return g;
}

// Clusters of two CTAs along M sharing B by multicast, tile shape Shape. maps: A in TileM
// x 64 boxes, B in TileN x 64 boxes and in TileN / 2 x 64 boxes (device memory). As many
// clusters as are resident at once (fewer than SMs / 2 where a GPC's SMs do not split into
// whole clusters), at most one per block of the cluster queue.
template <class Shape>
using PingPongMulticastManager = decltype(gemm::pingpong::make_gemm_pingpong_multicast<Shape>(
    std::declval<gemm::Problem const&>(), gemm::pingpong::OperandMaps{}));
template <class Shape>
inline TsGemmPingPongOf<PingPongMulticastManager<Shape>> prepare_ts_gemm_pingpong_multicast(
    gemm::Problem const& p, gemm::pingpong::OperandMaps maps, bool verbose) {
  TsGemmPingPongOf<PingPongMulticastManager<Shape>> g;
  g.tm = std::make_unique<PingPongMulticastManager<Shape>>(gemm::pingpong::make_gemm_pingpong_multicast<Shape>(
      p, maps, ts::Options{.verbose = verbose, .exhaustive_check = true}));
  g.tm->print_and_verify();
  int const resident = ts::cuda::resident_grid<ts::cuda::TaskRegisterBudgets<384>>(*g.tm) / 2;
  int const blocks = gemm::pingpong::cluster_items<Shape, 2>(p) / 2;
  g.grid = 2 * (blocks < resident ? blocks : resident);
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
