// Host-side declaration of the ping-pong GEMM (gemm_pingpong.hpp): two TMA warps, two
// math warp groups taking turns through a ping-pong resource, a static pair queue.
#pragma once
#include <tuple>

#include "gemm_manager.hpp"
#include "gemm_pingpong.hpp"

namespace gemm::pingpong {

inline int tiles_m(Problem const& p) { return (p.M + kTileM - 1) / kTileM; }
inline int tiles(Problem const& p) { return tiles_m(p) * p.tiles_n(); }
inline int pairs(Problem const& p) { return (tiles(p) + 1) / 2; }

// map_a_64: A (M x K) in 64 x 64 boxes, 128-byte swizzle; p.map_b and p.map_d as for the
// cooperative shape (p.map_d is required: the epilogue stores through TMA).
inline auto make_gemm_pingpong(Problem const& p, void const* map_a_64, ts::Options o = {}) {
  auto side = [&](int wg) {
    PairQueue q;
    q.num_tiles = pairs(p);
    q.tiles = tiles(p);
    q.tiles_m = tiles_m(p);
    q.tiles_n = p.tiles_n();
    q.wg = wg;
    return q;
  };
  auto q0 = ts::resource("pairs0", side(0));
  auto q1 = ts::resource("pairs1", side(1));
  auto gmem0 = ts::resource("gmem_ab0", GmemAB{{}, side(0), p.K});
  auto gmem1 = ts::resource("gmem_ab1", GmemAB{{}, side(1), p.K});
  auto smem0 = ts::resource("smem_ab0", SmemAB{{}, {}, {}, map_a_64, p.map_b});
  auto smem1 = ts::resource("smem_ab1", SmemAB{{}, {}, {}, map_a_64, p.map_b});
  auto acc0 = ts::resource("acc0", Accumulator{});
  auto acc1 = ts::resource("acc1", Accumulator{});
  auto d0 = ts::resource("d0", GmemD{{}, side(0), p.k_iters(), p.map_d, {}});
  auto d1 = ts::resource("d1", GmemD{{}, side(1), p.k_iters(), p.map_d, {}});
  // The turn (MathTurn::pipeline): one stage, one arrival per warp of the passing warp group.
  auto turn = ts::resource("turn", MathTurn{});
  auto load0 = ts::Task("Load0").warps(0, 1).reads(gmem0, q0).writes(smem0).schedule(
      ts::with_registers<40>(LoadSchedule{}), gmem0, smem0, q0);
  auto load1 = ts::Task("Load1").warps(1, 1).reads(gmem1, q1).writes(smem1).schedule(
      ts::with_registers<40>(LoadSchedule{}), gmem1, smem1, q1);
  auto math0 = ts::Task("Math0").warps(4, 4).reads(smem0, acc0, q0).writes(turn, acc0, d0).schedule(
      ts::with_registers<232>(MathSchedule<true>{}), turn, smem0, acc0, d0, q0);
  auto math1 = ts::Task("Math1").warps(8, 4).reads(turn, smem1, acc1, q1).writes(acc1, d1).schedule(
      ts::with_registers<232>(MathSchedule<false>{}), turn, smem1, acc1, d1, q1);
  return ts::TaskManager(ts::tasks(load0, load1, math0, math1),
                         ts::DependencyGraph{{smem0, {gmem0}},
                                             {smem1, {gmem1}},
                                             {acc0, {smem0}},
                                             {acc1, {smem1}},
                                             {d0, {acc0}},
                                             {d1, {acc1}},
                                             {turn, {turn}}},
                         o);
}

}  // namespace gemm::pingpong

namespace gemm::pingpong {

// Which shape to run (docs/gemm.md, "Choosing the shape"), from the H200 measurements in
// bench/RESULTS.md (bench/gemm/pingpong.cu, 2026-12-01): this ping-pong form ran at
// 0.25-0.59x of the cooperative shape on all eight benchmark shapes and on 2048x2048x512.
// Each warp group has a private two-stage ring (SMEM holds no more beside the staging),
// so while one group computes only one stage of its loads is in flight and the main loop
// waits on TMA latency; the cooperative shape keeps three 48 KiB stages in flight. The
// rule is therefore: cooperative, unless the caller asks for ping-pong explicitly
// (bench, tests). It becomes a real choice once the two groups can share one ring in
// tile order (a consumer that skips the other group's stages: not expressible in TS yet).
inline bool prefer_pingpong(Problem const&, int /*sms*/) { return false; }

}  // namespace gemm::pingpong
