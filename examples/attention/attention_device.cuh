// The sm_90a arithmetic of the attention work bodies: attention_resources.hpp calls the
// attn::step functions at the end (the emulator's counterpart, attention_emu.hpp, defines
// the same names; ts/arch/backend.hpp picks this file in the device pass).
//
// SMEM tiles are written by TMA with 128-byte swizzle in 64-column chunks: a Rows x D tile
// is D / 64 chunks of Rows x 64 bf16, chunk c at c * Rows * 64 elements (1024-byte aligned).
//   * Q K^T: A = the Q chunk (K-major), B = the K chunk (K-major), m64 x kBlockN x k16, 4 k16
//     steps per chunk (+32 bytes each), SMEM descriptors as the GEMM's.
//   * P V: A = P from registers (the S accumulator fragment, rounded to bf16x2 pairs), B = V
//     (kBlockN keys x D, D contiguous: MN-major, transposed), m64 x D x k16 per 16 keys.
//   * softmax: a thread's fragment holds two rows (16 w + l / 4 and + 8) of 2 x kBlockN / 8
//     columns; the row max is reduced over the quad with shuffles, the row sum stays a
//     per-thread partial until the store (the rescale factor is the same for the quad).
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include "attention_plan.hpp"
#include "ts/arch/portable.hpp"
#include "ts/arch/sm90_wgmma.cuh"
#include "ts/arch/sm90_wgmma_rs.cuh"
#include "ts/core/named_barriers.hpp"
#include "ts/core/stage_info.hpp"

namespace attn::dev {

__device__ inline float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// The stage's D / 64 TMA boxes (64 columns x Rows rows each) onto its full barrier.
template <int Rows, int D>
__device__ inline void load_tile(uint16_t* dst, void const* map, int x, int y, uint64_t* bar) {
#pragma unroll
  for (int c = 0; c < D / 64; ++c)
    ts::arch::tensor_load_2d(dst + c * Rows * 64, map, x + 64 * c, y, bar);
}

// S = Q K^T (issued and committed; retire with wgmma_wait<0>). q_addr: the group's first
// row in chunk 0 of a QRows-row Q tile (chunks QRows * 64 elements apart).
template <int D, int BN, int QRows>
__device__ inline void qk_issue(float* s, uint64_t q_addr, uint64_t k_addr) {
  static_assert(BN == 64 || BN == 80 || BN == 128, "Q K^T has wgmma wrappers for 64-, 80- and 128-key blocks");
  auto const* q = reinterpret_cast<uint16_t const*>(uintptr_t(q_addr));
  auto const* k = reinterpret_cast<uint16_t const*>(uintptr_t(k_addr));
  ts::sm90::fence_accumulators<BN / 2>(s);
  ts::sm90::wgmma_fence();
#pragma unroll
  for (int c = 0; c < D / 64; ++c) {
    uint64_t const da = ts::sm90::desc_k_major_sw128(q + c * QRows * 64);
    uint64_t const db = ts::sm90::desc_k_major_sw128(k + c * BN * 64);
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      int const scale = (c | kk) ? 1 : 0;
      if constexpr (BN == 128)
        ts::sm90::wgmma_m64n128k16_bf16(s, da + 2 * kk, db + 2 * kk, scale);
      else if constexpr (BN == 80)
        ts::sm90::wgmma_m64n80k16_ss_bf16(s, da + 2 * kk, db + 2 * kk, scale);
      else
        ts::sm90::wgmma_m64n64k16_ss_bf16(s, da + 2 * kk, db + 2 * kk, scale);
    }
  }
  ts::sm90::wgmma_commit();
}

template <int N>
__device__ inline void retire(float* d) {
  ts::sm90::wgmma_wait<0>();
  ts::sm90::fence_accumulators<N>(d);
}

// Where a group's rows stop seeing keys: q0 the group's first row within the sequence,
// key0 the block's first key. Uniform over the warp group.
struct RowMask {
  int q0, seqlen, key0;
  bool causal;
};

