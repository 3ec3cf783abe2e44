// The Blackwell-shaped BF16 GEMM of the seeds as TS resources and schedules:
//   D[M][N] = A[M][K] * B[N][K]^T, bf16 in, fp32 accumulate in tensor memory, bf16 out.
// A TMA warp loads 128x64 A and 256x64 B boxes into a TmaUmma SMEM ring; one MMA warp
// issues UMMA (tcgen05.mma, 128x256x16, four per stage) from the ring into a TMEM
// accumulator (an UmmaAsync pipeline of two 256-column stages, so the MMAs of tile i+1
// overlap the epilogue of tile i); four epilogue warps read the accumulator out of TMEM
// (each thread one row, the lane its warp may access) and store bf16 to D. A static
// persistent queue or a CLC scheduler task (ClcFetchAsync) hands out the tiles.
//
// sm_100a hardware is not available here (SPEC S14): the work bodies call the portable
// layer's emulated UMMA / TMEM (ts/arch/emulated_mma.hpp) and run on the CPU emulator
// only; they are host code. Tile sizes, the TMA boxes and the A/B source are the Hopper
// GEMM's (gemm_resources.hpp).
#pragma once
#include <cstdint>

#include "gemm_resources.hpp"
#include "ts/arch/bf16.hpp"
#include "ts/arch/emulated_mma.hpp"
#include "ts/arch/portable.hpp"
#include "ts/schedule.hpp"

