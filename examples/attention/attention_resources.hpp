// Forward attention O = softmax(Q K^T * scale [+ causal mask]) V (with LSE) as TS
// resources (docs/attention.md). Per CTA: one producer warp loads, per pair of Q blocks,
// both Q blocks once into a Q ring and then, block by block, K and V into a K ring and a
// V ring (TMA); two consumer warp groups each own one Q block and take turns on the
// rings, one stage each per K/V block (ring.skip(1), docs/turns.md).
//
// Work bodies: on the device attention_device.cuh (TMA, wgmma Q K^T from SMEM, P V with P
// from registers, softmax with quad shuffles); on the CPU emulator attention_emu.hpp (the
// same values per thread). Resource fields are the same on both sides (the host-built
// resource objects travel in the kernel parameters); each side uses its own.
#pragma once
#include <cstdint>

#include "attention_device.cuh"
#include "attention_emu.hpp"
#include "attention_plan.hpp"
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
#if defined(__CUDA_ARCH__)
    dev::load_tile<Rows, D>(tiles.ptr(si.context) + si.stage_idx * Rows * D, map, src.x, src.y, si.barrier);
#else
    ts::arch::tensor_copy_2d_g2s(tiles.ptr(si.context) + si.stage_idx * Rows * D,
                                 *static_cast<ts::arch::TensorMap2D const*>(map), src.x, src.y, si.barrier);
#endif
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
  static constexpr int BN = Dims<D>::kBlockN;
  float s[2][BN];  // emulator: the thread's two full rows; device: s[0][0 .. BN/2) is the fragment
  uint64_t q_stage, k_stage;
  int q_row0 = 0;
  // Producer work: issue the MMAs (they read SMEM when they retire).
  TS_HD void qk(ts::ProducerStage const&, uint64_t q, uint64_t k) {
#if defined(__CUDA_ARCH__)
    dev::qk_issue<D, BN, QRows>(&s[0][0], q + uint64_t(q_row0) * 64 * 2, k);  // row q_row0 of every chunk
#else
    q_stage = q + uint64_t(q_row0) * D * 2;  // host tiles are unswizzled rows of D
    k_stage = k;
#endif
  }
  // Auxiliary: wgmma.wait_group 0; only then may the K stage be released.
  TS_HD void retire(ts::AuxStage const& si) {
#if defined(__CUDA_ARCH__)
    (void)si;
    dev::retire<BN / 2>(&s[0][0]);
#else
    emu::scores<D, BN>(s, q_stage, k_stage, si.thread.thread_in_task % 128);
#endif
  }
  // Auxiliary (overlapped schedule): wgmma.wait_group 1, this Q K^T retired while the P V
  // committed after it may still run.
  TS_HD void retire_keep_one(ts::AuxStage const& si) {
#if defined(__CUDA_ARCH__)
    (void)si;
    dev::retire_keep_one<BN / 2>(&s[0][0]);
#else
    emu::scores<D, BN>(s, q_stage, k_stage, si.thread.thread_in_task % 128);
#endif
  }
  // Consumer work: the block's scores.
  TS_HD float const* fragment(ts::ConsumerStage const&) const { return &s[0][0]; }
};

