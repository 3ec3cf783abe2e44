// Grouped GEMM with a different K per group, on the Hopper GEMM's tile bodies:
//   D_g[M][N] = A_g[M][K_g] * B_g[N][K_g]^T   for g = 0 .. G-1
// (every group M x N, e.g. the per-expert weight-gradient GEMMs of a mixture-of-experts
// layer, where K_g is the number of tokens routed to expert g). Tiles of one group cost
// K_g / 64 mainloop iterations, so tiles differ in cost: the case where a dynamic
// scheduler earns its place (bench/gemm/imbalance.cu, case (b)).
//
// What changes against gemm_resources.hpp, and why it is new types rather than edits:
//  - the K extent is a per-tile domain bound (ts::per_tile on the queue, which both data
//    tasks hold), so the mainloop runs K_g / 64 iterations for the tile's group;
//  - A and B of each group have their own tensor map (an array in device memory indexed
//    by group), so groups are stored back to back with no padding to the largest K;
//  - D of all groups is one stacked (G*M) x N matrix, so GmemD and its TMA-store epilogue
//    are reused unchanged (the tile's row coordinate is the stacked one).
// The SMEM ring, descriptors, accumulator and MMA bodies are those of the plain GEMM.
#pragma once
#include "gemm_resources.hpp"

namespace gemm {

// Tile t of a grouped problem: groups one after the other, each in the grouped raster of
// the plain GEMM. coord[0] is the tile row in the stacked D (group * tiles_m + row),
// coord[1] the tile column, coord[2] the group.
TS_HD inline ts::WorkTile grouped_problem_tile(int t, int num_tiles, int tiles_m, int tiles_n) {
  int per_group = tiles_m * tiles_n;
  int g = t / per_group;
  ts::WorkTile w = grouped_tile(t - g * per_group, per_group, tiles_m, tiles_n);
  w.tile_idx = t;
  w.valid = t < num_tiles;
  w.coord[0] += g * tiles_m;
  w.coord[2] = g;
  return w;
}

// The queue state shared by the static and the dynamic variant: per-group tile counts
// and the K extent (in 64-wide stages) of every group, in device memory. A plain base
// (not a template) so that both queues' handles take the same per-tile bound method.
struct GroupedTiles {
  int tiles_m = 0, tiles_n = 0;  // per group
  int const* k_iters = nullptr;  // device memory, one entry per group
  // The per-tile domain bound of both data tasks: this tile's group's K stages.
  TS_HD long long tile_k_iters(ts::WorkTile const& w) const { return w.valid ? k_iters[w.coord[2]] : 0; }
};
// The grouped problem's queue under scheduler S (static, or the global counter).
template <class S>
struct GroupedTileQueue : ts::WorkQueueOf<S>, GroupedTiles {
  TS_HD ts::WorkTile make_tile(int t) const { return grouped_problem_tile(t, this->num_tiles, tiles_m, tiles_n); }
};

// One stage's source: element offsets inside the tile's group and the group itself.
struct GroupedSource {
  int k = 0, m = 0, n = 0, g = 0;
};

// Global A_g and B_g through per-group tensor maps (arrays of G CUtensorMaps in device memory).
struct GroupedGmemAB : ts::MemoryResource {
  int tiles_m = 0;  // per group: turns the stacked row coordinate back into the group's row
  TS_HD GroupedSource source(ts::ConsumerStage const& si) const {
    int g = si.work_tile.coord[2];
    return GroupedSource{int(si.loop_offset) * kTileK, (si.work_tile.coord[0] - g * tiles_m) * kTileM,
                         si.work_tile.coord[1] * kTileN, g};
  }
};

// The plain GEMM's SMEM ring, loading from the group's tensor maps.
struct GroupedSmemAB : SmemAB {
  TS_HD void load(ts::ProducerStage const& si, GroupedSource src) const {
    if (si.thread.thread_in_task != 0) return;
    ts::arch::tensor_load_2d(stage_a(si), ts::arch::tensor_map_at(map_a, src.g), src.k, src.m, si.barrier);
    ts::arch::tensor_load_2d(stage_b(si), ts::arch::tensor_map_at(map_b, src.g), src.k, src.n, si.barrier);
  }
};

// ---- schedules: the plain GEMM's, with the K extent given per tile by the queue ----

struct GroupedLoadSchedule {
  template <class S, class G, class Smem, class Q>
  TS_HD void operator()(S& s, G& gmem, Smem& smem, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      s.domain_loop(0, ts::at_least(1, ts::per_tile<&GroupedTiles::tile_k_iters>(wq)), 1, [&] {
        smem.acquire();
        auto src = ts::work<&GroupedGmemAB::source>(gmem);
        ts::work<&GroupedSmemAB::load>(smem, src);
        smem.commit();
      });
      ts::queue_epilogue(wq);
    });
  }
};

struct GroupedMathSchedule {
  template <class S, class Smem, class Acc, class Out, class Q>
  TS_HD void operator()(S& s, Smem& smem, Acc& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      tile_main_loop(s, smem, acc, ts::at_least(1, ts::per_tile<&GroupedTiles::tile_k_iters>(wq)));
      ts::work<&GmemD::store>(out, ts::work<&Accumulator::fragment>(acc));
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemD::drain>(out);
  }
};

}  // namespace gemm