// Keys past the sequence (and, causal, past the row) to -inf, in raw scores. Called only
// for the blocks that hold such a key (the caller's branch, once per block and warp
// group: the last block of a ragged sequence, the diagonal blocks of a causal one).
// A score costs one compare and one select against a per-row limit with the thread's
// column offset folded in (the column's compile-time part is 8 (i / 4) + i % 2). ncu of
// the earlier per-score form (a guard around each score, in every block) showed ptxas
// if-converting it into ~6 predicated instructions per score on every block, masked or
// not: 38 % of the kernel's instructions.
template <int BN>
__device__ inline void mask_block(float* s, RowMask mk, int t) {
  int const lane = t % 32;
  int const row0 = mk.q0 + 16 * (t / 32) + lane / 4;
  int limit[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    int const row = row0 + 8 * r;
    int const keys = mk.causal && row + 1 < mk.seqlen ? row + 1 : mk.seqlen;
    limit[r] = keys - mk.key0 - 2 * (lane % 4);
  }
#pragma unroll
  for (int i = 0; i < BN / 2; ++i)
    if (8 * (i / 4) + (i % 2) >= limit[(i / 2) % 2]) s[i] = -INFINITY;
}

// A reduction of each of the thread's two rows over its fragment of one block (row
// (i / 2) % 2 holds BN / 4 of the BN / 2 values), as kChains independent chains per row
// (Dims<D>::kRowChains) joined by a tree. One serial chain of BN / 4 dependent FMNMX or
// FADD (4-5 cycles each) was latency on the softmax's critical path, which two consumer
// warps per scheduler cannot hide (ncu at head dim 64: 0.64 eligible warps a cycle, the
// tensor pipe and the SFU each busy half the time); four chains took 4x8x4096x256 from
// 1.00 to 1.10 of cuDNN and 4x16x4096x128 from 0.98 to 1.02 (H100, stop 36).
template <int BN, int kChains, class Op>
__device__ inline void reduce_rows(float const* v, float* out, Op op) {
  static_assert(BN / 4 >= kChains && (kChains & (kChains - 1)) == 0, "a power of two of chains, a value for each");
  float acc[2][kChains];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) {
    int const r = (i / 2) % 2, e = (i / 4) * 2 + i % 2;  // row, and the value's index in it
    acc[r][e % kChains] = e < kChains ? v[i] : op(acc[r][e % kChains], v[i]);
  }
#pragma unroll
  for (int r = 0; r < 2; ++r) {
#pragma unroll
    for (int w = kChains / 2; w > 0; w /= 2)
#pragma unroll
      for (int c = 0; c < w; ++c) acc[r][c] = op(acc[r][c], acc[r][c + w]);
    out[r] = acc[r][0];
  }
}

// The new row max of the thread's two rows (quad-reduced) over the raw masked scores of
// one block, in the scaled log2 domain, and the rescale factor of the old state. The
// softmax scale is applied once per row (max over raw scores times scale: exact, since
// scale > 0 and rounding is monotonic), then folded into the exp2's FFMA:
// p = exp2(s * scale - base), base = the scaled row max (0 while a row has no valid key:
// P = 0, nothing to rescale).
template <int D, int BN>
__device__ inline void row_stats(float const* s, float* m, float* factor, float* neg_base, float scale_log2) {
  float mx[2];
  reduce_rows<BN, Dims<D>::kRowChains>(s, mx, [](float a, float b) { return fmaxf(a, b); });
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
    mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
    float const m_new = fmaxf(m[r], mx[r] * scale_log2);
    float const base = m_new == -INFINITY ? 0.0f : m_new;
    factor[r] = fast_exp2(m[r] - base);
    neg_base[r] = -base;
    m[r] = m_new;
  }
}

// The softmax split in two for the overlapped schedule (attention_shared.hpp,
// OverlapSchedule): stats while the previous block's P V is still in flight (it touches
// only the scores: mask, new row max, exp2 in place, the rescale factor), apply after that
// P V retired (rescale O and the partial sums, P as bf16x2 pairs).
template <int D, int BN>
__device__ inline void softmax_stats(float* s, float* m, float* factor, float scale_log2) {
  float neg_base[2];
  row_stats<D, BN>(s, m, factor, neg_base, scale_log2);
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) s[i] = fast_exp2(fmaf(s[i], scale_log2, neg_base[(i / 2) % 2]));
}

template <int D, int BN>
__device__ inline void softmax_apply(float const* e, float* o, uint32_t* pa, float* l, float const* factor) {
  float sum[2];
  reduce_rows<BN, Dims<D>::kRowChains>(e, sum, [](float a, float b) { return a + b; });
#pragma unroll
  for (int r = 0; r < 2; ++r) l[r] = fmaf(l[r], factor[r], sum[r]);
#pragma unroll
  for (int j = 0; j < BN / 4; ++j) pa[j] = ts::arch::pack_bf16x2(e[2 * j], e[2 * j + 1]);
#pragma unroll
  for (int i = 0; i < D / 2; ++i) o[i] *= factor[(i / 2) % 2];
}

