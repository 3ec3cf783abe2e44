// Host-side declaration of the ping-pong GEMM (gemm_pingpong.hpp): one TMA warp, one
// shared ring, two math warp groups taking turns by tile through an order barrier, a
// queue of tile pairs; 128 x 128 or 64 x 256 tiles.
#pragma once
#include <tuple>

#include "gemm_manager.hpp"
#include "gemm_pingpong.hpp"

namespace gemm::pingpong {

template <class Shape = Tile128x128>
inline int tiles_m(Problem const& p) { return (p.M + Shape::kTileM - 1) / Shape::kTileM; }
template <class Shape = Tile128x128>
inline int tiles_n(Problem const& p) { return (p.N + Shape::kTileN - 1) / Shape::kTileN; }
// The queue items of clusters of ClusterM CTAs: blocks of 2 x ClusterM M-adjacent tiles,
// ClusterM items each (gemm_pingpong.hpp, PairQueueOf).
template <class Shape = Tile128x128, int ClusterM = 1>
inline int cluster_items(Problem const& p) {
  int const per_block = 2 * ClusterM;
  return (tiles_m<Shape>(p) + per_block - 1) / per_block * tiles_n<Shape>(p) * ClusterM;
}
// Blocks of D of two M-adjacent tiles (gemm_pingpong.hpp, PairQueue): the items of one CTA.
template <class Shape = Tile128x128>
inline int pairs(Problem const& p) { return cluster_items<Shape, 1>(p); }

// The operand maps a shape's loads read: A in TileM x 64 boxes, B in TileN x 64 boxes
// (device memory; ts::arch::TensorMap2D on the emulator), and for clusters B in TileN / 2 x 64 boxes.
struct OperandMaps {
  void const* a = nullptr;
  void const* b = nullptr;
  void const* b_half = nullptr;
};

// The ping-pong GEMM of tile shape Shape (Tile128x128 or Tile64x256). p.map_d: D in 64 x
// 64 boxes (required, on the emulator too: the epilogue is the TMA store on both; a
// ts::arch::TensorMap2D there); p.map_a / p.map_b are not read (the maps come in `maps`).
// kOrder = false leaves out the order barrier (the checker's counterexample; tests only).
// S: the tile scheduler, as for gemm::make_gemm: static or ts::GlobalCounterScheduler{counter,
// scratch} (its scheduler warp is warp 1, at 40 registers beside the TMA warp).
// ClusterM = 2: clusters of two CTAs along M, B multicast (static scheduler only; launch
// with an even grid of at most cluster_items(p) CTAs: the launcher asks for the clusters).
template <class Shape, bool kOrder = true, int ClusterM = 1, class S>
  requires requires { S::is_dynamic; }
inline auto make_gemm_pingpong_of(Problem const& p, OperandMaps maps, S const& sched, ts::Options o = {}) {
  PairQueueOf<S, ClusterM> q;
  static_cast<S&>(q) = sched;
  q.num_tiles = cluster_items<Shape, ClusterM>(p);
  q.tiles_m = tiles_m<Shape>(p);
  q.tiles_n = tiles_n<Shape>(p);
  q.group_m = p.group_m();
  auto out = [&](int half) {
    GmemDOf<Shape> d;
    d.half = half;
    d.k_iters = p.k_iters();
    d.map_d = p.map_d;
    return d;
  };
  auto wq = ts::resource("pairs", q);
  auto halves = ts::resource("halves", Halves{});
  auto gmem = ts::resource("gmem_ab", GmemABOf<Shape>{{}, p.K});
  auto smem = ts::resource("smem_ab", SmemABOf<Shape, ClusterM>{{}, {}, {}, maps.a, maps.b, maps.b_half});  // SmemABOf::pipeline
  auto acc0 = ts::resource("acc0", AccumulatorOf<Shape>{});
  auto acc1 = ts::resource("acc1", AccumulatorOf<Shape>{});
  auto d0 = ts::resource("d0", out(0));
  auto d1 = ts::resource("d1", out(1));
  auto order = ts::resource("order", MathOrder{});  // MathOrder::pipeline
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, halves, wq).writes(smem).schedule(
      ts::with_registers<40>(LoadSchedule<Shape, ClusterM>{}), gmem, smem, halves, wq);
  auto math0 = ts::Task("Math0").warps(4, 4).reads(smem, acc0, halves, wq).writes(order, acc0, d0).schedule(
      ts::with_registers<232>(Math0Schedule<kOrder, Shape, ClusterM>{}), order, smem, acc0, d0, halves, wq);
  auto math1 = ts::Task("Math1").warps(8, 4).reads(order, smem, acc1, halves, wq).writes(acc1, d1).schedule(
      ts::with_registers<232>(Math1Schedule<kOrder, Shape, ClusterM>{}), order, smem, acc1, d1, halves, wq);
  return std::apply(
      [&](auto const&... scheduler) {
        return ts::TaskManager(ts::tasks(load, scheduler..., math0, math1),
                               ts::DependencyGraph{{smem, {gmem, halves}},
                                                   {acc0, {smem}},
                                                   {acc1, {smem}},
                                                   {d0, {acc0}},
                                                   {d1, {acc1}},
                                                   {order, {order}}},
                               o);
      },
      ts::scheduler_tasks<40>(wq, 1));
}
template <class Shape, bool kOrder = true>
inline auto make_gemm_pingpong_of(Problem const& p, OperandMaps maps, ts::Options o = {}) {
  return make_gemm_pingpong_of<Shape, kOrder>(p, maps, ts::StaticScheduler{}, o);
}

