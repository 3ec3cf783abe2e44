// Host-side declaration of the Hopper GEMM: resources, tasks, graph, manager.
#pragma once
#include "gemm_resources.hpp"
#include <tuple>

#include "ts/ts.hpp"

namespace gemm {

struct Problem {
  int M = 0, N = 0, K = 0;
  void const* map_a = nullptr;  // device CUtensorMap of A (M x K, 128x64 boxes, 128B swizzle)
  void const* map_b = nullptr;  // device CUtensorMap of B (N x K, 256x64 boxes, 128B swizzle)
  uint16_t* d = nullptr;        // device D (M x N bf16)
  void const* map_d = nullptr;  // device CUtensorMap of D (64x64 boxes, 128B swizzle); null: direct stores
  int tiles_m() const { return (M + kTileM - 1) / kTileM; }
  int tiles_n() const { return (N + kTileN - 1) / kTileN; }
  int k_iters() const { return (K + kTileK - 1) / kTileK; }
};

namespace detail {

inline TileQueue static_queue(Problem const& p) {
  TileQueue q;
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  return q;
}

// The cooperative shape's tasks and graph over any variant's resources (every variant but
// ping-pong): a TMA warp at 40 registers and two math warp groups at 232, plus, when the
// queue is dynamic, the scheduler warp.
template <class LoadSched, class MathSched, class G, class R, class A, class D, class Q>
auto cooperative_manager(G const& gmem, R const& smem, A const& acc, D const& out, Q const& tiles, ts::Options o) {
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(
      ts::with_registers<40>(LoadSched{}), gmem, smem, tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(MathSched{}), smem, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, math), ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}
template <class LoadSched, class MathSched, class G, class R, class A, class D, class Q>
auto cooperative_dynamic_manager(G const& gmem, R const& smem, A const& acc, D const& out, Q const& tiles,
                                 ts::Options o) {
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(
      ts::with_registers<40>(LoadSched{}), gmem, smem, tiles);
  auto sched = ts::Task("Scheduler").warps(1, 1).reads(tiles).writes(tiles).schedule(
      ts::with_registers<40>(ts::SchedulerSchedule{}), tiles);
  auto math = ts::Task("Math").warps(4, 8).reads(smem, acc, tiles).writes(acc, out).schedule(
      ts::with_registers<232>(MathSched{}), smem, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, sched, math),
                         ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}}, o);
}

inline auto gemm_resources(Problem const& p) {
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, p.map_a, p.map_b, p.M, p.N, p.K});
  auto smem = ts::resource("smem_ab", SmemAB{{}, {}, {}, p.map_a, p.map_b});
  auto acc = ts::resource("acc", Accumulator{});
  auto out = ts::resource("d", GmemD{{}, p.d, p.M, p.N, p.k_iters(), p.map_d, {}});
  return std::make_tuple(gmem, smem, acc, out);
}
}  // namespace detail

// The same tile bodies under the dynamic scheduler: `counter` (zeroed before each
// launch, ts::cuda::reset_queue) and `scratch` (grid x ts::kQueueMaxStages responses)
// live in device memory.
inline auto make_gemm_dynamic(Problem const& p, unsigned* counter, ts::QueueResponse* scratch, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::gemm_resources(p);
  DynamicTileQueue q;
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.counter = counter;
  q.scratch = scratch;
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  auto tiles = ts::resource("tiles", q);  // DynamicTileQueue::pipeline
  return detail::cooperative_dynamic_manager<LoadSchedule, MathSchedule>(gmem, smem, acc, out, tiles, o);
}

inline auto make_gemm(Problem const& p, ts::Options o = {}) {
  auto [gmem, smem, acc, out] = detail::gemm_resources(p);
  auto tiles = ts::resource("tiles", detail::static_queue(p));
  return detail::cooperative_manager<LoadSchedule, MathSchedule>(gmem, smem, acc, out, tiles, o);
}

}  // namespace gemm
