// The Hopper BF16 GEMM as TS resources and schedules (cooperative shape):
//   D[M][N] = A[M][K] * B[N][K]^T, bf16 in, fp32 accumulate, bf16 out.
// A producer warp issues TMA loads of 128x64 A and 256x64 B slices into a TmaAsync SMEM
// ring; a math task of two warpgroups (8 warps) issues wgmma from the ring into register
// accumulators (each warpgroup 64 x 256 of the 128 x 256 tile), releasing each stage once
// the next stage's MMAs are issued and the previous ones retired; the epilogue stores the
// accumulators; a static persistent queue walks the tiles in a grouped order.
//
// Included by host code (capture, verification, printout) and device code (sm_90a). The
// work bodies are written once over the portable arch layer (ts/arch/portable.hpp,
// ts/arch/wgmma.hpp), which the GPU runs as TMA / wgmma PTX and the CPU emulator as
// emulated TMA boxes (the map pointers then point at ts::arch::TensorMap2D) and a
// per-thread wgmma on the same register fragment. Host SMEM holds the boxes unswizzled:
// the 128-byte swizzle is a device-only layout detail of the TMA boxes and wgmma
// descriptors, hidden in ts::arch::wgmma_desc_* and ts::arch::sw128_chunk_offset.
#pragma once
#include <cstdint>

#include "ts/core/named_barriers.hpp"
#include "gemm_epilogue.hpp"
#include "ts/arch/portable.hpp"
#include "ts/arch/wgmma.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/runtime/scheduler/queue.hpp"
#include "ts/schedule.hpp"

namespace gemm {

constexpr int kTileM = 128, kTileN = 256, kTileK = 64;
constexpr int kStages = 4;
constexpr int kGroupM = 8;
constexpr int kBytesA = kTileM * kTileK * 2, kBytesB = kTileN * kTileK * 2;

// Tiles in a grouped raster: group_m tile rows at a time (down the rows of a group, then the
// next column), so a group's B slices stay in L2 while its A rows are reused along N.
// kGroupM is the default; Problem::raster_group picks another (CUTLASS's raster swizzle).
TS_HD inline ts::WorkTile grouped_tile(int t, int num_tiles, int tiles_m, int tiles_n, int group_m = kGroupM) {
  ts::WorkTile w;
  w.tile_idx = t;
  w.valid = t < num_tiles;
  // Past the last tile the group arithmetic can divide by zero (rows == 0 when the tile
  // rows are a multiple of kGroupM): harmless on the GPU, where the result of an invalid
  // tile is never used (and the test costs a branch per tile fetch), but a trap on the host.
  if (ts::arch::kDivisionByZeroTraps && !w.valid) return w;
  int per_group = group_m * tiles_n;
  int first_m = (t / per_group) * group_m;
  int rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  int in_group = t % per_group;
  w.coord[0] = first_m + in_group % rows;
  w.coord[1] = in_group / rows;
  return w;
}

// The persistent tile queue under scheduler S (runtime/scheduler/): the grouped raster
// is the queue's, the order CTAs take tiles in is S's. Static (CTA b takes tiles b,
// b + grid, ...), global counter (sm_90a: a scheduler warp claims tiles from a counter in
// device memory) or CLC (sm_100a, the emulator); the tile bodies are the same for all.
template <class S>
struct Tiles : ts::WorkQueueOf<S> {
  int tiles_m = 0, tiles_n = 0;
  int group_m = kGroupM;  // tile rows per raster group
  TS_HD ts::WorkTile make_tile(int t) const { return grouped_tile(t, this->num_tiles, tiles_m, tiles_n, group_m); }
};
using TileQueue = Tiles<ts::StaticScheduler>;

// Where one stage's A and B slices come from (a task-local value).
struct TileSource {
  int k = 0, m = 0, n = 0;  // element offsets
};

// Global A and B, read through TMA tensor maps kept in device memory.
struct GmemAB : ts::MemoryResource {
  void const* map_a = nullptr;  // CUtensorMap* (device memory); ts::arch::TensorMap2D* on the emulator
  void const* map_b = nullptr;
  int M = 0, N = 0, K = 0;
  TS_HD int k_iters() const { return (K + kTileK - 1) / kTileK; }
  TS_HD TileSource source(ts::ConsumerStage const& si) const {
    return TileSource{int(si.loop_offset) * kTileK, si.work_tile.coord[0] * kTileM, si.work_tile.coord[1] * kTileN};
  }
};

// Two wgmma shared-memory descriptors: this warpgroup's A rows and the B slice.
struct StageDescs {
  uint64_t a = 0, b = 0;
};

// The SMEM ring of A/B slices (TmaAsync pipeline, kStages deep).
struct SmemAB : ts::MemoryResource {
  // The ring's pipeline, declared once as a compile-time value (the executing context
  // dispatches on it at compile time): kStages TMA stages released by the math warps'
  // leaders. The consumer group (the releasing tasks' warps) and the stage bytes (A and B
  // slices: the SMEM declared below per stage) are derived.
  static constexpr auto pipeline = ts::tma_async({.num_stages = kStages, .consumer_signal = ts::Signal::TaskWarpLeader});
  ts::SmemArray<uint16_t> a, b;
  void const* map_a = nullptr;
  void const* map_b = nullptr;
  void declare_allocations(ts::Allocations& al) {
    al.smem("a_stages", a, kStages * kTileM * kTileK, 1024);  // 128-byte swizzled TMA tiles
    al.smem("b_stages", b, kStages * kTileN * kTileK, 1024);
  }
  // The waited / acquired stage's A and B slices (every layout's boxes fill these).
  template <class Stage>
  TS_HD uint16_t* stage_a(Stage const& si) const { return a.ptr(si.context) + si.stage_idx * kTileM * kTileK; }
  template <class Stage>
  TS_HD uint16_t* stage_b(Stage const& si) const { return b.ptr(si.context) + si.stage_idx * kTileN * kTileK; }
  // This warp group's 64 A rows of a K-major A slice.
  TS_HD uint16_t* stage_a_rows(ts::ConsumerStage const& si) const {
    return stage_a(si) + si.thread.warp_in_task() / 4 * 64 * kTileK;
  }
  // Producer work: the elected lane issues both TMA loads onto the stage's full barrier.
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
    if (si.thread.thread_in_task != 0) return;
    ts::arch::tensor_load_2d(stage_a(si), map_a, src.k, src.m, si.barrier);
    ts::arch::tensor_load_2d(stage_b(si), map_b, src.k, src.n, si.barrier);
  }
  // Consumer work: descriptors of this warpgroup's operands in the waited stage.
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
    return StageDescs{ts::arch::wgmma_desc_k_major(stage_a_rows(si)), ts::arch::wgmma_desc_k_major(stage_b(si))};
  }
};

