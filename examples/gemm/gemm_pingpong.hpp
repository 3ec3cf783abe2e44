// The ping-pong shape of the Hopper BF16 GEMM (D = A * B^T as in gemm_resources.hpp):
// two math warp groups each own whole 64 x 256 tiles and take turns on the tensor cores,
// so one group's epilogue overlaps the other group's main loop.
//
// CTA b walks pairs of tiles (b, b + grid, ...); in pair p, warp group 0 computes tile 2p
// and warp group 1 tile 2p + 1 (skipped when it does not exist). Each group has its own
// TMA warp and SMEM ring, so its loads run ahead while the other group computes. The turn
// is a TS ping-pong resource (a graph self-edge, SPEC S11): group 0 acquires it before its
// main loop and commits after; group 1 waits for it and releases after its own, so the
// main loops alternate 0, 1, 0, 1 ... and each epilogue runs beside the other's MMAs.
// When to prefer this shape over the cooperative one: prefer_pingpong() below.
#pragma once
#include "gemm_resources.hpp"

namespace gemm::pingpong {

constexpr int kTileM = 64;  // rows per warp group's tile
constexpr int kStages = 2;  // per warp group's ring: 2 x 2 x 40 KiB + 2 x 16 KiB staging = 192 KiB
constexpr int kBytesA = kTileM * kTileK * 2, kBytesB = kTileN * kTileK * 2;

// Static persistent queue over pairs of tiles; `wg` is the warp group whose side of the
// pair a task serves (its skip predicate: warp group 1's tile may not exist).
struct PairQueue : ts::WorkQueue {
  int tiles = 0, tiles_m = 0, tiles_n = 0, wg = 0;
  TS_HD ts::WorkTile make_tile(int p) const {
    ts::WorkTile w;
    w.tile_idx = p;
    w.valid = p < num_tiles;
    return w;
  }
  TS_HD bool missing(ts::WorkTile const& pair) const { return 2 * pair.tile_idx + wg >= tiles; }
  // The tile this side computes in pair p, in the grouped raster order.
  TS_HD ts::WorkTile tile_of(int p) const { return grouped_tile(2 * p + wg, tiles, tiles_m, tiles_n); }
};

// Global A and B as one warp group's loads see them.
struct GmemAB : ts::MemoryResource {
  PairQueue q;
  int K = 0;
  TS_HD int k_iters() const { return (K + kTileK - 1) / kTileK; }
  TS_HD TileSource source(ts::ConsumerStage const& si) const {
    ts::WorkTile t = q.tile_of(si.work_tile.tile_idx);
    return TileSource{int(si.loop_offset) * kTileK, t.coord[0] * kTileM, t.coord[1] * kTileN};
  }
};

// One warp group's ring of 64 x 64 A and 256 x 64 B slices (TmaAsync, kStages deep).
struct SmemAB : ts::MemoryResource {
  // Released by one math warp group's leaders; group and stage bytes are derived.
  static constexpr auto pipeline = ts::tma_async({.num_stages = kStages, .consumer_signal = ts::Signal::TaskWarpLeader});
  ts::SmemArray<uint16_t> a, b;
  void const* map_a = nullptr;  // CUtensorMap*: A in 64 x 64 boxes, 128-byte swizzle
  void const* map_b = nullptr;  // CUtensorMap*: B in 256 x 64 boxes
  void declare_allocations(ts::Allocations& al) {
    al.smem("a_stages", a, kStages * kTileM * kTileK, 1024);
    al.smem("b_stages", b, kStages * kTileN * kTileK, 1024);
  }
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
#if defined(__CUDA_ARCH__)
    if (si.thread.thread_in_task == 0) {
      ts::cuda::tensor_load_2d(a.ptr(si.context) + si.stage_idx * kTileM * kTileK,
                               static_cast<CUtensorMap const*>(map_a), src.k, src.m, si.barrier);
      ts::cuda::tensor_load_2d(b.ptr(si.context) + si.stage_idx * kTileN * kTileK,
                               static_cast<CUtensorMap const*>(map_b), src.k, src.n, si.barrier);
    }
#else
    (void)si;
    (void)src;
#endif
  }
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
#if defined(__CUDA_ARCH__)
    return StageDescs{ts::sm90::desc_k_major_sw128(a.ptr(si.context) + si.stage_idx * kTileM * kTileK),
                      ts::sm90::desc_k_major_sw128(b.ptr(si.context) + si.stage_idx * kTileN * kTileK)};
#else
    (void)si;
    return {};
#endif
  }
};

