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

inline auto make_gemm(Problem const& p, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::resources(p);
  TileQueue q;
  detail::set_tiles(q, p);
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(LoadSchedule{}, gmem, smem, tiles);
  auto mma = ts::Task("Mma").warps(1, 1).reads(smem, tiles).writes(acc).schedule(MmaSchedule{}, smem, acc, tiles);
  auto epi = ts::Task("Epilogue").warps(4, 4).reads(acc, tiles).writes(out).schedule(EpilogueSchedule{}, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, mma, epi),
                         ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

// Dynamic persistent: Cluster Launch Control hands the tiles out (on the emulator the
// grid covers every tile and a scheduler warp cancels pending CTAs, SPEC S13); the
// queue's counter / scratch (the sm_90 stand-in's) are unused there.
inline auto make_gemm_clc(Problem const& p, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::resources(p);
  DynamicTileQueue q;
  detail::set_tiles(q, p);
  // DynamicTileQueue::pipeline: the seven consuming warps (Load, Mma, Scheduler, 4
  // epilogue) are derived.
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(LoadSchedule{}, gmem, smem, tiles);
  auto mma = ts::Task("Mma").warps(1, 1).reads(smem, tiles).writes(acc).schedule(MmaSchedule{}, smem, acc, tiles);
  auto sched = ts::Task("Scheduler").warps(2, 1).reads(tiles).writes(tiles).schedule(ts::SchedulerSchedule{}, tiles);
  auto epi = ts::Task("Epilogue").warps(4, 4).reads(acc, tiles).writes(out).schedule(EpilogueSchedule{}, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, mma, sched, epi),
                         ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

}  // namespace gemm::bw
