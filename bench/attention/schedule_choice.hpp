// Which attention schedule the library runs: the mode numbers of ts_attn_create and
// ts_attention.forward, and the per-shape choice behind mode kAuto (-1). Host-only, no CUDA:
// the torch extension's plan cache and the tests read it too.
#pragma once

namespace bench_attn {

// mode & 7: the schedule (examples/attention). kPair: two 64-row groups, one Q block each;
// kShared: one 128-row Q block, K/V shared by both consumer groups; kOverlap: kShared with
// the next block's QK^T issued before this block's softmax (intra-warpgroup overlap).
// + kDynamic: the same schedule under the dynamic global-counter scheduler (tiles claimed in
// plan order) instead of the static round-robin.
constexpr int kPair = 0, kShared = 1, kOverlap = 2, kDynamic = 8;
// The library picks the scheduler per shape (choose_mode).
constexpr int kAuto = -1;

constexpr bool valid_mode(int mode) {
  return mode == kAuto || ((mode & ~kDynamic) >= kPair && (mode & ~kDynamic) <= kOverlap);
}

// The overlapped schedule always (the fastest everywhere measured since stop 24); the
// scheduler by shape. Measured with both timed in the same rounds (bench_attention.py
// BENCH_AB=1; bench/RESULTS.md stop 38, H100, 24 shapes; stop 36, H200):
//  - non-causal head dim 64: dynamic faster on all six shapes measured, by 2.4-6.0 %
//    (H200, stop 36: 1.042 against 0.934 of cuDNN);
//  - causal: static faster or equal on all eleven (up to 31 % at head dim 256): its plan deals the
//    longest-first tile order into balanced per-CTA rounds, which the dynamic counter,
//    claiming tiles in order, does not improve on and pays a claim per tile for;
//  - non-causal head dims 128 and 256: within +-7 % either way with no pattern in tile count
//    that held across repeats, so the static scheduler (no counter to zero before each launch).
constexpr int choose_mode(int head_dim, bool causal) {
  return (!causal && head_dim == 64) ? kOverlap + kDynamic : kOverlap;
}

// mode with kAuto replaced by the choice for this shape; other modes unchanged.
constexpr int resolve_mode(int mode, int head_dim, bool causal) {
  return mode == kAuto ? choose_mode(head_dim, causal) : mode;
}

}  // namespace bench_attn
