// The ping-pong shape of the Hopper BF16 GEMM (D = A * B^T as in gemm_resources.hpp),
// CUTLASS-style: one TMA warp fills ONE shared SMEM ring of A and B slices; two math warp
// groups each own whole tiles and take turns on it, so one group's epilogue overlaps the
// other group's main loop. Two tile shapes (TileShape): 128 x 128 (Tile128x128, the
// default) and 64 x 256 (Tile64x256); the schedules are the same for both.
//
// Super tiles. The checker runs every task's tile loop in lock step over one tile
// sequence, so "group w takes every other tile" is written as a queue of tile *pairs*:
// CTA b walks pairs p = b, b + grid, ...; pair p is one block of two M-adjacent tiles of
// D (256 x 128, or 128 x 256) in the grouped raster over such blocks
// (gemm::grouped_tile), and half h is its tile of tile row 2m + h (both halves read the
// same B columns). An odd number of tile rows
// leaves the last block row's half 1 empty; the condition "half 1 exists"
// (Halves::second) is one runtime value per pair, shared by key ("half1") between the
// three tasks, so they agree on it.
// The queue resolves a pair's coordinates once per pair (PairQueue::make_tile), never per
// stage: this shape's one TMA warp issues a stage per 512 tensor-core cycles, and two
// integer divisions per stage made it slower than the math groups (ncu, stop 23).
//   Load:  half 0's k stages; when half 1 exists, half 1's k stages.
//   Math0: order.acquire(); half 0's k stages (wait, MMAs, release the previous stage);
//          order.commit(); the last stage's MMAs retire and it is released; when half 1
//          exists, ring.skip(k); the epilogue of half 0.
//   Math1: order.wait(); ring.skip(k) (half 0, always there); when half 1 exists, half
//          1's k stages, order.release(), its last stage retires and is released, and
//          the epilogue of half 1; otherwise order.release().
// Each group passes the order right after issuing its last MMAs, before they retire (as
// CUTLASS's ping-pong does), so the other group's MMAs queue behind them and the tensor
// core does not drain at the hand-off.
// k is the K loop length (runtime, "k_iters"): the same affine form in all three tasks
// (S6.26.skip-count).
//
// The order barrier (a one-stage AsyncAsync pipe, a ping-pong resource: graph self-edge)
// sits around each group's main loop and *before its first ring.wait of the pair*. It
// makes the main loops alternate 0, 1, 0, 1 ... (Math0's epilogue runs beside Math1's
// main loop and vice versa) and it is what keeps a skip from running two phases ahead:
// a skip moves a group's ring counters k stages past the other group's turn without
// touching a barrier, so the group's next ring.wait targets a stage the producer may not
// have refilled since the last-but-one round. With k >= kStages and no order, Math1
// skips to position k while the producer has not committed position k - kStages: its
// wait on parity passes at once (the checker's "parity aliasing", shown in
// tests/gemm_pingpong_model_test.cpp). With the order, Math1 waits only after Math0
// waited on (so the producer committed) all of half 0, so position k is at most one
// phase ahead; Math0 acquires the order of the next pair only after Math1's main loop,
// so the same holds for its position 2k. Both groups pass the order on every pair (half
// 1 present or not), so the hand-offs balance.
// When to prefer this shape over the cooperative one: gemm::choose_shape
// (gemm_shape_choice.hpp; docs/gemm.md, "Choosing the shape").
#pragma once
#include "gemm_resources.hpp"