// Register accumulators of the math warpgroups (per-thread state of the resource).
struct Accumulator : ts::MemoryResource {
  float acc[128];
  bool fresh;
  // Auxiliary: a new tile starts; the first MMA overwrites instead of accumulating.
  TS_HD void begin_tile(ts::AuxStage const&) { fresh = true; }
  // Producer work into the accumulator: four k16 MMAs of one stage, committed as a group.
  // StepA / StepB: how far one k16 step moves each operand (bytes: 32 along a K-major row,
  // 16 rows of 128 bytes for an MN-major operand); TransB / TransA: the operand majors.
  template <int TransB = 0, int TransA = 0, uint32_t StepA = 32, uint32_t StepB = 32>
  TS_HD void mma_steps(ts::ProducerStage const& si, StageDescs d) {
    int const t = si.thread.thread_in_task % 128;  // this thread's place in its warpgroup's fragment
    ts::arch::wgmma_fence<128>(acc);
TS_UNROLL
    for (int kk = 0; kk < kTileK / 16; ++kk)
      ts::arch::wgmma_m64n256k16_bf16<TransB, TransA>(acc, ts::arch::wgmma_desc_advance(d.a, StepA * kk),
                                                      ts::arch::wgmma_desc_advance(d.b, StepB * kk),
                                                      (fresh && kk == 0) ? 0 : 1, t);
    ts::arch::wgmma_commit(acc);
    fresh = false;
  }
  TS_HD void mma(ts::ProducerStage const& si, StageDescs d) { mma_steps(si, d); }
  // Auxiliary: all but the newest MMA group have finished reading shared memory.
  TS_HD void retire_previous(ts::AuxStage const&) { ts::arch::wgmma_wait<1, 128>(acc); }
  TS_HD void retire_all(ts::AuxStage const&) { ts::arch::wgmma_wait<0, 128>(acc); }
  // Consumer work: the finished fragment.
  TS_HD float const* fragment(ts::ConsumerStage const&) const { return acc; }
};