// One warp group's output accumulator with the online-softmax state of its two rows.
template <int D>
struct OutAcc : ts::MemoryResource {
  static constexpr int BN = Dims<D>::kBlockN;
  Plan plan;
  int half = 0;  // which group: its rows start at plan.row0(half) of the Q block
  float o[D / 2];
  float m[2], l[2];  // running max (log2 units, scaled) and sum of exp2
  float factor[2];   // the overlapped schedule: this block's rescale factor, stats to apply
  float p[2][BN];    // emulator: probabilities of the current block, rounded to bf16 (the MMA's A)
  uint32_t pa[BN / 4];  // device: the same as bf16x2 pairs of the fragment (the RS MMA's A)
  uint64_t v_stage;
  // Auxiliary: a new Q block starts.
  TS_HD void begin_tile(ts::AuxStage const&) {
    for (int i = 0; i < D / 2; ++i) o[i] = 0;
    for (int r = 0; r < 2; ++r) {
      m[r] = -INFINITY;
      l[r] = 0;
    }
  }
  // Producer work: mask the block (keys past the sequence; causal: keys after the row),
  // move the running max, rescale O and the sum, and form P.
  TS_HD void softmax(ts::ProducerStage const& si, float const* scores) {
#if !defined(__CUDA_ARCH__)  // host first: the device branch is one call
    QBlock b = plan.block(si.work_tile);
    int const t = si.thread.thread_in_task % 128;
    int const key0 = int(si.loop_offset) * BN;
    float factor[2];
    for (int r = 0; r < 2; ++r) {
      int const row = b.q0 + plan.row0(half) + emu::row_of(t, r);
      float x[BN];
      float mx = -INFINITY;
      for (int c = 0; c < BN; ++c) {
        int const key = key0 + c;
        bool const valid = key < b.seqlen && (!plan.causal || key <= row);
        x[c] = valid ? scores[r * BN + c] * plan.scale_log2 : -INFINITY;
        mx = fmaxf(mx, x[c]);
      }
      float const m_new = fmaxf(m[r], mx);
      // A row with no valid key so far keeps m = -inf: nothing to rescale, P = 0.
      factor[r] = m_new == -INFINITY ? 1.0f : exp2f(m[r] - m_new);
      float sum = 0;
      for (int c = 0; c < BN; ++c) {
        float const e = m_new == -INFINITY ? 0.0f : exp2f(x[c] - m_new);
        sum += e;
        p[r][c] = ts::arch::bf16_to_float(ts::arch::float_to_bf16(e));
      }
      l[r] = l[r] * factor[r] + sum;
      m[r] = m_new;
    }
    for (int i = 0; i < D / 2; ++i) o[i] *= factor[(i / 2) % 2];
#else
    QBlock b = plan.block(si.work_tile);
    dev::softmax<D, BN>(scores, o, pa, m, l, dev::RowMask{b.q0 + plan.row0(half), b.seqlen, int(si.loop_offset) * BN, plan.causal != 0},
                        plan.scale_log2, si.thread.thread_in_task % 128);
#endif
  }
  // Producer work, the overlapped schedule's first half of softmax: mask, new row max and
  // exp2 of the scores in place (the Scores registers: the P V in flight reads only P and
  // O, which this leaves alone), the rescale factor kept for softmax_apply.
  TS_HD void softmax_stats(ts::ProducerStage const& si, float const* scores) {
    auto* sc = const_cast<float*>(scores);  // the Scores resource's own registers
    QBlock b = plan.block(si.work_tile);
    int const t = si.thread.thread_in_task % 128;
#if !defined(__CUDA_ARCH__)
    int const key0 = int(si.loop_offset) * BN;
    for (int r = 0; r < 2; ++r) {
      int const row = b.q0 + plan.row0(half) + emu::row_of(t, r);
      float mx = -INFINITY;
      for (int c = 0; c < BN; ++c) {
        int const key = key0 + c;
        bool const valid = key < b.seqlen && (!plan.causal || key <= row);
        sc[r * BN + c] = valid ? sc[r * BN + c] * plan.scale_log2 : -INFINITY;
        mx = fmaxf(mx, sc[r * BN + c]);
      }
      float const m_new = fmaxf(m[r], mx);
      factor[r] = m_new == -INFINITY ? 1.0f : exp2f(m[r] - m_new);
      for (int c = 0; c < BN; ++c) sc[r * BN + c] = m_new == -INFINITY ? 0.0f : exp2f(sc[r * BN + c] - m_new);
      m[r] = m_new;
    }
#else
    dev::softmax_stats<BN>(sc, m, factor, dev::RowMask{b.q0 + plan.row0(half), b.seqlen, int(si.loop_offset) * BN,
                                                       plan.causal != 0},
                           plan.scale_log2, t);
#endif
  }
  // Producer work, the second half (after the previous P V retired): rescale O and the
  // sum by the factor, form P.
  TS_HD void softmax_apply(ts::ProducerStage const&, float const* e) {
#if !defined(__CUDA_ARCH__)
    for (int r = 0; r < 2; ++r) {
      float sum = 0;
      for (int c = 0; c < BN; ++c) {
        sum += e[r * BN + c];
        p[r][c] = ts::arch::bf16_to_float(ts::arch::float_to_bf16(e[r * BN + c]));
      }
      l[r] = l[r] * factor[r] + sum;
    }
    for (int i = 0; i < D / 2; ++i) o[i] *= factor[(i / 2) % 2];
#else
    dev::softmax_apply<D, BN>(e, o, pa, l, factor);
#endif
  }
  // Producer work: issue O += P V (reads the V stage when it retires).
  TS_HD void pv(ts::ProducerStage const&, uint64_t v) {
#if defined(__CUDA_ARCH__)
    dev::pv_issue<D, BN>(o, pa, v);
#else
    v_stage = v;
#endif
  }
  // Auxiliary: wgmma.wait_group 0; only then may the V stage be released.
  TS_HD void retire(ts::AuxStage const& si) {
#if defined(__CUDA_ARCH__)
    (void)si;
    dev::retire<D / 2>(o);
#else
    emu::pv<D, BN>(o, p, v_stage, si.thread.thread_in_task % 128);
#endif
  }
  // Consumer work: the finished accumulator (normalised by the store).
  TS_HD OutAcc const* result(ts::ConsumerStage const&) const { return this; }
};