namespace gemm::pingpong {

// A ping-pong tile shape: one warp group's TileM x TileN tile of D, a ring of Stages stages
// of TileM x 64 A and TileN x 64 B, and StagingBoxes 64 x 64 epilogue boxes (8 KiB each)
// per group.
template <int TileM, int TileN, int Stages, int StagingBoxes>
struct TileShape {
  static_assert((TileM == 128 && TileN == 128) || (TileM == 64 && TileN == 256),
                "ping-pong tiles: 128 x 128 (two m64n128k16 per k16) or 64 x 256 (one m64n256k16)");
  static constexpr int kTileM = TileM, kTileN = TileN, kStages = Stages, kStagingBoxes = StagingBoxes;
  static constexpr int kBytesA = kTileM * kTileK * 2, kBytesB = kTileN * kTileK * 2;
  static constexpr int kSmemBytes = kStages * (kBytesA + kBytesB) + 2 * kStagingBoxes * 64 * 64 * 2;
  static_assert(kSmemBytes <= 227 * 1024, "ring and staging exceed the 227 KiB of SMEM a CTA may hold");
};
// 6 x (16 + 16) KiB ring + 2 x 16 KiB epilogue staging = 224 KiB (as the cooperative shape).
using Tile128x128 = TileShape<128, 128, 6, 2>;
// CUTLASS's other ping-pong tile: one m64n256k16 per k16 reads A once and B once (two
// m64n128 read A's 64 rows for both), and a pair is the cooperative shape's 128 x 256 block.
// A stage is 8 + 32 = 40 KiB (the same 2 MFLOP of MMA as a 128 x 128 stage): 5 stages and
// one staging box per group (2 x 8 KiB) = 216 KiB; two boxes would leave room for 4.
using Tile64x256 = TileShape<64, 256, 5, 1>;

constexpr int kTileM = Tile128x128::kTileM, kTileN = Tile128x128::kTileN;  // the default shape's tile
constexpr int kStages = Tile128x128::kStages;
constexpr int kBytesA = Tile128x128::kBytesA, kBytesB = Tile128x128::kBytesB;

// Persistent queue over pairs of tiles under scheduler S (static, or the dynamic
// global-counter one: a scheduler warp hands pairs out in index order): the grouped raster
// over blocks of two M-adjacent tiles (256 x 128, or 128 x 256). A pair's tile: coord[0] =
// the tile row of half 0, coord[1] = the tile column, coord[2] = 1 when half 1 (tile row
// coord[0] + 1) exists. Tile units only: the same for every shape.
//
// ClusterM = 2: clusters of two CTAs along M share each stage's B slice (multicast). The
// raster is over blocks of 2 x ClusterM M-adjacent tiles; index t is block t / 2 for the
// CTA of cluster rank t % 2 (num_tiles = 2 x blocks; with an even static grid CTA b is
// handed b, b + grid, ..., so both CTAs of a cluster always hold the same block), rank r
// taking tile rows 4m + 2r and 4m + 2r + 1. Both CTAs must run the same stages (each
// stage waits for both CTAs' B halves), so "half 1 exists" is decided per block, by rank
// 0's half 1: rank 1 may then compute a tile row past M, whose loads TMA zero-fills and
// whose stores it clips.
template <class S, int ClusterM = 1>
struct PairQueueOf : ts::WorkQueueOf<S> {
  static_assert(ClusterM == 1 || ClusterM == 2, "clusters of one or two CTAs along M");
  static_assert(ClusterM == 1 || !S::is_dynamic,
                "a clustered pair queue needs the static scheduler: both CTAs of a cluster must take the same block");
  int tiles_m = 0, tiles_n = 0;  // in tiles of the shape
  int group_m = kGroupM;         // blocks (of 2 x ClusterM tile rows) per raster group
  TS_HD ts::WorkTile make_tile(int t) const {
    int const block = t / ClusterM, rank = t % ClusterM;  // ClusterM = 1: t, 0 (folded at compile time)
    ts::WorkTile w = grouped_tile(block, this->num_tiles / ClusterM, (tiles_m + 2 * ClusterM - 1) / (2 * ClusterM),
                                  tiles_n, group_m);
    w.tile_idx = t;
    int const first_row = w.coord[0] * 2 * ClusterM;
    w.coord[0] = first_row + 2 * rank;
    w.coord[2] = first_row + 1 < tiles_m ? 1 : 0;
    return w;
  }
  // The tile row and column of half h of a pair (as make_tile gave it).
  TS_HD static int row_of(ts::WorkTile const& pair, int h) { return pair.coord[0] + h; }
  TS_HD static int col_of(ts::WorkTile const& pair) { return pair.coord[1]; }
  // This CTA's rank in its cluster.
  TS_HD static int cluster_rank(ts::WorkTile const& pair) { return pair.tile_idx % ClusterM; }
};
using PairQueue = PairQueueOf<ts::StaticScheduler>;
template <int ClusterM>
using ClusterPairQueue = PairQueueOf<ts::StaticScheduler, ClusterM>;

inline constexpr char const* kHalf1Key = "half1";

// The per-pair condition the three tasks share by key: half 1 of the pair exists.
struct Halves : ts::MemoryResource {
  TS_HD bool second(ts::ConsumerStage const& si) const { return si.work_tile.coord[2] != 0; }
};

// Global A and B as the load task sees them.
template <class Shape>
struct GmemABOf : ts::MemoryResource {
  int K = 0;
  TS_HD int k_iters() const { return (K + kTileK - 1) / kTileK; }
  template <int H>
  TS_HD TileSource source(ts::ConsumerStage const& si) const {
    return TileSource{int(si.loop_offset) * kTileK, PairQueue::row_of(si.work_tile, H) * Shape::kTileM,
                      PairQueue::col_of(si.work_tile) * Shape::kTileN};
  }
};

// The wgmma descriptors of one stage: A rows 0..63 (a0) and, for a 128-row tile, rows
// 64..127 (a1), and B.
struct PairDescs {
  uint64_t a0 = 0, a1 = 0, b = 0;
};

// The shared ring of TileM x 64 A and TileN x 64 B slices (TmaAsync, Stages deep). With
// ClusterM = 2 the ring spans the cluster (cta_layout_vmnk {1, 2, 1, 1}): each CTA loads
// its own A and one TileN / 2-row half of B, multicast into both CTAs' stage, so the
// stage's empty barrier counts the releasing group's warp leaders of both CTAs and each
// release arrives in both (PipelineRuntime::multicast_ctas).
template <class Shape, int ClusterM = 1>
struct SmemABOf : ts::MemoryResource {
  static constexpr int kElemsA = Shape::kTileM * kTileK, kElemsB = Shape::kTileN * kTileK;
  // Released by one math warp group's leaders; group and stage bytes are derived.
  static constexpr auto pipeline = ts::tma_async({.num_stages = Shape::kStages,
                                                  .num_bytes = Shape::kBytesA + Shape::kBytesB,
                                                  .consumer_signal = ts::Signal::TaskWarpLeader,
                                                  .cta_layout_vmnk = ts::CtaLayoutVMNK{1, ClusterM, 1, 1}});
  ts::SmemArray<uint16_t> a, b;
  void const* map_a = nullptr;  // CUtensorMap*: A in TileM x 64 boxes, 128-byte swizzle (ts::arch::TensorMap2D* on the emulator)
  void const* map_b = nullptr;  // CUtensorMap*: B in TileN x 64 boxes
  void const* map_b_half = nullptr;  // ClusterM = 2: B in TileN / 2 x 64 boxes
  void declare_allocations(ts::Allocations& al) {
    al.smem("a_stages", a, Shape::kStages * kElemsA, 1024);
    al.smem("b_stages", b, Shape::kStages * kElemsB, 1024);
  }
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
    if (si.thread.thread_in_task != 0) return;
    auto* base_a = a.ptr(si.context) + si.stage_idx * kElemsA;
    auto* base_b = b.ptr(si.context) + si.stage_idx * kElemsB;
    ts::arch::tensor_load_2d(base_a, map_a, src.k, src.m, si.barrier);
    // The emulator does not model clusters (every CTA is its own): the CTA loads the
    // whole slice, the bytes its stage expects.
    if constexpr (ClusterM > 1 && ts::arch::kClusters) {
      constexpr int kHalf = Shape::kTileN / ClusterM;
      int const rank = PairQueueOf<ts::StaticScheduler, ClusterM>::cluster_rank(si.work_tile);
      ts::arch::tensor_load_2d_multicast(base_b + rank * kHalf * kTileK, map_b_half, src.k, src.n + rank * kHalf,
                                         si.barrier, uint16_t((1u << ClusterM) - 1));
    } else {
      ts::arch::tensor_load_2d(base_b, map_b, src.k, src.n, si.barrier);
    }
  }
  TS_HD PairDescs descriptors(ts::ConsumerStage const& si) const {
    auto* base_a = a.ptr(si.context) + si.stage_idx * kElemsA;
    auto* base_b = b.ptr(si.context) + si.stage_idx * kElemsB;
    uint64_t const a0 = ts::arch::wgmma_desc_k_major(base_a);
    if constexpr (Shape::kTileM == 128)
      return PairDescs{a0, ts::arch::wgmma_desc_k_major(base_a + 64 * kTileK), ts::arch::wgmma_desc_k_major(base_b)};
    else
      return PairDescs{a0, 0, ts::arch::wgmma_desc_k_major(base_b)};
  }
};

