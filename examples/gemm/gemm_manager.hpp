// Host-side declaration of the Hopper GEMM (cooperative shape): resources, tasks, graph,
// manager, for every operand layout and tile scheduler (both type parameters).
#pragma once
#include <string>
#include <tuple>

#include "gemm_colmajor_a.hpp"
#include "gemm_layouts.hpp"
#include "gemm_resources.hpp"

#include "ts/ts.hpp"

namespace gemm {

struct Problem {
  int M = 0, N = 0, K = 0;
  void const* map_a = nullptr;  // device CUtensorMap of A (M x K, 128x64 boxes, 128B swizzle)
  void const* map_b = nullptr;  // device CUtensorMap of B (N x K, 256x64 boxes, 128B swizzle)
  uint16_t* d = nullptr;        // device D (M x N bf16)
  void const* map_d = nullptr;  // device CUtensorMap of D (64x64 boxes, 128B swizzle); null: direct stores
  // Tile rows (ping-pong: blocks of two tile rows) per raster group of the tile order
  // (grouped_tile); 0: the default, kGroupM.
  int raster_group = 0;
  int group_m() const {
    if (raster_group < 0)
      throw ts::ModelError(ts::value_diagnostic("gemm.raster-group", "tiles",
                                                "Problem::raster_group is the number of tile rows per raster group",
                                                "0 (the default, " + std::to_string(kGroupM) + ") or more",
                                                std::to_string(raster_group)));
    return raster_group > 0 ? raster_group : kGroupM;
  }
  int tiles_m() const { return (M + kTileM - 1) / kTileM; }
  int tiles_n() const { return (N + kTileN - 1) / kTileN; }
  int k_iters() const { return (K + kTileK - 1) / kTileK; }
};

namespace detail {

// The cooperative shape's tasks and graph over any variant's resources (every variant but
// ping-pong): a TMA warp at 40 registers and two math warp groups at 232, plus the tasks
// the queue's scheduler brings (a dynamic one: its scheduler warp, warp 1).
template <class LoadSched, class MathSched, class G, class R, class A, class D, class Q>
auto cooperative_manager(G const& gmem, R const& smem, A const& acc, D const& out, Q const& tiles, ts::Options o) {
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(
      ts::with_registers<40>(LoadSched{}), gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(MathSched{}), smem, acc, out, tiles);
  return std::apply(
      [&](auto const&... scheduler) {
        return ts::TaskManager(ts::tasks(load, scheduler..., math),
                               ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
      },
      ts::scheduler_tasks<40>(tiles, 1));
}

// The data resources of problem p in an operand layout.
template <class Layout = KMajorAB>
auto gemm_resources(Problem const& p) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  typename Layout::Ring ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  auto smem = ts::resource("smem_ab", ring);  // Ring::pipeline
  auto acc = ts::resource("acc", typename Layout::Acc{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  return std::make_tuple(gmem, smem, acc, out);
}

// The queue of problem p under scheduler `sched` (its state: none, or a global counter's
// counter and scratch).
template <class S>
Tiles<S> tile_queue(Problem const& p, S const& sched) {
  Tiles<S> q;
  static_cast<S&>(q) = sched;
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  q.group_m = p.group_m();
  return q;
}

}  // namespace detail

// The cooperative GEMM. Layout: the operand layout (KMajorAB, RowMajorB, ColMajorA,
// ColMajorARowMajorB); S: the tile scheduler, by value with its state:
//   make_gemm(p)                                          static persistent
//   make_gemm(p, ts::GlobalCounterScheduler{counter, scratch})  dynamic on sm_90a: `counter`
//       zeroed before each launch (ts::cuda::reset_queue), `scratch` grid x
//       ts::kQueueMaxStages responses, both in device memory (host memory on the emulator)
//   make_gemm(p, ts::ClcScheduler{})                      dynamic by Cluster Launch Control
//       (the emulator; sm_100a)
template <class Layout = KMajorAB, class S>
  requires requires { S::is_dynamic; }
auto make_gemm(Problem const& p, S const& sched, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::gemm_resources<Layout>(p);
  auto tiles = ts::resource("tiles", detail::tile_queue(p, sched));  // S::pipeline when dynamic
  return detail::cooperative_manager<typename Layout::Load, typename Layout::Math>(gmem, smem, acc, out, tiles, o);
}
template <class Layout = KMajorAB>
auto make_gemm(Problem const& p, ts::Options o = {}) {
  return gemm::make_gemm<Layout>(p, ts::StaticScheduler{}, o);
}

}  // namespace gemm
