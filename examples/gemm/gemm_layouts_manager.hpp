// Host-side declaration of the row-major-B GEMM (gemm_layouts.hpp): the plain GEMM's
// tasks, graph, pipeline and register budgets over the row-major-B ring and accumulator.
#pragma once
#include <tuple>

#include "gemm_layouts.hpp"
#include "gemm_manager.hpp"

namespace gemm {

// p.map_b is the device CUtensorMap of B as K x N row-major in 64 (N) x 64 (K) boxes,
// 128-byte swizzle; everything else as for make_gemm.
inline auto make_gemm_rowmajor_b(Problem const& p, ts::Options o = {}) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  SmemABRowB ring;
  ring.map_a = p.map_a;
  ring.map_b = p.map_b;
  auto smem = ts::resource("smem_ab", ring,
                           ts::PipelineConfig::tma_async({.num_stages = kStages,
                                                          .num_bytes = kBytesA + kBytesB,
                                                          .producer_group = {ts::Agent::Thread, 1},
                                                          .consumer_group = {ts::Agent::Warp, 8},
                                                          .consumer_signal = ts::Signal::TaskWarpLeader}));
  auto acc = ts::resource("acc", AccumulatorRowB{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  TileQueue q;
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(
      ts::with_registers<40>(LayoutLoadSchedule<SmemABRowB>{}), gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(LayoutMathSchedule<SmemABRowB, AccumulatorRowB>{}), smem, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, math),
                         ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

}  // namespace gemm