// Online softmax of one block (mask applied by the caller): the stats, then the apply, on
// the scores in place; P as bf16x2 pairs (pa[j] = columns 2j, 2j + 1 of the fragment).
template <int D, int BN>
__device__ inline void softmax(float* s, float* o, uint32_t* pa, float* m, float* l, float scale_log2) {
  float factor[2];
  softmax_stats<D, BN>(s, m, factor, scale_log2);
  softmax_apply<D, BN>(s, o, pa, l, factor);
}

template <int N>
__device__ inline void retire_keep_one(float* d) {
  ts::sm90::wgmma_wait<1>();
  ts::sm90::fence_accumulators<N>(d);
}

// O += P V (issued and committed).
template <int D, int BN>
__device__ inline void pv_issue(float* o, uint32_t const* pa, uint64_t v_addr) {
  auto const* v = reinterpret_cast<uint16_t const*>(uintptr_t(v_addr));
  ts::sm90::fence_accumulators<D / 2>(o);
  ts::sm90::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < BN / 16; ++kk) {
    uint32_t const a[4] = {pa[4 * kk], pa[4 * kk + 1], pa[4 * kk + 2], pa[4 * kk + 3]};
    uint64_t const db = ts::sm90::desc_mn_major_sw128(v + kk * 16 * 64, BN * 128);
    if constexpr (D == 64) ts::sm90::wgmma_m64n64k16_rs_bf16<1>(o, a, db, 1);
    if constexpr (D == 128) ts::sm90::wgmma_m64n128k16_rs_bf16<1>(o, a, db, 1);
    if constexpr (D == 256) ts::sm90::wgmma_m64n256k16_rs_bf16<1>(o, a, db, 1);
  }
  ts::sm90::wgmma_commit();
}

// The thread's two row sums over its quad (each thread kept a partial) and their
// reciprocals (0 for a row that saw no key).
__device__ inline void quad_row_sums(float const* l, float* lt, float* inv) {
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    lt[r] = l[r] + __shfl_xor_sync(0xffffffffu, l[r], 1);
    lt[r] += __shfl_xor_sync(0xffffffffu, lt[r], 2);
    inv[r] = lt[r] > 0 ? 1.0f / lt[r] : 0.0f;
  }
}

// LSE (natural log; m is log2-scaled) of the thread's rows row0 and row0 + 8, by one
// thread of each quad; rows past the sequence are not stored.
__device__ inline void store_lse(float const* m, float const* lt, float* lse, int row0, int seqlen, int head,
                                 int tokens, int token0, int lane) {
  if (lane % 4 != 0) return;
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    int const row = row0 + 8 * r;
    if (row < seqlen) lse[size_t(head) * tokens + token0 + row] = m[r] * 0.69314718055994531f + __logf(lt[r]);
  }
}

// O normalised and stored as bf16 pairs straight from the fragment; LSE by one thread of
// each quad. Rows past the sequence are not stored.
template <int D>
__device__ inline void store(float const* o, float const* m, float const* l, uint16_t* out, float* lse, int token0,
                             int q0, int seqlen, int head, int hq, int tokens, bool exists, int t) {
  int const lane = t % 32;
  float lt[2], inv[2];
  quad_row_sums(l, lt, inv);
  if (!exists) return;
  int const row0 = q0 + 16 * (t / 32) + lane / 4;
  auto* dst = reinterpret_cast<__nv_bfloat16*>(out);
#pragma unroll
  for (int i = 0; i < D / 2; i += 2) {
    int const r = (i / 2) % 2;
    int const row = row0 + 8 * r;
    int const col = 8 * (i / 4) + 2 * (lane % 4);
    if (row < seqlen)
      *reinterpret_cast<__nv_bfloat162*>(dst + (size_t(token0 + row) * hq + head) * D + col) =
          __floats2bfloat162_rn(o[i] * inv[r], o[i + 1] * inv[r]);
  }
  store_lse(m, lt, lse, row0, seqlen, head, tokens, token0, lane);
}

