// The Hopper BF16 GEMM as TS resources and schedules (cooperative shape):
//   D[M][N] = A[M][K] * B[N][K]^T, bf16 in, fp32 accumulate, bf16 out.
// A producer warp issues TMA loads of 128x64 A and 256x64 B slices into a TmaAsync SMEM
// ring; a math task of two warpgroups (8 warps) issues wgmma from the ring into register
// accumulators (each warpgroup 64 x 256 of the 128 x 256 tile), releasing each stage once
// the next stage's MMAs are issued and the previous ones retired; the epilogue stores the
// accumulators; a static persistent queue walks the tiles in a grouped order.
//
// Included by host code (capture, verification, printout) and device code (sm_90a).
// Device-only instructions sit behind __CUDA_ARCH__. The host branches run the same
// bodies on the CPU emulator through the portable arch layer: TMA boxes by
// ts::arch::tensor_copy_2d_g2s (the map pointers then point at ts::arch::TensorMap2D),
// wgmma emulated per thread on the same register fragment (ts/arch/emulated_mma.hpp),
// the direct-store epilogue. Host SMEM holds the boxes unswizzled: the 128-byte swizzle
// is a device-only layout detail of the TMA boxes and wgmma descriptors.
#pragma once
#include <cstdint>

#include "ts/core/named_barriers.hpp"
#include "ts/runtime/scheduler/queue.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/schedule.hpp"
#if defined(__CUDA_ARCH__)
#include <cuda.h>
#include <cuda_bf16.h>

#include "ts/arch/sm90_epilogue.cuh"
#include "ts/arch/cuda_copy.cuh"
#include "ts/arch/sm90_wgmma.cuh"
#else
#include "ts/arch/bf16.hpp"
#include "ts/arch/emulated_mma.hpp"
#include "ts/arch/portable.hpp"
#endif

namespace gemm {

constexpr int kTileM = 128, kTileN = 256, kTileK = 64;
constexpr int kStages = 4;
constexpr int kGroupM = 8;
constexpr int kBytesA = kTileM * kTileK * 2, kBytesB = kTileN * kTileK * 2;

// Tiles in a grouped raster: kGroupM tile rows at a time, so a group's B slices stay in L2.
TS_HD inline ts::WorkTile grouped_tile(int t, int num_tiles, int tiles_m, int tiles_n) {
  ts::WorkTile w;
  w.tile_idx = t;
  w.valid = t < num_tiles;
#if !defined(__CUDA_ARCH__)
  // Past the last tile the group arithmetic can divide by zero (rows == 0 when the tile
  // rows are a multiple of kGroupM): harmless on the GPU, where the result of an invalid
  // tile is never used, but a trap on the host.
  if (!w.valid) return w;
#endif
  int per_group = kGroupM * tiles_n;
  int first_m = (t / per_group) * kGroupM;
  int rows = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
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
  TS_HD ts::WorkTile make_tile(int t) const { return grouped_tile(t, this->num_tiles, tiles_m, tiles_n); }
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
  // Producer work: the elected lane issues both TMA loads onto the stage's full barrier.
  TS_HD void load(ts::ProducerStage const& si, TileSource src) const {
#if defined(__CUDA_ARCH__)
    if (si.thread.thread_in_task == 0) {
      auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK;
      auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
      ts::cuda::tensor_load_2d(base_a, static_cast<CUtensorMap const*>(map_a), src.k, src.m, si.barrier);
      ts::cuda::tensor_load_2d(base_b, static_cast<CUtensorMap const*>(map_b), src.k, src.n, si.barrier);
    }
#else
    if (si.thread.thread_in_task == 0) {
      auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK;
      auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
      ts::arch::tensor_copy_2d_g2s(base_a, *static_cast<ts::arch::TensorMap2D const*>(map_a), src.k, src.m, si.barrier);
      ts::arch::tensor_copy_2d_g2s(base_b, *static_cast<ts::arch::TensorMap2D const*>(map_b), src.k, src.n, si.barrier);
    }
#endif
  }
  // Consumer work: descriptors of this warpgroup's operands in the waited stage.
  TS_HD StageDescs descriptors(ts::ConsumerStage const& si) const {
#if defined(__CUDA_ARCH__)
    int wg = si.thread.warp_in_task() / 4;
    auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK + wg * 64 * kTileK;
    auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
    return StageDescs{ts::sm90::desc_k_major_sw128(base_a), ts::sm90::desc_k_major_sw128(base_b)};
#else
    // The emulated "descriptor" is the address of the unswizzled K-major box.
    int wg = si.thread.warp_in_task() / 4;
    auto* base_a = a.ptr(si.context) + si.stage_idx * kTileM * kTileK + wg * 64 * kTileK;
    auto* base_b = b.ptr(si.context) + si.stage_idx * kTileN * kTileK;
    return StageDescs{uint64_t(reinterpret_cast<uintptr_t>(base_a)), uint64_t(reinterpret_cast<uintptr_t>(base_b))};
#endif
  }
};

// Register accumulators of the math warpgroups (per-thread state of the resource).
struct Accumulator : ts::MemoryResource {
  float acc[128];
  bool fresh;
  // Auxiliary: a new tile starts; the first MMA overwrites instead of accumulating.
  TS_HD void begin_tile(ts::AuxStage const&) { fresh = true; }
  // Producer work into the accumulator: four k16 MMAs of one stage, committed as a group.
  TS_HD void mma([[maybe_unused]] ts::ProducerStage const& si, StageDescs d) {
#if defined(__CUDA_ARCH__)
    ts::sm90::fence_accumulators(acc);
    ts::sm90::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kTileK / 16; ++kk)
      ts::sm90::wgmma_m64n256k16_bf16(acc, d.a + 2 * kk, d.b + 2 * kk, (fresh && kk == 0) ? 0 : 1);
    ts::sm90::wgmma_commit();
#else
    auto const* a = reinterpret_cast<uint16_t const*>(uintptr_t(d.a));
    auto const* b = reinterpret_cast<uint16_t const*>(uintptr_t(d.b));
    int t = si.thread.thread_in_task % 128;  // this thread's place in its warpgroup's fragment
    for (int kk = 0; kk < kTileK / 16; ++kk)
      ts::arch::emu::wgmma_m64n256k16_bf16(acc, a + 16 * kk, kTileK, b + 16 * kk, kTileK, t, !(fresh && kk == 0));
    ts::arch::emu::wgmma_commit(acc);
#endif
    fresh = false;
  }
  // Auxiliary: all but the newest MMA group have finished reading shared memory.
  TS_HD void retire_previous(ts::AuxStage const&) {
#if defined(__CUDA_ARCH__)
    ts::sm90::wgmma_wait<1>();
    ts::sm90::fence_accumulators(acc);
#else
    ts::arch::emu::wgmma_wait(acc, 1);  // the emulated MMAs of older groups read SMEM now
#endif
  }
  TS_HD void retire_all(ts::AuxStage const&) {
#if defined(__CUDA_ARCH__)
    ts::sm90::wgmma_wait<0>();
    ts::sm90::fence_accumulators(acc);
#else
    ts::arch::emu::wgmma_wait(acc, 0);
#endif
  }
  // Consumer work: the finished fragment.
  TS_HD float const* fragment(ts::ConsumerStage const&) const { return acc; }
};