// One warp group's TileM x TileN fp32 accumulator, 128 floats per thread either way. 128 x
// 128: floats 0..63 are the m64n128 fragment of rows 0..63, floats 64..127 that of rows
// 64..127. 64 x 256: the m64n256 fragment (as the cooperative shape's). begin_tile /
// retire_* as gemm::Accumulator.
template <class Shape>
struct AccumulatorOf : gemm::Accumulator {
  TS_HD void mma(ts::ProducerStage const& si, PairDescs d) {
    int const t = si.thread.thread_in_task % 128;
    ts::arch::wgmma_fence<128>(acc);
TS_UNROLL
    for (int kk = 0; kk < kTileK / 16; ++kk) {
      int const scale = (fresh && kk == 0) ? 0 : 1;
      uint64_t const b = ts::arch::wgmma_desc_advance(d.b, 32 * kk);
      if constexpr (Shape::kTileM == 128) {
        ts::arch::wgmma_m64n128k16_bf16(acc, acc, ts::arch::wgmma_desc_advance(d.a0, 32 * kk), b, scale, t);
        ts::arch::wgmma_m64n128k16_bf16(acc, acc + 64, ts::arch::wgmma_desc_advance(d.a1, 32 * kk), b, scale, t);
      } else {
        ts::arch::wgmma_m64n256k16_bf16(acc, ts::arch::wgmma_desc_advance(d.a0, 32 * kk), b, scale, t);
      }
    }
    ts::arch::wgmma_commit(acc);
    fresh = false;
  }
};