// O through the group's own rows of its Q stage (the Q block is dead once the tile's last
// Q K^T retired; the stage goes back only after this store): the fragment, normalised, as
// bf16 pairs in the 128-byte-swizzled layout TMA brought Q in (chunk c of a QRows-row
// stage at c * QRows * 128 bytes, the group's rows from `stage`), then
//   * a block whose 64 rows are all in the sequence: D / 64 TMA stores (64 x 64 boxes of
//     map_o) by thread 0, which waits until they have read the stage (wait_group.read);
//   * the last block of a ragged sequence: 16-byte pieces of the rows inside it by every
//     thread (a TMA store would write past the sequence into the next one's rows, which
//     map_o cannot tell apart: the packed varlen layout).
// Ends with __syncwarp so warp 0's release of the Q stage (its leader's arrival) follows
// thread 0's wait and every lane's reads. LSE by one thread of each quad, as `store`.
// The fragment goes in by stmatrix (ts::arch::store_matrices_x4_sw128, the GEMM epilogue's
// helper), four 8 x 8 matrices a warp per instruction (a quarter of the per-pair st.shared
// stores of stop 30). Addresses are 32-bit shared ones, one base with the chunk offsets
// folded into immediates (QRows is a template parameter for that): with generic 64-bit
// pointers ptxas kept dozens of addresses live and spilled.
template <int D, int QRows>
__device__ inline void store_staged(float const* o, float const* m, float const* l, unsigned char* stage,
                                    void const* map_o, uint16_t* out, float* lse, int token0, int q0, int seqlen,
                                    int head, int hq, int tokens, bool exists, int t, int barrier_id) {
  constexpr int kChunkBytes = QRows * 128;  // one 64-column chunk of the stage
  int const warp = t / 32, lane = t % 32;
  float lt[2], inv[2];
  quad_row_sums(l, lt, inv);
  uint32_t const base = ts::cuda::smem_addr(stage);
  if (exists) {
    // Two n8 column blocks per stmatrix: the warp's 16 rows of blocks j and j + 1 are the
    // four 8 x 8 matrices of 16-byte chunk j % 8 (and + 1) of 64-column chunk j / 8.
#pragma unroll
    for (int j = 0; j < D / 8; j += 2) {
      uint32_t const v[4] = {ts::arch::pack_bf16x2(o[4 * j] * inv[0], o[4 * j + 1] * inv[0]),
                             ts::arch::pack_bf16x2(o[4 * j + 2] * inv[1], o[4 * j + 3] * inv[1]),
                             ts::arch::pack_bf16x2(o[4 * j + 4] * inv[0], o[4 * j + 5] * inv[0]),
                             ts::arch::pack_bf16x2(o[4 * j + 6] * inv[1], o[4 * j + 7] * inv[1])};
      ts::arch::store_matrices_x4_sw128(base + (j / 8) * kChunkBytes, 16 * warp, j % 8, v, lane);
    }
    ts::arch::fence_proxy_async();  // these stmatrix -> the TMA engine's reads
  }
  ts::arch::named_barrier_sync(barrier_id, 128);
  if (exists && q0 + 64 <= seqlen) {
    if (t == 0) {
#pragma unroll
      for (int c = 0; c < D / 64; ++c) ts::arch::tensor_store_2d(map_o, stage + c * kChunkBytes, head * D + 64 * c, token0 + q0);
      ts::arch::bulk_commit();
      ts::arch::bulk_wait_read<0>();
    }
  } else if (exists) {
    constexpr int kPieces = D / 8;  // 16-byte pieces per row
    for (int idx = t; idx < 64 * kPieces; idx += 128) {
      int const row = idx / kPieces, piece = idx % kPieces;
      if (q0 + row >= seqlen) break;  // idx grows with row
      uint4 const v = ts::cuda::ld_shared_v4(base + (piece / 8) * kChunkBytes + ts::arch::sw128_chunk_offset(row, piece % 8));
      *reinterpret_cast<uint4*>(out + (size_t(token0 + q0 + row) * hq + head) * D + 8 * piece) = v;
    }
    // Every thread's reads of the stage before any thread's next write to it. The Q ring's
    // barriers order them too (the reads, __syncwarp, the warp leader's release, the next
    // load, the next full-barrier wait), but where a group takes the same stage every tile
    // (the pair shape; one Q stage at D = 256) racecheck does not follow a release made by
    // one lane for its warp and reported the pair (stop 30); a group barrier is one it sees.
    ts::arch::named_barrier_sync(barrier_id, 128);
  }
  __syncwarp();
  if (exists) store_lse(m, lt, lse, q0 + 16 * warp + lane / 4, seqlen, head, tokens, token0, lane);
}

}  // namespace attn::dev

