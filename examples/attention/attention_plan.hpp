// Forward attention as TS resources (docs/attention.md): the problem's shape constants and
// the tile plan, the part the resources, the queue and the host share.
//
// Layout (packed, "varlen" form for every problem): Q and O are [tokens][Hq][D], K and V
// [tokens][Hkv][D], bf16 bits; sequence b occupies tokens cu_seqlens[b] .. cu_seqlens[b+1]
// of all four (the same lengths for queries and keys, so causal is unambiguous); LSE is
// [Hq][tokens] fp32, natural log. A fixed-length batch is cu_seqlens = {0, S, 2S, ...}.
//
// Work tiles. One consumer warp group owns a 64-row Q block of one head; the two groups of
// a CTA take turns on the K/V rings block by block, so a queue tile is a *pair*: the same
// Q block (batch b, rows q0 .. q0 + 63) of heads 2 hp and 2 hp + 1. Both halves of a pair
// have the same K/V loop length (it depends on the sequence and the Q block only, never on
// the head), which is what lets the three tasks share one per-tile domain bound. With an
// odd head count the last pair's second half recomputes head Hq - 1 and stores nothing.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ts/core/macros.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/runtime/scheduler/queue.hpp"

namespace attn {

// Per head dimension: 64 query rows per warp group (one m64 wgmma), a K/V block of kBlockN
// keys, two Q stages, and two K and two V stages but at D = 64, which has three: its blocks
// take half the MMA time of D = 128 for the same load latency, and a third stage (48 KiB
// more, 128 KiB in the shared-K/V shape) measured +1.6 % non-causal and +1.8 % causal at
// 4x32x4096x64 (H100, stop 31, bench/RESULTS.md). D = 128 has no room for a third (256 KiB).
// Keys per block: 128, but 80 at D = 256 (FlashAttention-3's choice there), the most that fits
// SMEM: 64 KiB of Q and two K and two V stages of 40 KiB, 224 KiB. Against 64 keys, every per-
// block cost (the order hand-off, the wgmma waits, the row-max shuffles, the O rescale) is
// spread over 25 % more keys: 0.935 -> 1.026 of cuDNN at 4x8x4096x256 (H100, stop 34,
// bench/RESULTS.md). 160 keys at D = 128 and 192 at D = 64 were measured in the same call and
// did not pay at every length (docs/attention.md).
template <int D>
struct Dims {
  static_assert(D == 64 || D == 128 || D == 256, "attention head dim must be 64, 128 or 256");
  static constexpr int kHeadDim = D;
  static constexpr int kBlockM = 64;
  static constexpr int kBlockN = D == 256 ? 80 : 128;
  static constexpr int kStagesQ = 2;   // one Q block per warp group
  static constexpr int kStagesKV = D == 64 ? 3 : 2;  // K (V) blocks in flight
  // Independent chains per row in the softmax's row max and row sum (dev::reduce_rows):
  // eight at D = 64, whose softmax is the longest against its MMAs (+4.8 % at 4x32x4096x64
  // against four), four elsewhere, where eight measured 1-3 % slower (H100, stop 36).
  static constexpr int kRowChains = D == 64 ? 8 : 4;
  static constexpr int kBytesQ = kBlockM * D * 2;
  static constexpr int kBytesKV = kBlockN * D * 2;
};

// One Q block of one sequence (shared by every head pair).
struct QBlock {
  int token0 = 0;     // first token of the sequence
  int seqlen = 0;     // tokens of the sequence (queries = keys)
  int q0 = 0;         // first query row of the block, within the sequence
  int kv_blocks = 0;  // K/V blocks the block attends to (>= 1)
};

struct Plan {
  QBlock const* blocks = nullptr;  // num_blocks entries, longest first when causal
  int num_blocks = 0;
  int hq = 0, hkv = 0, head_pairs = 0;
  int total_tokens = 0;
  int causal = 0;
  float scale_log2 = 0;  // softmax scale * log2(e): scores go through exp2
  // 0: a tile is a pair of heads, one 64-row block each (attention_schedule.hpp); 1: a tile
  // is one 128-row block of one head, rows 64 h .. of it for group h (attention_shared.hpp).
  int shared = 0;
  // Optional queue order (the host's plan_tile_order, attention_host.hpp): entry t is the
  // tile's block * units + unit (units: hq for the shared-K/V shape, head_pairs for pairs).
  // nullptr: the queues' own formulas below. The device runner sets it for causal plans, so
  // that the tiles in flight share their K/V in L2 and the static round-robin is balanced.
  int const* tile_order = nullptr;

