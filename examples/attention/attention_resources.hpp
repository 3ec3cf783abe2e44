// Forward attention O = softmax(Q K^T * scale [+ causal mask]) V (with LSE) as TS
// resources (docs/attention.md). Per CTA: one producer warp loads, per pair of Q blocks,
// both Q blocks once into a Q ring and then, block by block, K and V into a K ring and a
// V ring (TMA); two consumer warp groups each own one Q block and take turns on the
// rings, one stage each per K/V block (ring.skip(1), docs/turns.md).
//
// Work bodies call one function per step, attn::step::* (the backend's arithmetic): on
// the device attention_device.cuh (TMA, wgmma Q K^T from SMEM, P V with P from registers,
// softmax with quad shuffles); on the CPU emulator attention_emu.hpp (the same values per
// thread, whole rows per thread: the emulator has no shuffles). Which of the two a pass
// compiles is TS_BACKEND_HEADER's choice (ts/arch/backend.hpp). Resource fields are the
// same on both sides (the host-built resource objects travel in the kernel parameters);
// each side uses its own.
#pragma once
#include <cstdint>

#include "attention_plan.hpp"
#include "ts/arch/backend.hpp"
#include TS_BACKEND_HEADER("attention_device.cuh", "attention_emu.hpp")
#include "ts/core/pipeline_config.hpp"
#include "ts/schedule.hpp"