// The 128 x 128 shape. p.map_a: A (M x K) in 128 x 64 boxes (the cooperative shape's map);
// map_b_128: B (N x K) in 128 x 64 boxes.
template <bool kOrder = true, class S>
  requires requires { S::is_dynamic; }
inline auto make_gemm_pingpong(Problem const& p, void const* map_b_128, S const& sched, ts::Options o = {}) {
  return make_gemm_pingpong_of<Tile128x128, kOrder>(p, OperandMaps{p.map_a, map_b_128}, sched, o);
}
template <bool kOrder = true>
inline auto make_gemm_pingpong(Problem const& p, void const* map_b_128, ts::Options o = {}) {
  return make_gemm_pingpong<kOrder>(p, map_b_128, ts::StaticScheduler{}, o);
}

// The 64 x 256 shape. map_a_64: A (M x K) in 64 x 64 boxes; p.map_b: B (N x K) in 256 x 64
// boxes (the cooperative shape's map).
template <bool kOrder = true, class S = ts::StaticScheduler>
  requires requires { S::is_dynamic; }
inline auto make_gemm_pingpong_64x256(Problem const& p, void const* map_a_64, S const& sched = {},
                                      ts::Options o = {}) {
  return make_gemm_pingpong_of<Tile64x256, kOrder>(p, OperandMaps{map_a_64, p.map_b}, sched, o);
}

// Clusters of two CTAs along M sharing each stage's B slice by TMA multicast (CUTLASS's
// 2 x 1 cluster ping-pong). map_b_half: B (N x K) in TileN / 2 x 64 boxes; the other maps
// as for the shape's unclustered form.
template <class Shape = Tile128x128, bool kOrder = true>
inline auto make_gemm_pingpong_multicast(Problem const& p, OperandMaps maps, ts::Options o = {}) {
  return make_gemm_pingpong_of<Shape, kOrder, 2>(p, maps, ts::StaticScheduler{}, o);
}

// Which shape to run: gemm::choose_shape (gemm_shape_choice.hpp, docs/gemm.md "Choosing
// the shape") picks this one only for many tiles per SM with a short K loop.

}  // namespace gemm::pingpong