// Global D. With a tensor map (N a multiple of 8) the epilogue stages each warp group's
// fragment through swizzled SMEM boxes and TMA stores them asynchronously; otherwise it
// stores bf16 pairs straight from registers.
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
#if defined(__CUDA_ARCH__)
    int wg = si.thread.warp_in_task() / 4;
    int row_base = si.work_tile.coord[0] * kTileM + wg * 64, col_base = si.work_tile.coord[1] * kTileN;
    if (map_d) {
      auto* box = reinterpret_cast<unsigned char*>(staging.ptr(si.context)) + wg * 16384;
      ts::sm90::store_fragment_tma(frag, box, static_cast<CUtensorMap const*>(map_d), row_base, col_base,
                                   si.thread.thread_in_task % 128, ts::kFirstBodyBarrier + wg);
      return;
    }
    auto* out = reinterpret_cast<__nv_bfloat16*>(d);
    int warp = si.thread.warp_in_task() % 4, lane = si.thread.lane();
    int row0 = row_base + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < 32; ++j) {
      int col = col_base + j * 8 + (lane % 4) * 2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int row = row0 + h * 8;
        if (row < M && col < N) {
          __nv_bfloat162 v = __floats2bfloat162_rn(frag[4 * j + 2 * h], frag[4 * j + 2 * h + 1]);
          if (col + 1 < N && (N & 1) == 0) {
            *reinterpret_cast<__nv_bfloat162*>(out + size_t(row) * N + col) = v;
          } else {
            out[size_t(row) * N + col] = v.x;
            if (col + 1 < N) out[size_t(row) * N + col + 1] = v.y;
          }
        }
      }
    }
#else
    // The direct-store path with the device's fragment -> (row, col) walk; bf16 rounding
    // to nearest even as __floats2bfloat162_rn does.
    if (map_d)
      ts::arch::emu::fail("GmemD::store: the TMA-store epilogue (map_d) is device-only; pass map_d = null to the emulator");
    int wg = si.thread.warp_in_task() / 4;
    int row_base = si.work_tile.coord[0] * kTileM + wg * 64, col_base = si.work_tile.coord[1] * kTileN;
    int warp = si.thread.warp_in_task() % 4, lane = si.thread.lane();
    int row0 = row_base + warp * 16 + lane / 4;
    for (int j = 0; j < 32; ++j) {
      int col = col_base + j * 8 + (lane % 4) * 2;
      for (int h = 0; h < 2; ++h) {
        int row = row0 + h * 8;
        if (row < M && col < N) {
          d[size_t(row) * N + col] = ts::arch::float_to_bf16(frag[4 * j + 2 * h]);
          if (col + 1 < N) d[size_t(row) * N + col + 1] = ts::arch::float_to_bf16(frag[4 * j + 2 * h + 1]);
        }
      }
    }
#endif
  }
  // Auxiliary: the last asynchronous stores complete before the CTA exits.
  TS_HD void drain(ts::AuxStage const& si) const {
#if defined(__CUDA_ARCH__)
    if (map_d) ts::sm90::drain_fragment_stores(si.thread.thread_in_task % 128);
#else
    (void)si;
#endif
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
// stage, issue its MMAs, release the previous stage once they retired; at the end retire
// all and release the last stage. Descriptors / Mma name the variant's work methods
// (another operand layout derives its own); k_iters is the domain bound (runtime or per tile).
template <auto Descriptors = &SmemAB::descriptors, auto Mma = &Accumulator::mma, class S, class Smem, class Acc,
          class Bound>
TS_HD void tile_main_loop(S& s, Smem& smem, Acc& acc, Bound const& k_iters) {
  ts::work<&Accumulator::begin_tile>(acc);
  s.domain_loop(0, k_iters, 1, [&] {
    smem.wait();
    auto descs = ts::work<Descriptors>(smem);
    ts::work<Mma>(acc, descs);
    ts::work<&Accumulator::retire_previous>(acc);
    s.every(1, 1, [&] { smem.release(); });  // the previous stage: its MMAs have retired
  });
  ts::work<&Accumulator::retire_all>(acc);
  smem.release();  // the last stage
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