namespace attn {

// Where a TMA box of one stage comes from (a task-local value): element column x (head *
// D) and token row y of the packed [tokens][heads * D] tensor.
struct Box {
  int x = 0, y = 0;
};

// Q, K and V in global memory as the load task sees them (the maps sit on the rings).
template <int D>
struct GmemQKV : ts::MemoryResource {
  Plan plan;
  // Consumer work: half H's Q block.
  template <int H>
  TS_HD Box q_box(ts::ConsumerStage const& si) const {
    QBlock b = plan.block(si.work_tile);
    return Box{plan.head(si.work_tile, H) * D, b.token0 + b.q0};
  }
  // Consumer work: half H's K/V block of this iteration (the same box in K and V).
  template <int H>
  TS_HD Box kv_box(ts::ConsumerStage const& si) const {
    QBlock b = plan.block(si.work_tile);
    return Box{plan.kv_head(plan.head(si.work_tile, H)) * D, b.token0 + int(si.loop_offset) * Dims<D>::kBlockN};
  }
};

// A TMA-filled SMEM ring of Rows x D bf16 tiles (Q: 64 rows, K and V: kBlockN rows),
// consumed in turns by the two warp groups (each releases a stage with one arrival per
// warp: TaskWarpLeader; the consumer group is one turn-taker, S6.26).
template <int Rows, int D, int Stages>
struct TileRing : ts::MemoryResource {
  static constexpr auto pipeline = ts::tma_async(
      {.num_stages = Stages, .num_bytes = Rows * D * 2, .consumer_signal = ts::Signal::TaskWarpLeader});
  ts::SmemArray<uint16_t> tiles;
  void const* map = nullptr;  // CUtensorMap* on the device; ts::arch::TensorMap2D* on the emulator
  void declare_allocations(ts::Allocations& al) { al.smem("tiles", tiles, Stages * Rows * D, 1024); }
  // Producer work: the elected lane issues the stage's box onto its full barrier.
  TS_HD void load(ts::ProducerStage const& si, Box src) const {
    if (si.thread.thread_in_task != 0) return;
    step::load_tile<Rows, D>(tiles.ptr(si.context) + si.stage_idx * Rows * D, map, src.x, src.y, si.barrier);
  }
  // Consumer work: the waited stage (its address on the emulator).
  TS_HD uint64_t operand(ts::ConsumerStage const& si) const {
    return uint64_t(reinterpret_cast<uintptr_t>(tiles.ptr(si.context) + si.stage_idx * Rows * D));
  }
};

template <int D>
using QRing = TileRing<Dims<D>::kBlockM, D, Dims<D>::kStagesQ>;
template <int D>
using KvRing = TileRing<Dims<D>::kBlockN, D, Dims<D>::kStagesKV>;

// One warp group's scores S = Q K^T of one K/V block (per-thread register state). The
// group's 64 Q rows start at row q_row0 of a QRows-row Q tile.
template <int D, int QRows = Dims<D>::kBlockM>
struct Scores : ts::MemoryResource {
  static constexpr int kD = D, kQRows = QRows, BN = Dims<D>::kBlockN;
  float s[2][BN];  // emulator: the thread's two full rows; device: s[0][0 .. BN/2) is the fragment
  uint64_t q_stage, k_stage;
  int q_row0 = 0;
  // Producer work: issue the MMAs (they read SMEM when they retire).
  TS_HD void qk(ts::ProducerStage const&, uint64_t q, uint64_t k) { step::qk(*this, q, k); }
  // Auxiliary: wgmma.wait_group 0; only then may the K stage be released.
  TS_HD void retire(ts::AuxStage const& si) { step::qk_retire<0>(*this, si.thread.thread_in_task % 128); }
  // Auxiliary (overlapped schedule): wgmma.wait_group 1, this Q K^T retired while the P V
  // committed after it may still run.
  TS_HD void retire_keep_one(ts::AuxStage const& si) { step::qk_retire<1>(*this, si.thread.thread_in_task % 128); }
  // Consumer work: the block's scores.
  TS_HD float const* fragment(ts::ConsumerStage const&) const { return &s[0][0]; }
};

// One warp group's output accumulator with the online-softmax state of its two rows.
template <int D>
struct OutAcc : ts::MemoryResource {
  static constexpr int kD = D, BN = Dims<D>::kBlockN;
  Plan plan;
  int half = 0;  // which group: its rows start at plan.row0(half) of the Q block
  float o[D / 2];
  float m[2], l[2];  // running max (log2 units, scaled) and sum of exp2
  float factor[2];   // the overlapped schedule: this block's rescale factor, stats to apply
  float p[2][BN];    // emulator: probabilities of the current block, rounded to bf16 (the MMA's A)
  uint32_t pa[BN / 4];  // device: the same as bf16x2 pairs of the fragment (the RS MMA's A)
  uint64_t v_stage;
  // The last block start key0 whose keys all count for every row of the group, this tile:
  // a block needs the mask only when key0 > last_unmasked_key0 (the last block of a ragged
  // sequence; causal, the diagonal blocks).
  int last_unmasked_key0 = 0;
  // Auxiliary: a new Q block starts. Keeping the mask threshold (one register) lets the
  // device read the Q block from global memory only in a masked block, not in every block.
  TS_HD void begin_tile(ts::AuxStage const& si) {
    for (int i = 0; i < D / 2; ++i) o[i] = 0;
    for (int r = 0; r < 2; ++r) {
      m[r] = -INFINITY;
      l[r] = 0;
    }
    QBlock const b = plan.block(si.work_tile);
    int const q0 = b.q0 + plan.row0(half);  // the group's first row
    int last = b.seqlen - BN;               // keys key0 .. key0 + BN - 1 inside the sequence
    if (plan.causal && q0 - BN + 1 < last) last = q0 - BN + 1;  // and none after row q0
    last_unmasked_key0 = last;
  }
  // Producer work: mask the block (keys past the sequence; causal: keys after the row),
  // move the running max, rescale O and the sum, and form P.
  TS_HD void softmax(ts::ProducerStage const& si, float const* scores) { step::softmax(*this, si, scores); }
  // Producer work, the overlapped schedule's first half of softmax: mask, new row max and
  // exp2 of the scores in place (the Scores registers: the P V in flight reads only P and
  // O, which this leaves alone), the rescale factor kept for softmax_apply.
  TS_HD void softmax_stats(ts::ProducerStage const& si, float const* scores) {
    step::softmax_stats(*this, si, const_cast<float*>(scores));  // the Scores resource's own registers
  }
  // Producer work: the same for block 0, which the overlapped schedule runs before its
  // K/V loop (loop_offset there is still the previous tile's).
  TS_HD void softmax_stats_first(ts::ProducerStage const& si, float const* scores) {
    ts::ProducerStage first = si;
    first.loop_offset = 0;
    step::softmax_stats(*this, first, const_cast<float*>(scores));
  }
  // Producer work, the second half (after the previous P V retired): rescale O and the
  // sum by the factor, form P.
  TS_HD void softmax_apply(ts::ProducerStage const&, float const* e) { step::softmax_apply(*this, e); }
  // Producer work: issue O += P V (reads the V stage when it retires).
  TS_HD void pv(ts::ProducerStage const&, uint64_t v) { step::pv(*this, v); }
  // Auxiliary: wgmma.wait_group 0; only then may the V stage be released.
  TS_HD void retire(ts::AuxStage const& si) { step::pv_retire(*this, si.thread.thread_in_task % 128); }
  // Consumer work: the finished accumulator (normalised by the store).
  TS_HD OutAcc const* result(ts::ConsumerStage const&) const { return this; }
};

// One warp group's O and LSE in global memory (half H of every pair). O is staged as bf16
// in the group's own rows of its Q stage (the Q block is dead once the last Q K^T retired
// and the stage is released only after the store) and copied out from there: on the
// device by TMA stores through map_o (the last block of a ragged sequence by 16-byte
// stores: attention_device.cuh, store_staged), on the emulator element by element.
// Without map_o the device stores O straight from the fragment (the device runner's
// TS_ATTN_STORE=regs, kept to measure the two against each other).
template <int D>
struct GmemO : ts::MemoryResource {
  Plan plan;
  int half = 0;
  uint16_t* o = nullptr;        // [tokens][hq][D] bf16 bits
  float* lse = nullptr;         // [hq][tokens]
  void const* map_o = nullptr;  // CUtensorMap* of O as [tokens][hq * D] in 64 x 64 boxes, 128-byte swizzle
  TS_HD void store(ts::ProducerStage const& si, OutAcc<D> const* acc, uint64_t q_stage) const {
    step::store(*this, si, *acc, q_stage);
  }
  // Auxiliary, after the tile loop: the last TMA stores complete before the CTA exits.
  TS_HD void drain(ts::AuxStage const& si) const { step::drain(*this, si.thread.thread_in_task % 128); }
};

// The order of the two groups' Q K^T issues: synchronisation only, no data (a one-stage
// ping-pong pipe, one arrival per warp of the passing group).
struct MathOrder : ts::MemoryResource {
  static constexpr auto pipeline = ts::async_async(
      {.num_stages = 1, .producer_signal = ts::Signal::TaskWarpLeader, .consumer_signal = ts::Signal::TaskWarpLeader});
};

}  // namespace attn
