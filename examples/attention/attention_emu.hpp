// Host (CPU emulator) arithmetic of the attention work bodies. The device runs wgmma on
// fragments spread over a warp group; the emulator gives each thread exactly the values
// its device fragment holds, computed from SMEM by that thread alone:
//   * a thread owns two query rows of its group's 64-row block, r0 = 16 w + l / 4 and
//     r0 + 8 (the wgmma D-fragment rows, ts::arch::wgmma_d_row), and keeps their full
//     score rows (the device spreads a row over the 4 threads of a quad and reduces the
//     row max and sum with shuffles; here the 4 threads compute the same row alike);
//   * its O elements are the D/2 floats of the m64nD fragment (wgmma_d_row / wgmma_d_col).
// As on the device the MMAs read SMEM only when they retire (the aux retire_* steps), so a
// schedule that released a stage before its MMAs retired reads a refilled stage here too.
// SMEM reads go through ts::arch::smem_check (range and, with detect_races, races). Every
// thread of a group reads the whole K (V) tile; only lane 0 of each warp reports that read
// (the race detector keeps a list of readers per byte, and 128 readers of 32 KiB made a run
// minutes long): lanes of a warp reconverge at every synchronisation step, so lane 0's
// read is ordered exactly as its lanes' are, and a race with the TMA refill still shows.
//
// The attn::step functions at the end are the names the work bodies call
// (attention_resources.hpp); attention_device.cuh defines the same ones for sm_90a, and
// ts/arch/backend.hpp picks this file on the host.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "attention_plan.hpp"
#include "ts/arch/bf16.hpp"
#include "ts/arch/emulated_mma.hpp"
#include "ts/arch/portable.hpp"
#include "ts/core/stage_info.hpp"

namespace attn::emu {

inline uint16_t const* as_tile(uint64_t address) { return reinterpret_cast<uint16_t const*>(uintptr_t(address)); }

// Thread t's two rows of the 64-row block.
inline int row_of(int t, int r) { return ts::arch::wgmma_d_row(t, 2 * r); }

// s[r][c] = Q[row r] . K[c] over D, for the thread's two rows and kBlockN keys.
template <int D, int BN>
void scores(float (&s)[2][BN], uint64_t q_stage, uint64_t k_stage, int t) {
  uint16_t const* q = as_tile(q_stage);
  uint16_t const* k = as_tile(k_stage);
  if (t % 32 == 0) ts::arch::smem_check(k, size_t(BN) * D * 2, false);
  for (int r = 0; r < 2; ++r) {
    uint16_t const* qr = q + size_t(row_of(t, r)) * D;
    ts::arch::smem_check(qr, size_t(D) * 2, false);
    float qf[D];
    for (int d = 0; d < D; ++d) qf[d] = ts::arch::bf16_to_float(qr[d]);
    for (int c = 0; c < BN; ++c) {
      uint16_t const* kc = k + size_t(c) * D;
      float acc = 0;
      for (int d = 0; d < D; ++d) acc += qf[d] * ts::arch::bf16_to_float(kc[d]);
      s[r][c] = acc;
    }
  }
}

// o[i] += sum_c p[row(i)][c] * V[c][col(i)] over the thread's m64nD fragment.
template <int D, int BN>
void pv(float* o, float const (&p)[2][BN], uint64_t v_stage, int t) {
  uint16_t const* v = as_tile(v_stage);
  if (t % 32 == 0) ts::arch::smem_check(v, size_t(BN) * D * 2, false);
  for (int i = 0; i < D / 2; ++i) {
    int const r = (i / 2) % 2;  // fragment row half: row_of(t, r)
    int const col = ts::arch::wgmma_d_col(t, i);
    float acc = 0;
    for (int c = 0; c < BN; ++c) acc += p[r][c] * ts::arch::bf16_to_float(v[size_t(c) * D + col]);
    o[i] += acc;
  }
}

}  // namespace attn::emu

