// Host-side declaration of the grouped (per-group K) GEMM: resources, tasks, graph,
// manager, under any tile scheduler. The cooperative shape's tasks, warps and register
// budgets (gemm_manager.hpp); only the bound of the K loop and the A/B source differ.
#pragma once
#include <tuple>

// gemm_manager.hpp (and with it the recorder's ts::at_least(m, ir::Bound)) before the
// schedules of gemm_grouped.hpp, whose qualified ts::at_least calls bind where written.
#include "gemm_manager.hpp"
#include "gemm_grouped.hpp"
#include "ts/ts.hpp"

namespace gemm {

struct GroupedProblem {
  int groups = 0;
  int M = 0, N = 0;               // every group's D is M x N (M a multiple of kTileM: D is stacked)
  int const* k_iters = nullptr;   // device: K_g / kTileK per group (K_g a multiple of kTileK, >= kTileK)
  void const* maps_a = nullptr;   // device: G CUtensorMaps of A_g (M x K_g, 128x64 boxes, 128B swizzle)
  void const* maps_b = nullptr;   // device: G CUtensorMaps of B_g (N x K_g, 256x64 boxes, 128B swizzle)
  uint16_t* d = nullptr;          // device: stacked D, (G*M) x N bf16
  void const* map_d = nullptr;    // device CUtensorMap of the stacked D (64x64 boxes), or null
  int tiles_m() const { return (M + kTileM - 1) / kTileM; }
  int tiles_n() const { return (N + kTileN - 1) / kTileN; }
  int num_tiles() const { return groups * tiles_m() * tiles_n(); }
};

namespace detail {
inline auto grouped_resources(GroupedProblem const& p) {
  auto gmem = ts::resource("gmem_ab", GroupedGmemAB{{}, p.tiles_m()});
  GroupedSmemAB ring;
  ring.map_a = p.maps_a;
  ring.map_b = p.maps_b;
  auto smem = ts::resource("smem_ab", ring);
  auto acc = ts::resource("acc", Accumulator{});
  // k_iters of GmemD is unused here (the K loop is bounded per tile by the queue).
  auto out = ts::resource("d", GmemD{{}, p.d, p.groups * p.M, p.N, 0, p.map_d, {}});
  return std::make_tuple(gmem, smem, acc, out);
}
template <class Q>
void fill_grouped_queue(Q& q, GroupedProblem const& p) {
  q.num_tiles = p.num_tiles();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  q.k_iters = p.k_iters;
}
}  // namespace detail

// S: the tile scheduler, as for make_gemm (ts::GlobalCounterScheduler{counter, scratch}:
// `counter` zeroed before each launch, `scratch` grid x ts::kQueueMaxStages responses).
template <class S = ts::StaticScheduler>
  requires requires { S::is_dynamic; }
auto make_grouped_gemm(GroupedProblem const& p, S const& sched = {}, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::grouped_resources(p);
  GroupedTileQueue<S> q;
  static_cast<S&>(q) = sched;
  detail::fill_grouped_queue(q, p);
  auto tiles = ts::resource("tiles", q);  // S::pipeline when dynamic
  return detail::cooperative_manager<GroupedLoadSchedule, GroupedMathSchedule>(gmem, smem, acc, out, tiles, o);
}
inline auto make_grouped_gemm(GroupedProblem const& p, ts::Options o) {
  return gemm::make_grouped_gemm(p, ts::StaticScheduler{}, o);
}

}  // namespace gemm