// Global D. With a tensor map (N a multiple of 8) the epilogue stages each warp group's
// fragment through swizzled SMEM boxes and TMA stores them asynchronously; otherwise it
// stores bf16 pairs straight from registers (gemm_epilogue.hpp).
struct GmemD : ts::MemoryResource {
  uint16_t* d = nullptr;  // bf16 bits
  int M = 0, N = 0;
  int k_iters = 0;              // K extent in stages: the math task's domain (it never touches GMEM A/B)
  void const* map_d = nullptr;  // CUtensorMap* of D (64 x 64 boxes, 128-byte swizzle), or null
  ts::SmemArray<uint16_t> staging;  // 2 warp groups x 2 boxes of 64 x 64 bf16
  void declare_allocations(ts::Allocations& al) {
    if (map_d) al.smem("d_staging", staging, 2 * 2 * 64 * 64, 1024).producer_side();
  }
  TS_HD void store(ts::ProducerStage const& si, float const* frag) const {
    int wg = si.thread.warp_in_task() / 4;
    int row_base = si.work_tile.coord[0] * kTileM + wg * 64, col_base = si.work_tile.coord[1] * kTileN;
    if (map_d) {
      auto* box = reinterpret_cast<unsigned char*>(staging.ptr(si.context)) + wg * 16384;
      store_fragment_tma(frag, box, map_d, row_base, col_base, si.thread.thread_in_task % 128, ts::kFirstBodyBarrier + wg);
      return;
    }
    store_fragment_direct(frag, d, M, N, row_base, col_base, si.thread.warp_in_task() % 4, si.thread.lane());
  }
  // Auxiliary: the last asynchronous stores complete before the CTA exits.
  TS_HD void drain(ts::AuxStage const& si) const {
    if (map_d) drain_fragment_stores(si.thread.thread_in_task % 128);
  }
};

// ---- schedules ----

// The load task over any ring type (the operand-layout variants derive their rings).
template <class Ring>
struct LayoutLoadSchedule {
  template <class S, class G, class Smem, class Q>
  TS_HD void operator()(S& s, G& gmem, Smem& smem, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      s.domain_loop(0, ts::runtime(gmem->k_iters(), "k_iters").at_least(1), 1, [&] {
        smem.acquire();
        auto src = ts::work<&GmemAB::source>(gmem);
        ts::work<&Ring::load>(smem, src);
        smem.commit();
      });
      ts::queue_epilogue(wq);
    });
  }
};
struct LoadSchedule : LayoutLoadSchedule<SmemAB> {};

// The main loop of one tile, shared by every GEMM variant's math schedule: wait for a
// stage, issue its MMAs, release the previous stage once they retired (the issue part); at
// the end retire all and release the last stage (the tail). Descriptors / Mma name the
// variant's work methods (another operand layout derives its own); k_iters is the domain
// bound (runtime or per tile).
template <auto Descriptors = &SmemAB::descriptors, auto Mma = &Accumulator::mma, class S, class Smem, class Acc,
          class Bound>
TS_HD void tile_main_loop_issue(S& s, Smem& smem, Acc& acc, Bound const& k_iters) {
  ts::work<&Accumulator::begin_tile>(acc);
  s.domain_loop(0, k_iters, 1, [&] {
    smem.wait();
    auto descs = ts::work<Descriptors>(smem);
    ts::work<Mma>(acc, descs);
    ts::work<&Accumulator::retire_previous>(acc);
    s.every(1, 1, [&] { smem.release(); });  // the previous stage: its MMAs have retired
  });
}
// The main loop's tail: the last stage's MMAs retire, then the stage goes back. Split from
// the issue so a ping-pong group can hand the tensor core to the other group between the
// two (its MMAs queue behind these instead of after a drain).
template <class Smem, class Acc>
TS_HD void tile_main_loop_tail(Smem& smem, Acc& acc) {
  ts::work<&Accumulator::retire_all>(acc);
  smem.release();  // the last stage
}
template <auto Descriptors = &SmemAB::descriptors, auto Mma = &Accumulator::mma, class S, class Smem, class Acc,
          class Bound>
TS_HD void tile_main_loop(S& s, Smem& smem, Acc& acc, Bound const& k_iters) {
  tile_main_loop_issue<Descriptors, Mma>(s, smem, acc, k_iters);
  tile_main_loop_tail(smem, acc);
}

// The math task over any ring and accumulator type.
template <class Ring, class Acc>
struct LayoutMathSchedule {
  template <class S, class Smem, class A, class Out, class Q>
  TS_HD void operator()(S& s, Smem& smem, A& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      tile_main_loop<&Ring::descriptors, &Acc::mma>(s, smem, acc, ts::runtime(out->k_iters, "k_iters").at_least(1));
      ts::work<&GmemD::store>(out, ts::work<&Accumulator::fragment>(acc));
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemD::drain>(out);
  }
};
struct MathSchedule : LayoutMathSchedule<SmemAB, Accumulator> {};

// An operand layout as one type, the GEMM's type parameter (make_gemm<Layout>): the ring
// (its TMA boxes and wgmma descriptors), the accumulator (the MMA's operand majors) and
// the two schedules over them. The tasks, pipeline, graph and scheduler do not change
// with it. Both operands K-major here; gemm_layouts.hpp and gemm_colmajor_a.hpp add the
// MN-major ones.
template <class R, class A, class L = LayoutLoadSchedule<R>, class M = LayoutMathSchedule<R, A>>
struct OperandLayout {
  using Ring = R;
  using Acc = A;
  using Load = L;
  using Math = M;
};
using KMajorAB = OperandLayout<SmemAB, Accumulator, LoadSchedule, MathSchedule>;

}  // namespace gemm