// ---- the steps the work bodies call (attention_resources.hpp; same names in attention_emu.hpp) ----
namespace attn::step {

template <int Rows, int D>
__device__ inline void load_tile(uint16_t* dst, void const* map, int x, int y, uint64_t* bar) {
  dev::load_tile<Rows, D>(dst, map, x, y, bar);
}
// Q K^T issued from row q_row0 of every Q chunk.
template <class Sc>
__device__ inline void qk(Sc& sc, uint64_t q, uint64_t k) {
  dev::qk_issue<Sc::kD, Sc::BN, Sc::kQRows>(&sc.s[0][0], q + uint64_t(sc.q_row0) * 64 * 2, k);
}
// wgmma.wait_group Pending (0: every MMA; 1: all but the P V committed after this Q K^T).
template <int Pending, class Sc>
__device__ inline void qk_retire(Sc& sc, int) {
  if constexpr (Pending == 0)
    dev::retire<Sc::BN / 2>(&sc.s[0][0]);
  else
    dev::retire_keep_one<Sc::BN / 2>(&sc.s[0][0]);
}
// The mask of a block past the tile's threshold (begin_tile's last_unmasked_key0): only
// then is the Q block read from global memory.
template <class Acc>
__device__ inline void mask_if_needed(Acc const& a, ts::ProducerStage const& si, float* scores) {
  int const key0 = int(si.loop_offset) * Acc::BN;
  if (key0 <= a.last_unmasked_key0) return;
  QBlock const b = a.plan.block(si.work_tile);
  dev::mask_block<Acc::BN>(scores, dev::RowMask{b.q0 + a.plan.row0(a.half), b.seqlen, key0, a.plan.causal != 0},
                           si.thread.thread_in_task % 128);
}
template <class Acc>
__device__ inline void softmax(Acc& a, ts::ProducerStage const& si, float const* scores) {
  // The Scores registers: the block's raw scores are dead after this step.
  float* s = const_cast<float*>(scores);
  mask_if_needed(a, si, s);
  dev::softmax<Acc::kD, Acc::BN>(s, a.o, a.pa, a.m, a.l, a.plan.scale_log2);
}
template <class Acc>
__device__ inline void softmax_stats(Acc& a, ts::ProducerStage const& si, float* sc) {
  mask_if_needed(a, si, sc);
  dev::softmax_stats<Acc::kD, Acc::BN>(sc, a.m, a.factor, a.plan.scale_log2);
}
template <class Acc>
__device__ inline void softmax_apply(Acc& a, float const* e) {
  dev::softmax_apply<Acc::kD, Acc::BN>(e, a.o, a.pa, a.l, a.factor);
}
template <class Acc>
__device__ inline void pv(Acc& a, uint64_t v) {
  dev::pv_issue<Acc::kD, Acc::BN>(a.o, a.pa, v);
}
template <class Acc>
__device__ inline void pv_retire(Acc& a, int) {
  dev::retire<Acc::kD / 2>(a.o);
}
// O and LSE: through the group's rows of the Q stage and TMA when the runner gave map_o
// (store_staged); without it straight from the fragment (store; TS_ATTN_STORE=regs in the
// device runner, kept to measure one against the other).
template <class Out, class Acc>
__device__ inline void store(Out const& g, ts::ProducerStage const& si, Acc const& acc, uint64_t q_stage) {
  QBlock b = g.plan.block(si.work_tile);
  int const t = si.thread.thread_in_task % 128;
  int const q0 = b.q0 + g.plan.row0(g.half);
  int const head = g.plan.head(si.work_tile, g.half);
  bool const exists = g.plan.head_exists(si.work_tile, g.half);
  if (g.map_o) {
    auto* stage = reinterpret_cast<unsigned char*>(uintptr_t(q_stage)) + g.plan.row0(g.half) * 128;
    int const bar = ts::kFirstBodyBarrier + g.half;
    // The Q stage's rows: 128 in the shared-K/V shape (shared::kRows), 64 in the pair one.
    if (g.plan.shared)
      dev::store_staged<Acc::kD, 128>(acc.o, acc.m, acc.l, stage, g.map_o, g.o, g.lse, b.token0, q0, b.seqlen, head,
                                      g.plan.hq, g.plan.total_tokens, exists, t, bar);
    else
      dev::store_staged<Acc::kD, Dims<Acc::kD>::kBlockM>(acc.o, acc.m, acc.l, stage, g.map_o, g.o, g.lse, b.token0,
                                                         q0, b.seqlen, head, g.plan.hq, g.plan.total_tokens, exists,
                                                         t, bar);
  } else {
    dev::store<Acc::kD>(acc.o, acc.m, acc.l, g.o, g.lse, b.token0, q0, b.seqlen, head, g.plan.hq, g.plan.total_tokens,
                        exists, t);
  }
}
// Before the CTA exits: thread 0's TMA stores of O complete (as gemm's drain_fragment_stores).
template <class Out>
__device__ inline void drain(Out const&, int t) {
  if (t == 0) ts::arch::bulk_wait<0>();
}

}  // namespace attn::step
