// Host-side declaration of the multicast GEMM (gemm_multicast.hpp): the cooperative
// shape's tasks and schedules over the cluster queue and the multicast ring.
#pragma once
#include <tuple>

#include "gemm_multicast.hpp"
#include "gemm_manager.hpp"

namespace gemm::multicast {

inline int pairs_m(Problem const& p) { return (p.tiles_m() + kClusterM - 1) / kClusterM; }
inline int pairs(Problem const& p) { return pairs_m(p) * p.tiles_n(); }

// map_b_half: B (N x K) in 128 x 64 boxes; the rest as for make_gemm. Launch with a grid
// that is a multiple of kClusterM (the launcher checks) and at most 2 x pairs(p).
inline auto make_gemm_multicast(Problem const& p, void const* map_b_half, ts::Options o = {}) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  SmemAB ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  ring.map_b_half = map_b_half;
  auto smem = ts::resource("smem_ab", ring,
                           ts::PipelineConfig::tma_async({.num_stages = kStages,
                                                          .num_bytes = kBytesA + kBytesB,
                                                          .producer_group = {ts::Agent::Thread, 1},
                                                          .consumer_group = {ts::Agent::Warp, 8},
                                                          .consumer_signal = ts::Signal::TaskWarpLeader,
                                                          .cta_layout_vmnk = ts::CtaLayoutVMNK{1, kClusterM, 1, 1}}));
  auto acc = ts::resource("acc", Accumulator{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  ClusterTileQueue q;
  q.pairs = pairs(p);
  q.pairs_m = pairs_m(p);
  q.tiles_n = p.tiles_n();
  q.num_tiles = q.pairs * kClusterM;
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(
      ts::with_registers<40>(LayoutLoadSchedule<SmemAB>{}), gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(LayoutMathSchedule<SmemAB, Accumulator>{}), smem, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, math),
                         ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

}  // namespace gemm::multicast