  TS_HD QBlock block(ts::WorkTile const& w) const { return blocks[w.coord[0]]; }
  // Head of group h's rows (pairs: clamped, the missing half of an odd head count).
  TS_HD int head(ts::WorkTile const& w, int half) const {
    if (shared) return w.coord[1];
    int h = 2 * w.coord[1] + half;
    return h < hq ? h : hq - 1;
  }
  TS_HD bool head_exists(ts::WorkTile const& w, int half) const { return shared || 2 * w.coord[1] + half < hq; }
  // First row of group h's 64 rows within the tile's Q block.
  TS_HD int row0(int half) const { return shared ? 64 * half : 0; }
  TS_HD int kv_head(int h) const { return h / (hq / hkv); }
};

// The queue base under scheduler S: the static scheduler keeps the plain ts::WorkQueue the
// kernels had before schedulers were a choice (the same type layout, the same code); a
// dynamic one (ts::GlobalCounterScheduler on sm_90a, ts::ClcScheduler on the emulator)
// brings its state and response ring (ts::WorkQueueOf<S>). Either hands out tile indices
// only; make_tile below maps them, so a counter handing out 0, 1, 2, ... takes a causal
// plan's Q blocks longest first (plan_blocks orders them so).
template <class S>
using QueueBase = std::conditional_t<std::is_same_v<S, ts::StaticScheduler>, ts::WorkQueue, ts::WorkQueueOf<S>>;

// Persistent queue over (Q block, head) tiles of the shared-K/V shape (under the static
// scheduler CTA b takes tiles b, b + grid, ...). With plan.tile_order (the device runner's
// causal plans) tile t is entry t of that table. Else, causal: tile t is Q block t / hq of
// head t % hq, so the tiles go out longest first (blocks[] order). Otherwise head-major: tile
// t is Q block t % num_blocks of head t / num_blocks, so the CTAs in flight read the K/V
// of one or two heads and those stay in L2 (block-major, they read every head's K/V at
// once: ncu at 4x16x4096x128 saw 77 % L2 hits and twice cuDNN's DRAM traffic).
template <class S = ts::StaticScheduler>
struct HeadTileQueueOf : QueueBase<S> {
  Plan plan;
  TS_HD ts::WorkTile make_tile(int t) const {
    ts::WorkTile w;
    w.tile_idx = t;
    w.valid = t < this->num_tiles;
    if (!w.valid) return w;
    if (plan.tile_order) {
      int const v = plan.tile_order[t];
      w.coord[0] = v / plan.hq;
      w.coord[1] = v % plan.hq;
    } else if (plan.causal) {
      w.coord[0] = t / plan.hq;
      w.coord[1] = t % plan.hq;
    } else {
      w.coord[0] = t % plan.num_blocks;
      w.coord[1] = t / plan.num_blocks;
    }
    return w;
  }
  // The per-tile domain bound of all three tasks: the tile's K/V blocks.
  TS_HD long long kv_blocks(ts::WorkTile const& w) const { return w.valid ? plan.blocks[w.coord[0]].kv_blocks : 0; }
};
using HeadTileQueue = HeadTileQueueOf<>;

// Persistent queue over pairs: pair p is Q block p / head_pairs (blocks[] order) of head
// pair p % head_pairs, or with plan.tile_order of entry p of that table (static: CTA b
// takes pairs b, b + grid, ...).
template <class S = ts::StaticScheduler>
struct PairQueueOf : QueueBase<S> {
  Plan plan;
  TS_HD ts::WorkTile make_tile(int p) const {
    ts::WorkTile w;
    w.tile_idx = p;
    w.valid = p < this->num_tiles;
    if (!w.valid) return w;
    int const v = plan.tile_order ? plan.tile_order[p] : p;
    w.coord[0] = v / plan.head_pairs;
    w.coord[1] = v % plan.head_pairs;
    return w;
  }
  TS_HD long long kv_blocks(ts::WorkTile const& w) const { return w.valid ? plan.blocks[w.coord[0]].kv_blocks : 0; }
};
using PairQueue = PairQueueOf<>;

// K/V blocks a Q block attends to: every key of the sequence, or (causal) keys up to the
// block's last row.
TS_HD inline int kv_blocks_of(int seqlen, int q0, int block_m, int block_n, bool causal) {
  int keys = seqlen;
  if (causal && q0 + block_m < keys) keys = q0 + block_m;
  return (keys + block_n - 1) / block_n;
}

}  // namespace attn
