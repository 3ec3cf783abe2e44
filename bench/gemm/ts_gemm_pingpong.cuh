// The ping-pong TS GEMM (examples/gemm/gemm_pingpong.hpp) through the library launcher.
#pragma once
#include <memory>
#include <utility>

#include "dynamic_run.cuh"
#include "gemm/gemm_pingpong_manager.hpp"
#include "ts/runtime/cuda/launch.cuh"

namespace bench {

// The statically scheduled ping-pong kernel of tile shape Shape: its manager and grid.
template <class Shape>
using PingPongManagerOf = decltype(gemm::pingpong::make_gemm_pingpong_of<Shape>(
    std::declval<gemm::Problem const&>(), gemm::pingpong::OperandMaps{}));
using PingPongManager = PingPongManagerOf<gemm::pingpong::Tile128x128>;

template <class Manager>
struct TsGemmPingPongOf {
  std::unique_ptr<Manager> tm;
  int grid = 0;
  void launch(cudaStream_t st = 0) const { ts::cuda::launch<ts::cuda::TaskRegisterBudgets<384>>(*tm, grid, st); }
};
using TsGemmPingPong = TsGemmPingPongOf<PingPongManager>;

// maps: A in TileM x 64 boxes, B in TileN x 64 boxes (device memory). One CTA per SM, at
// most one per pair of tiles.
template <class Shape>
inline TsGemmPingPongOf<PingPongManagerOf<Shape>> prepare_ts_gemm_pingpong_of(gemm::Problem const& p,
                                                                             gemm::pingpong::OperandMaps maps,
                                                                             int sms, bool verbose,
                                                                             bool exhaustive = true) {
  TsGemmPingPongOf<PingPongManagerOf<Shape>> g;
  g.tm = std::make_unique<PingPongManagerOf<Shape>>(gemm::pingpong::make_gemm_pingpong_of<Shape>(
      p, maps, ts::Options{.verbose = verbose, .exhaustive_check = exhaustive}));
  g.tm->print_and_verify();
  int const pairs = gemm::pingpong::pairs<Shape>(p);
  g.grid = pairs < sms ? pairs : sms;
  return g;
}
// 128 x 128 tiles. p.map_a: A in 128 x 64 boxes (the cooperative shape's map); map_b_128: B
// in 128 x 64 boxes.
inline TsGemmPingPong prepare_ts_gemm_pingpong(gemm::Problem const& p, void const* map_b_128, int sms, bool verbose,
                                               bool exhaustive = true) {
  return prepare_ts_gemm_pingpong_of<gemm::pingpong::Tile128x128>(p, {p.map_a, map_b_128}, sms, verbose, exhaustive);
}
// 64 x 256 tiles. map_a_64: A in 64 x 64 boxes; p.map_b: B in 256 x 64 boxes (the
// cooperative shape's map).
inline auto prepare_ts_gemm_pingpong_64x256(gemm::Problem const& p, void const* map_a_64, int sms, bool verbose) {
  return prepare_ts_gemm_pingpong_of<gemm::pingpong::Tile64x256>(p, {map_a_64, p.map_b}, sms, verbose);
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