// One warp group's O and LSE in global memory (half H of every pair). On the emulator O
// is staged as bf16 in the group's own Q stage (the Q block is dead once the last Q K^T
// retired and the stage is released only after the store) and copied out from there; on
// the device it is stored as bf16 pairs straight from the fragment (a TMA-store epilogue
// through the Q stage is not written yet).
template <int D>
struct GmemO : ts::MemoryResource {
  Plan plan;
  int half = 0;
  uint16_t* o = nullptr;  // [tokens][hq][D] bf16 bits
  float* lse = nullptr;   // [hq][tokens]
  TS_HD void store(ts::ProducerStage const& si, OutAcc<D> const* acc, uint64_t q_stage) const {
#if !defined(__CUDA_ARCH__)
    QBlock b = plan.block(si.work_tile);
    int const head = plan.head(si.work_tile, half);
    bool const exists = plan.head_exists(si.work_tile, half);
    int const t = si.thread.thread_in_task % 128;
    int const q0 = b.q0 + plan.row0(half);  // the group's first row in the sequence
    auto* staging = const_cast<uint16_t*>(emu::as_tile(q_stage)) + plan.row0(half) * D;
    float inv_l[2];
    for (int r = 0; r < 2; ++r) inv_l[r] = acc->l[r] > 0 ? 1.0f / acc->l[r] : 0.0f;
    for (int i = 0; i < D / 2; ++i) {
      int const row = ts::arch::wgmma_d_row(t, i), col = ts::arch::wgmma_d_col(t, i);
      ts::arch::smem_store(staging + row * D + col, ts::arch::float_to_bf16(acc->o[i] * inv_l[(i / 2) % 2]));
    }
    if (!exists) return;
    for (int i = 0; i < D / 2; ++i) {
      int const row = ts::arch::wgmma_d_row(t, i), col = ts::arch::wgmma_d_col(t, i);
      if (q0 + row >= b.seqlen) continue;
      size_t const token = size_t(b.token0 + q0 + row);
      o[(token * plan.hq + head) * D + col] = ts::arch::smem_load(staging + row * D + col);
    }
    if (t % 4 == 0)  // one thread of the quad owning the row
      for (int r = 0; r < 2; ++r) {
        int const row = emu::row_of(t, r);
        if (q0 + row >= b.seqlen) continue;
        // LSE in natural log: m is log2-scaled.
        lse[size_t(head) * plan.total_tokens + b.token0 + q0 + row] =
            acc->m[r] * 0.69314718055994531f + logf(acc->l[r]);
      }
#else
    (void)q_stage;
    QBlock b = plan.block(si.work_tile);
    dev::store<D>(acc->o, acc->m, acc->l, o, lse, b.token0, b.q0 + plan.row0(half), b.seqlen, plan.head(si.work_tile, half), plan.hq,
                  plan.total_tokens, plan.head_exists(si.work_tile, half), si.thread.thread_in_task % 128);
#endif
  }
};

// The order of the two groups' Q K^T issues: synchronisation only, no data (a one-stage
// ping-pong pipe, one arrival per warp of the passing group).
struct MathOrder : ts::MemoryResource {
  static constexpr auto pipeline = ts::async_async(
      {.num_stages = 1, .producer_signal = ts::Signal::TaskWarpLeader, .consumer_signal = ts::Signal::TaskWarpLeader});
};

}  // namespace attn
