// Host-side declaration of the Blackwell-shaped GEMM (blackwell_resources.hpp):
// resources, tasks, graph, manager; static persistent or with a CLC scheduler task.
//   warp 0 Load (TMA) | warp 1 Mma (UMMA) | warp 2 Scheduler (CLC only) | warps 4-7 Epilogue
// An epilogue warp w may read TMEM lanes 32 * (w % 4) .. + 31 only (tcgen05.ld), so
// any four consecutive warps cover the accumulator's 128 lanes once; warps 4-7 make
// the epilogue one whole warpgroup.
#pragma once
#include <tuple>

#include "blackwell_resources.hpp"
#include "gemm_manager.hpp"
#include "ts/ts.hpp"

namespace gemm::bw {

namespace detail {
inline auto resources(Problem const& p) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  auto smem = ts::resource("smem_ab", SmemAB{{}, {}, {}, p.map_a, p.map_b});  // SmemAB::pipeline
  auto acc = ts::resource("acc", TmemAccumulator{{}, {}, p.k_iters()});        // TmemAccumulator::pipeline
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N});
  return std::make_tuple(gmem, smem, acc, out);
}
template <class Q>
void set_tiles(Q& q, Problem const& p) {
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
}
}  // namespace detail

// S: the tile scheduler. ts::StaticScheduler (the default), or ts::ClcScheduler: Cluster
// Launch Control hands the tiles out (on the emulator the grid covers every tile and the
// scheduler warp, warp 2, cancels pending CTAs, SPEC S13); its response ring's consuming
// warps (Load, Mma, Scheduler, 4 epilogue) are derived.
template <class S = ts::StaticScheduler>
  requires requires { S::is_dynamic; }
auto make_gemm(Problem const& p, S const& sched = {}, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::resources(p);
  gemm::Tiles<S> q;
  static_cast<S&>(q) = sched;
  detail::set_tiles(q, p);
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(LoadSchedule{}, gmem, smem, tiles);
  auto mma = ts::Task("Mma").warps(1, 1).reads(smem, tiles).writes(acc).schedule(MmaSchedule{}, smem, acc, tiles);
  auto epi = ts::Task("Epilogue").warps(4, 4).reads(acc, tiles).writes(out).schedule(EpilogueSchedule{}, acc, out, tiles);
  return std::apply(
      [&](auto const&... scheduler) {
        return ts::TaskManager(ts::tasks(load, mma, scheduler..., epi),
                               ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
      },
      ts::scheduler_tasks(tiles, 2));
}
inline auto make_gemm(Problem const& p, ts::Options o) { return bw::make_gemm(p, ts::StaticScheduler{}, o); }

}  // namespace gemm::bw
