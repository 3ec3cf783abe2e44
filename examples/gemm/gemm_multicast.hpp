// The cooperative Hopper GEMM on clusters of two CTAs with TMA multicast (issue 8): the
// two CTAs of a cluster compute vertically adjacent 128 x 256 tiles, which read the same
// 256 x 64 B slice per stage. Each CTA loads its own A box and one 128-row half of B,
// multicast into both CTAs' stage, so B crosses L2 -> SMEM once per pair instead of
// twice. The ring's config says so (cta_layout_vmnk {1, 2, 1, 1}): every stage is then
// written by both CTAs, its empty barrier counts both CTAs' consumer arrivals and each
// release arrives in both (PipelineRuntime::multicast_ctas); the launcher asks for
// clusters of two and the kernel syncs the cluster around the tasks.
#pragma once
#include "gemm_layouts.hpp"

namespace gemm::multicast {

constexpr int kClusterM = 2;  // CTAs per cluster, along M

// Static persistent queue over pairs of M-adjacent tiles in the grouped raster. CTA b of
// the grid is handed the indices b, b + grid, ... (the static queue's walk); with clusters
// of two consecutive CTAs, index t is pair t / 2 for the CTA of cluster rank t % 2, so
// both CTAs of a cluster always hold the same pair, and as many pairs.
struct ClusterTileQueue : ts::WorkQueue {
  int pairs = 0, pairs_m = 0, tiles_n = 0;
  TS_HD ts::WorkTile make_tile(int t) const {
    ts::WorkTile w = grouped_tile(t / kClusterM, pairs, pairs_m, tiles_n);
    w.tile_idx = t;
    w.coord[0] = w.coord[0] * kClusterM + t % kClusterM;  // may be one past the last row tile:
    w.coord[2] = t % kClusterM;                            // TMA zero-fills it, the store clips it
    return w;
  }
};

// The ring of the plain GEMM, B loaded as the CTA's multicast half.
struct SmemAB : gemm::SmemAB {
  // The plain ring's pipeline over a kClusterM x 1 cluster (multicast fan-in kClusterM).
  static constexpr auto pipeline = ts::tma_async({.num_stages = kStages,
                                                  .consumer_signal = ts::Signal::TaskWarpLeader,
                                                  .cta_layout_vmnk = ts::CtaLayoutVMNK{1, kClusterM, 1, 1}});
  void const* map_b_half = nullptr;  // CUtensorMap*: B (N x K) in 128 x 64 boxes, 128-byte swizzle
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
    // The emulator does not model clusters (every CTA is its own): the CTA loads the
    // whole slice, the same bytes its stage expects.
    if constexpr (!ts::arch::kClusters) return gemm::SmemAB::load(si, src);
    if (si.thread.thread_in_task != 0) return;
    int rank = si.work_tile.coord[2];  // = %cluster_ctarank (clusters are consecutive CTAs)
    constexpr int kHalf = kTileN / kClusterM;
    ts::arch::tensor_load_2d(stage_a(si), map_a, src.k, src.m, si.barrier);
    ts::arch::tensor_load_2d_multicast(stage_b(si) + rank * kHalf * kTileK, map_b_half, src.k, src.n + rank * kHalf,
                                       si.barrier, uint16_t((1u << kClusterM) - 1));
  }
};

}  // namespace gemm::multicast
