// The three schedules of forward attention (docs/attention.md).
//
//   Load (warp 0): per pair, Q of half 0 and half 1 into the Q ring; then per K/V block j
//     K_j of half 0 and of half 1 into the K ring, V_j of half 0 and of half 1 into the V
//     ring (K before V, so both groups' Q K^T can start while V streams in).
//   Group 0 (warps 4-7) and group 1 (warps 8-11), each on its own Q block of the pair: per
//     K/V block, take one K stage (Q K^T, retire, release), softmax, take one V stage
//     (P V, retire, release). They take turns on every ring, one stage each: group 0 takes
//     a ring's even positions and skips the odd ones after its own, group 1 skips the even
//     ones before taking its own (ring.skip(1), docs/turns.md).
//   The order barrier (a one-stage ping-pong pipe) makes the groups' Q K^T issues
//     alternate 0, 1, 0, 1 ...: while one group runs its softmax the other's MMAs have the
//     tensor cores (FlashAttention-3's inter-warpgroup ping-pong). The turns alone keep the
//     rings safe (skips by a static 1 on two-stage rings); the order is for the schedule on
//     the tensor cores, and a wrong order placement is a deadlock the checker finds.
#pragma once
#include <type_traits>

#include "attention_resources.hpp"
#include "ts/schedule/recorder.hpp"  // ts::at_least on a recorded per-tile bound

namespace attn {

// The K/V loop of every task: the tile's K/V blocks (the queue's kv_blocks, of whichever
// queue type the handle holds: PairQueueOf<S> or HeadTileQueueOf<S> under scheduler S), at
// least one (every Q block sees its sequence's first key).
template <class Q>
TS_HD auto kv_bound(Q& wq) {
  return ts::at_least(1, ts::per_tile<&std::remove_cvref_t<Q>::resource_type::kv_blocks>(wq));
}

template <int D>
struct LoadSchedule {
  template <class S, class G, class Qr, class Kr, class Vr, class W>
  TS_HD void operator()(S& s, G& gmem, Qr& q, Kr& k, Vr& v, W& wq) const {
    s.work_tile_loop(wq, [&] {
      load<&GmemQKV<D>::template q_box<0>, QRing<D>>(gmem, q);
      load<&GmemQKV<D>::template q_box<1>, QRing<D>>(gmem, q);
      s.domain_loop(0, kv_bound(wq), 1, [&] {
        // Each box computed where it is used (a few loads of the plan, cached): two boxes
        // held across the four loads spilled the 40-register load task at D = 256.
        put<KvRing<D>>(k, ts::work<&GmemQKV<D>::template kv_box<0>>(gmem));
        put<KvRing<D>>(k, ts::work<&GmemQKV<D>::template kv_box<1>>(gmem));
        put<KvRing<D>>(v, ts::work<&GmemQKV<D>::template kv_box<0>>(gmem));
        put<KvRing<D>>(v, ts::work<&GmemQKV<D>::template kv_box<1>>(gmem));
      });
      ts::queue_epilogue(wq);
    });
  }
  template <auto Source, class Ring, class G, class R>
  TS_HD static void load(G& gmem, R& ring) {
    ring.acquire();
    auto box = ts::work<Source>(gmem);
    ts::work<&Ring::load>(ring, box);
    ring.commit();
  }
  template <class Ring, class R, class B>
  TS_HD static void put(R& ring, B const& box) {
    ring.acquire();
    ts::work<&Ring::load>(ring, box);
    ring.commit();
  }
};

// Schedule variants: the correct one, and near misses the checker must judge.
enum class Variant {
  kCorrect,
  kNoOrder,                  // no order barrier: still safe (the order is not what keeps the rings safe)
  kOrderReleasedAfterLoop,   // group 1 releases the order once per pair, not per block: deadlock at k >= 2
  kQTurnAfterWait,           // group 1 skips the Q ring after its wait: both groups take half 0's Q
  kReleaseKBeforeRetire,     // K released before its MMAs retired: the checker cannot see it (a
                             // protocol inside the work bodies); the emulator's race detector can
};

// Warp group G's schedule (G = 0 or 1).
template <int D, int G, Variant V = Variant::kCorrect>
struct ConsumerSchedule {
  static constexpr bool kOrder = V != Variant::kNoOrder;
  template <class S, class Ord, class Qr, class Kr, class Vr, class Sc, class Acc, class Out, class W>
  TS_HD void operator()(S& s, Ord& order, Qr& q, Kr& k, Vr& v, Sc& sc, Acc& acc, Out& out, W& wq) const {
    s.work_tile_loop(wq, [&] {
      if constexpr (G == 1 && V != Variant::kQTurnAfterWait) q.skip(1);
      q.wait();
      auto q_stage = ts::work<&QRing<D>::operand>(q);
      ts::work<&OutAcc<D>::begin_tile>(acc);
      s.domain_loop(0, kv_bound(wq), 1, [&] {
        // S = Q K^T on this group's K stage, in turn with the other group's.
        if constexpr (G == 1) k.skip(1);
        if constexpr (kOrder && G == 0) order.acquire();
        if constexpr (kOrder && G == 1) order.wait();
        k.wait();
        auto k_stage = ts::work<&KvRing<D>::operand>(k);
        ts::work<&Scores<D>::qk>(sc, q_stage, k_stage);
        if constexpr (kOrder && G == 0) order.commit();
        if constexpr (kOrder && G == 1 && V != Variant::kOrderReleasedAfterLoop) order.release();
        if constexpr (V == Variant::kReleaseKBeforeRetire) {
          k.release();
          ts::work<&Scores<D>::retire>(sc);
        } else {
          ts::work<&Scores<D>::retire>(sc);
          k.release();
        }
        if constexpr (G == 0) k.skip(1);
        // Online softmax in registers, then O += P V on this group's V stage.
        ts::work<&OutAcc<D>::softmax>(acc, ts::work<&Scores<D>::fragment>(sc));
        if constexpr (G == 1) v.skip(1);
        v.wait();
        auto v_stage = ts::work<&KvRing<D>::operand>(v);
        ts::work<&OutAcc<D>::pv>(acc, v_stage);
        ts::work<&OutAcc<D>::retire>(acc);
        v.release();
        if constexpr (G == 0) v.skip(1);
      });
      if constexpr (kOrder && G == 1 && V == Variant::kOrderReleasedAfterLoop) order.release();
      // O staged in the group's Q stage and stored, then the stage goes back.
      ts::work<&GmemO<D>::store>(out, ts::work<&OutAcc<D>::result>(acc), q_stage);
      q.release();
      if constexpr (G == 0) q.skip(1);
      if constexpr (G == 1 && V == Variant::kQTurnAfterWait) q.skip(1);
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemO<D>::drain>(out);
  }
};

}  // namespace attn