namespace gemm::bw {

constexpr int kStages = 4;     // A/B ring depth (48 KiB a stage)
constexpr int kAccStages = 2;  // TMEM accumulators: 2 x 256 columns = all 512
constexpr int kUmmaK = 16;     // K of one tcgen05.mma.kind::f16

// The two operand boxes of one stage (SMEM addresses, K-major, unswizzled on the host).
struct UmmaOperands {
  uint16_t const* a = nullptr;
  uint16_t const* b = nullptr;
};

// The SMEM ring of A/B boxes: TMA producer, UMMA consumer (TmaUmma).
struct SmemAB : ts::MemoryResource {
  // TMA in, tcgen05 MMA out; the stage bytes (A and B slices) are derived from the SMEM below.
  static constexpr auto pipeline = ts::tma_umma({.num_stages = kStages});
  ts::SmemArray<uint16_t> a, b;
  void const* map_a = nullptr;  // ts::arch::TensorMap2D*
  void const* map_b = nullptr;
  void declare_allocations(ts::Allocations& al) {
    al.smem("a_stages", a, kStages * kTileM * kTileK, 1024);
    al.smem("b_stages", b, kStages * kTileN * kTileK, 1024);
  }
  // Producer work: the elected lane issues both TMA loads onto the stage's full barrier.
  void load(ts::ProducerStage const& si, TileSource src) const {
    if (si.thread.thread_in_task != 0) return;
    ts::arch::tensor_copy_2d_g2s(a.ptr(si.context) + si.stage_idx * kTileM * kTileK,
                                 *static_cast<ts::arch::TensorMap2D const*>(map_a), src.k, src.m, si.barrier);
    ts::arch::tensor_copy_2d_g2s(b.ptr(si.context) + si.stage_idx * kTileN * kTileK,
                                 *static_cast<ts::arch::TensorMap2D const*>(map_b), src.k, src.n, si.barrier);
  }
  // Consumer work: where the waited stage's boxes are (what UMMA descriptors encode).
  UmmaOperands operands(ts::ConsumerStage const& si) const {
    return {a.ptr(si.context) + si.stage_idx * kTileM * kTileK, b.ptr(si.context) + si.stage_idx * kTileN * kTileK};
  }
};

// The fp32 accumulator in tensor memory: 128 lanes (tile rows) x 256 columns a stage.
// UMMA producer (the MMA engine completes a stage through tcgen05.commit), thread consumers.
struct TmemAccumulator : ts::MemoryResource {
  // The MMA engine commits, the epilogue warps release (one arrival per warp; group derived).
  static constexpr auto pipeline = ts::umma_async({.num_stages = kAccStages, .consumer_signal = ts::Signal::TaskWarpLeader});
  ts::TmemColumns cols;
  int k_iters = 0;  // K extent in stages: the MMA task's domain (it never touches GMEM A/B)
  void declare_allocations(ts::Allocations& al) { al.tmem("acc_tmem", cols, kAccStages * kTileN); }
  // Producer work: the MMA warp's leader issues the stage's four UMMAs; the first
  // k-block of a tile overwrites the accumulator.
  void mma(ts::ProducerStage const& si, UmmaOperands ops) const {
    if (si.thread.thread_in_task != 0) return;
    uint32_t col = cols.addr(si.context) + uint32_t(si.stage_idx * kTileN);
    for (int kk = 0; kk < kTileK / kUmmaK; ++kk)
      ts::arch::emu::umma_bf16(col, ops.a + kk * kUmmaK, kTileK, ops.b + kk * kUmmaK, kTileK,
                               {kTileM, kTileN, kUmmaK}, si.loop_offset > 0 || kk > 0);
  }
  // Consumer work: the first TMEM column of the waited accumulator stage.
  uint32_t column(ts::ConsumerStage const& si) const { return cols.addr(si.context) + uint32_t(si.stage_idx * kTileN); }
};

// Global D, written by the epilogue warps straight from TMEM (tcgen05.ld, then bf16).
struct GmemD : ts::MemoryResource {
  uint16_t* d = nullptr;  // bf16 bits, M x N row-major
  int M = 0, N = 0;
  // Producer work: thread t of the 128 epilogue threads owns TMEM lane (= tile row)
  // 32 * (warp % 4) + lane, read 32 columns at a time.
  void store(ts::ProducerStage const& si, uint32_t tmem_col) const {
    int lane = 32 * ((si.thread.thread_in_block / 32) % 4) + si.thread.lane();
    int row = si.work_tile.coord[0] * kTileM + lane, col0 = si.work_tile.coord[1] * kTileN;
    float chunk[32];
    for (int c = 0; c < kTileN; c += 32) {
      ts::arch::emu::tmem_load_row(chunk, tmem_col + uint32_t(c), lane, 32, si.thread);
      for (int j = 0; j < 32; ++j)
        if (row < M && col0 + c + j < N) d[size_t(row) * N + col0 + c + j] = ts::arch::float_to_bf16(chunk[j]);
    }
  }
};

// ---- schedules ----

struct LoadSchedule {
  template <class S, class G, class Smem, class Q>
  void operator()(S& s, G& gmem, Smem& smem, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      s.domain_loop(0, ts::runtime(gmem->k_iters(), "k_iters").at_least(1), 1, [&] {
        smem.acquire();
        auto src = ts::work<&GmemAB::source>(gmem);
        ts::work<&SmemAB::load>(smem, src);
        smem.commit();  // TMA completes the stage by bytes
      });
      ts::queue_epilogue(wq);
    });
  }
};

struct MmaSchedule {
  template <class S, class Smem, class Acc, class Q>
  void operator()(S& s, Smem& smem, Acc& acc, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      acc.acquire();  // a free TMEM stage (the epilogue drained it)
      s.domain_loop(0, ts::runtime(acc->k_iters, "k_iters").at_least(1), 1, [&] {
        smem.wait();
        auto ops = ts::work<&SmemAB::operands>(smem);
        ts::work<&TmemAccumulator::mma>(acc, ops);
        smem.release();  // tcgen05.commit: the stage frees once these MMAs have read it
      });
      acc.commit();  // tcgen05.commit: the accumulator is complete once every MMA ran
      ts::queue_epilogue(wq);
    });
  }
};

struct EpilogueSchedule {
  template <class S, class Acc, class Out, class Q>
  void operator()(S& s, Acc& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      acc.wait();
      ts::work<&GmemD::store>(out, ts::work<&TmemAccumulator::column>(acc));
      acc.release();  // the MMA warp may start the next-but-one tile in this stage
      ts::queue_epilogue(wq);
    });
  }
};

}  // namespace gemm::bw