// ---- the steps the work bodies call (attention_resources.hpp; same names in attention_device.cuh) ----
namespace attn::step {

// One box of Rows x D (the host map's box is a whole row of D: no swizzle, no chunks).
template <int Rows, int D>
inline void load_tile(uint16_t* dst, void const* map, int x, int y, uint64_t* bar) {
  ts::arch::tensor_load_2d(dst, map, x, y, bar);
}
// The "issue": the operands' addresses, read when the MMA retires.
template <class Sc>
inline void qk(Sc& sc, uint64_t q, uint64_t k) {
  sc.q_stage = q + uint64_t(sc.q_row0) * Sc::kD * 2;  // host tiles are unswizzled rows of D
  sc.k_stage = k;
}
// Retiring runs the MMA (the P V after it needs nothing of it: Pending makes no difference).
template <int Pending, class Sc>
inline void qk_retire(Sc& sc, int t) {
  emu::scores<Sc::kD, Sc::BN>(sc.s, sc.q_stage, sc.k_stage, t);
}
template <class Acc>
inline void softmax_stats(Acc& a, ts::ProducerStage const& si, float* sc) {
  constexpr int BN = Acc::BN;
  int const t = si.thread.thread_in_task % 128;
  int const key0 = int(si.loop_offset) * BN;
  // As the device: the mask applies only past begin_tile's threshold (a wrong threshold
  // leaves keys unmasked and the reference check fails), and only then is the block read.
  bool const masked = key0 > a.last_unmasked_key0;
  QBlock const b = masked ? a.plan.block(si.work_tile) : QBlock{};
  for (int r = 0; r < 2; ++r) {
    int const row = b.q0 + a.plan.row0(a.half) + emu::row_of(t, r);
    float mx = -INFINITY;
    for (int c = 0; c < BN; ++c) {
      int const key = key0 + c;
      bool const valid = !masked || (key < b.seqlen && (!a.plan.causal || key <= row));
      sc[r * BN + c] = valid ? sc[r * BN + c] * a.plan.scale_log2 : -INFINITY;
      mx = fmaxf(mx, sc[r * BN + c]);
    }
    float const m_new = fmaxf(a.m[r], mx);
    a.factor[r] = m_new == -INFINITY ? 1.0f : exp2f(a.m[r] - m_new);
    for (int c = 0; c < BN; ++c) sc[r * BN + c] = m_new == -INFINITY ? 0.0f : exp2f(sc[r * BN + c] - m_new);
    a.m[r] = m_new;
  }
}
template <class Acc>
inline void softmax_apply(Acc& a, float const* e) {
  constexpr int BN = Acc::BN, D = Acc::kD;
  for (int r = 0; r < 2; ++r) {
    float sum = 0;
    for (int c = 0; c < BN; ++c) {
      sum += e[r * BN + c];
      a.p[r][c] = ts::arch::bf16_to_float(ts::arch::float_to_bf16(e[r * BN + c]));
    }
    a.l[r] = a.l[r] * a.factor[r] + sum;
  }
  for (int i = 0; i < D / 2; ++i) a.o[i] *= a.factor[(i / 2) % 2];
}
// The whole online softmax of one block: the overlapped schedule's two halves back to
// back, on a copy (the scores stay the caller's).
template <class Acc>
inline void softmax(Acc& a, ts::ProducerStage const& si, float const* scores) {
  float e[2 * Acc::BN];
  std::copy(scores, scores + 2 * Acc::BN, e);
  softmax_stats(a, si, e);
  softmax_apply(a, e);
}
template <class Acc>
inline void pv(Acc& a, uint64_t v) {
  a.v_stage = v;
}
template <class Acc>
inline void pv_retire(Acc& a, int t) {
  emu::pv<Acc::kD, Acc::BN>(a.o, a.p, a.v_stage, t);
}
// O staged as bf16 in the group's own Q stage (dead once the last Q K^T retired; released
// only after this store), copied out from there; LSE by one thread of each quad.
template <class Out, class Acc>
inline void store(Out const& g, ts::ProducerStage const& si, Acc const& acc, uint64_t q_stage) {
  constexpr int D = Acc::kD;
  QBlock b = g.plan.block(si.work_tile);
  int const head = g.plan.head(si.work_tile, g.half);
  bool const exists = g.plan.head_exists(si.work_tile, g.half);
  int const t = si.thread.thread_in_task % 128;
  int const q0 = b.q0 + g.plan.row0(g.half);  // the group's first row in the sequence
  auto* staging = const_cast<uint16_t*>(emu::as_tile(q_stage)) + g.plan.row0(g.half) * D;
  float inv_l[2];
  for (int r = 0; r < 2; ++r) inv_l[r] = acc.l[r] > 0 ? 1.0f / acc.l[r] : 0.0f;
  for (int i = 0; i < D / 2; ++i) {
    int const row = ts::arch::wgmma_d_row(t, i), col = ts::arch::wgmma_d_col(t, i);
    ts::arch::smem_store(staging + row * D + col, ts::arch::float_to_bf16(acc.o[i] * inv_l[(i / 2) % 2]));
  }
  if (!exists) return;
  for (int i = 0; i < D / 2; ++i) {
    int const row = ts::arch::wgmma_d_row(t, i), col = ts::arch::wgmma_d_col(t, i);
    if (q0 + row >= b.seqlen) continue;
    size_t const token = size_t(b.token0 + q0 + row);
    g.o[(token * g.plan.hq + head) * D + col] = ts::arch::smem_load(staging + row * D + col);
  }
  if (t % 4 == 0)  // one thread of the quad owning the row
    for (int r = 0; r < 2; ++r) {
      int const row = emu::row_of(t, r);
      if (q0 + row >= b.seqlen) continue;
      // LSE in natural log: m is log2-scaled.
      g.lse[size_t(head) * g.plan.total_tokens + b.token0 + q0 + row] = acc.m[r] * 0.69314718055994531f + logf(acc.l[r]);
    }
}

// The emulator's stores are done when store() returns.
template <class Out>
inline void drain(Out const&, int) {}

}  // namespace attn::step