// The order between the two groups' main loops: synchronisation only, no data.
struct MathOrder : ts::MemoryResource {
  // One stage, one arrival per thread of the passing warp group (groups derived: 128
  // threads). Every thread arrives, so the hand-off takes no lane-divergent branch: it sits
  // between a group's last MMAs and their retirement, and a divergent path there makes
  // ptxas serialize every wgmma of the kernel (C7518, measured at 0.52x of cooperative).
  static constexpr auto pipeline =
      ts::async_async({.num_stages = 1, .producer_signal = ts::Signal::All, .consumer_signal = ts::Signal::All});
};

// One warp group's D tiles (half H of each pair), through its own swizzled staging boxes
// and TMA stores (map_d required, on the emulator too: a ts::arch::TensorMap2D of D in
// 64 x 64 boxes there).
template <class Shape>
struct GmemDOf : ts::MemoryResource {
  int half = 0;
  int k_iters = 0;              // K extent in stages: the math tasks' domain
  void const* map_d = nullptr;  // CUtensorMap*: D in 64 x 64 boxes, 128-byte swizzle
  ts::SmemArray<uint16_t> staging;
  void declare_allocations(ts::Allocations& al) {
    if (map_d) al.smem("d_staging", staging, Shape::kStagingBoxes * 64 * 64, 1024).producer_side();
  }
  TS_HD void store(ts::ProducerStage const& si, float const* frag) const {
    // The fragment as 64 x 64 boxes (gemm_epilogue.hpp): 2 x 2 for 128 x 128, 1 x 4 for 64 x 256.
    store_fragment_tma<Shape::kTileN / 64, Shape::kStagingBoxes>(
        frag, reinterpret_cast<unsigned char*>(staging.ptr(si.context)), map_d,
        PairQueue::row_of(si.work_tile, half) * Shape::kTileM, PairQueue::col_of(si.work_tile) * Shape::kTileN,
        si.thread.thread_in_task % 128, ts::kFirstBodyBarrier + half);
  }
  TS_HD void drain(ts::AuxStage const& si) const { drain_fragment_stores(si.thread.thread_in_task % 128); }
};