// The turn between the two math warp groups: synchronisation only, no data.
struct MathTurn : ts::MemoryResource {
  // One stage; each warp of the passing warp group arrives once (groups derived: 4 warps).
  static constexpr auto pipeline = ts::async_async(
      {.num_stages = 1, .producer_signal = ts::Signal::TaskWarpLeader, .consumer_signal = ts::Signal::TaskWarpLeader});
};

// One warp group's D tiles, stored through its own swizzled staging boxes and TMA.
// The two groups' epilogues run at different times but overlap their in-flight stores,
// so each has its own staging and named barrier.
struct GmemD : ts::MemoryResource {
  PairQueue q;
  int k_iters = 0;              // K extent in stages: the math task's domain
  void const* map_d = nullptr;  // CUtensorMap*: D in 64 x 64 boxes, 128-byte swizzle
  ts::SmemArray<uint16_t> staging;
  void declare_allocations(ts::Allocations& al) {
    al.smem("d_staging", staging, 2 * 64 * 64, 1024).producer_side();
  }
  TS_HD void store(ts::ProducerStage const& si, float const* frag) const {
#if defined(__CUDA_ARCH__)
    ts::WorkTile t = q.tile_of(si.work_tile.tile_idx);
    ts::sm90::store_fragment_tma(frag, reinterpret_cast<unsigned char*>(staging.ptr(si.context)),
                                 static_cast<CUtensorMap const*>(map_d), t.coord[0] * kTileM, t.coord[1] * kTileN,
                                 si.thread.thread_in_task % 128, 1 + q.wg);
#else
    (void)si;
    (void)frag;
#endif
  }
  TS_HD void drain(ts::AuxStage const& si) const {
#if defined(__CUDA_ARCH__)
    ts::sm90::drain_fragment_stores(si.thread.thread_in_task % 128);
#else
    (void)si;
#endif
  }
};

// ---- schedules ----

struct LoadSchedule {
  template <class S, class G, class Smem, class Q>
  TS_HD void operator()(S& s, G& gmem, Smem& smem, Q& wq) const {
    s.work_tile_loop(wq, ts::skip_if<&PairQueue::missing>, [&] {
      s.skippable([&] {
        s.domain_loop(0, ts::runtime(gmem->k_iters(), "k_iters").at_least(1), 1, [&] {
          smem.acquire();
          auto src = ts::work<&GmemAB::source>(gmem);
          ts::work<&SmemAB::load>(smem, src);
          smem.commit();
        });
      });
      ts::queue_epilogue(wq);
    });
  }
};

// kFirst: warp group 0 opens each round of turns (acquire / commit); warp group 1
// follows (wait / release). Both pass the turn on every pair, skipped or not, so
// the hand-offs always balance.
template <bool kFirst>
struct MathSchedule {
  template <class S, class Turn, class Smem, class Acc, class Out, class Q>
  TS_HD void operator()(S& s, Turn& turn, Smem& smem, Acc& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, ts::skip_if<&PairQueue::missing>, [&] {
      if constexpr (kFirst) turn.acquire();
      else turn.wait();
      s.skippable([&] { tile_main_loop<&SmemAB::descriptors>(s, smem, acc, ts::runtime(out->k_iters, "k_iters").at_least(1)); });
      if constexpr (kFirst) turn.commit();
      else turn.release();
      s.skippable([&] { ts::work<&GmemD::store>(out, ts::work<&Accumulator::fragment>(acc)); });
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemD::drain>(out);
  }
};

}  // namespace gemm::pingpong