// The default (128 x 128) shape's resources under their old names.
using GmemAB = GmemABOf<Tile128x128>;
using SmemAB = SmemABOf<Tile128x128>;
using Accumulator = AccumulatorOf<Tile128x128>;
using GmemD = GmemDOf<Tile128x128>;

// ---- schedules ----

// TS_HD: device code calls it too (a host-only helper compiles with a suppressed
// warning, 20011, and runs as garbage on the device: the K loop ran no iteration).
TS_HD inline auto k_bound(int k_iters) { return ts::runtime(k_iters, "k_iters").at_least(1); }

template <class Shape, int ClusterM, int H, class S, class G, class Smem>
TS_HD void load_half(S& s, G& gmem, Smem& smem) {
  s.domain_loop(0, k_bound(gmem->k_iters()), 1, [&] {
    smem.acquire();
    auto src = ts::work<&GmemABOf<Shape>::template source<H>>(gmem);
    ts::work<&SmemABOf<Shape, ClusterM>::load>(smem, src);
    smem.commit();
  });
}

template <class Shape = Tile128x128, int ClusterM = 1>
struct LoadSchedule {
  template <class S, class G, class Smem, class Hv, class Q>
  TS_HD void operator()(S& s, G& gmem, Smem& smem, Hv& halves, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      load_half<Shape, ClusterM, 0>(s, gmem, smem);
      auto second = ts::work<&Halves::second>(halves);
      s.when_true(second, ts::Key{kHalf1Key}, [&] { load_half<Shape, ClusterM, 1>(s, gmem, smem); });
      ts::queue_epilogue(wq);
    });
  }
};

// Warp group 0: half 0 of every pair. kOrder = false drops the order barrier (the
// checker's parity-aliasing counterexample; never run).
template <bool kOrder = true, class Shape = Tile128x128, int ClusterM = 1>
struct Math0Schedule {
  template <class S, class Ord, class Smem, class Acc, class Out, class Hv, class Q>
  TS_HD void operator()(S& s, Ord& order, Smem& smem, Acc& acc, Out& out, Hv& halves, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      if constexpr (kOrder) order.acquire();
      tile_main_loop_issue<&SmemABOf<Shape, ClusterM>::descriptors, &AccumulatorOf<Shape>::mma>(s, smem, acc, k_bound(out->k_iters));
      if constexpr (kOrder) order.commit();  // Math1's MMAs queue behind this group's last ones
      tile_main_loop_tail(smem, acc);
      auto second = ts::work<&Halves::second>(halves);
      s.when_true(second, ts::Key{kHalf1Key}, [&] { smem.skip(k_bound(out->k_iters)); });
      ts::work<&GmemDOf<Shape>::store>(out, ts::work<&gemm::Accumulator::fragment>(acc));
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemDOf<Shape>::drain>(out);
  }
};

// Warp group 1: half 1 of every pair, when it exists.
template <bool kOrder = true, class Shape = Tile128x128, int ClusterM = 1>
struct Math1Schedule {
  template <class S, class Ord, class Smem, class Acc, class Out, class Hv, class Q>
  TS_HD void operator()(S& s, Ord& order, Smem& smem, Acc& acc, Out& out, Hv& halves, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      if constexpr (kOrder) order.wait();
      smem.skip(k_bound(out->k_iters));  // half 0, Math0's turn (always there)
      auto second = ts::work<&Halves::second>(halves);
      // The order goes back on both branches; on the first right after the last MMAs'
      // issue, inside the branch: MMAs in flight across a branch make ptxas serialize
      // every wgmma (C7518).
      s.when_true(second, ts::Key{kHalf1Key}, [&] {
        tile_main_loop_issue<&SmemABOf<Shape, ClusterM>::descriptors, &AccumulatorOf<Shape>::mma>(s, smem, acc, k_bound(out->k_iters));
        if constexpr (kOrder) order.release();  // Math0's next MMAs queue behind this group's last ones
        tile_main_loop_tail(smem, acc);
        ts::work<&GmemDOf<Shape>::store>(out, ts::work<&gemm::Accumulator::fragment>(acc));
      });
      s.when_false(second, ts::Key{kHalf1Key}, [&] {
        if constexpr (kOrder) order.release();
      });
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemDOf<Shape>::drain>(out);
  }
};

}  // namespace gemm::pingpong
