// The shared-K/V shape of forward attention (FlashAttention-3's): a tile is one 128-row Q
// block of one head; group 0 computes its rows 0..63, group 1 rows 64..127, and both
// consume every stage of one Q ring and of the K and V rings (each stage is waited for and
// released by both groups: the rings' consumer group is the 8 warps). K and V are loaded
// once per tile for both groups, twice the arithmetic per byte of the pair shape
// (attention_schedule.hpp), and under GQA no K/V block is loaded twice. Both groups loop
// over the same K/V blocks (the tile's, causal: up to its last row; group 0's rows mask
// the keys past them). The order barrier alternates the groups' Q K^T issues as in the
// pair shape. Resources, bodies and the plan are the pair shape's with plan.shared = 1.
#pragma once
#include <stdexcept>
#include <type_traits>

#include "attention_manager.hpp"
#include "ts/task_manager.hpp"

namespace attn::shared {

constexpr int kRows = 128;  // Q rows per tile

template <int D>
struct SharedDims {
  using Dm = Dims<D>;
  static constexpr int kStagesQ = D == 256 ? 1 : 2;  // 128 x 256 bf16 is 64 KiB
};
template <int D>
using QRing = TileRing<kRows, D, SharedDims<D>::kStagesQ>;

template <int D>
struct SourceQKV : GmemQKV<D> {
  // Consumer work: the tile's 128-row Q box and this iteration's K/V box.
  TS_HD Box q_box(ts::ConsumerStage const& si) const {
    QBlock b = this->plan.block(si.work_tile);
    return Box{si.work_tile.coord[1] * D, b.token0 + b.q0};
  }
  TS_HD Box kv_box(ts::ConsumerStage const& si) const {
    QBlock b = this->plan.block(si.work_tile);
    return Box{this->plan.kv_head(si.work_tile.coord[1]) * D, b.token0 + int(si.loop_offset) * Dims<D>::kBlockN};
  }
  // Consumer work: block 0's box, loaded ahead of the K/V loop (OverlapLoadSchedule).
  TS_HD Box kv_box_first(ts::ConsumerStage const& si) const {
    ts::ConsumerStage first = si;
    first.loop_offset = 0;
    return kv_box(first);
  }
};

template <int D>
struct LoadSchedule {
  template <class S, class G, class Qr, class Kr, class Vr, class W>
  TS_HD void operator()(S& s, G& gmem, Qr& q, Kr& k, Vr& v, W& wq) const {
    using Pair = attn::LoadSchedule<D>;  // its stage helpers
    s.work_tile_loop(wq, [&] {
      Pair::template load<&SourceQKV<D>::q_box, QRing<D>>(gmem, q);
      s.domain_loop(0, kv_bound(wq), 1, [&] {
        auto box = ts::work<&SourceQKV<D>::kv_box>(gmem);
        Pair::template put<KvRing<D>>(k, box);
        Pair::template put<KvRing<D>>(v, box);
      });
      ts::queue_epilogue(wq);
    });
  }
};

// The loads of the overlapped schedule: block 0's K and V ahead of the loop over blocks
// 1.., as its consumers take them (OverlapSchedule), so both sides' loops have one bound.
template <int D>
struct OverlapLoadSchedule {
  template <class S, class G, class Qr, class Kr, class Vr, class W>
  TS_HD void operator()(S& s, G& gmem, Qr& q, Kr& k, Vr& v, W& wq) const {
    using Pair = attn::LoadSchedule<D>;
    s.work_tile_loop(wq, [&] {
      Pair::template load<&SourceQKV<D>::q_box, QRing<D>>(gmem, q);
      auto first = ts::work<&SourceQKV<D>::kv_box_first>(gmem);
      Pair::template put<KvRing<D>>(k, first);
      Pair::template put<KvRing<D>>(v, first);
      s.domain_loop(1, kv_bound(wq), 1, [&] {
        auto box = ts::work<&SourceQKV<D>::kv_box>(gmem);
        Pair::template put<KvRing<D>>(k, box);
        Pair::template put<KvRing<D>>(v, box);
      });
      ts::queue_epilogue(wq);
    });
  }
};

enum class Variant {
  kCorrect,
  kNoOrder,                 // no order barrier (still safe: the order is for the tensor cores)
  kOrderReleasedAfterLoop,  // group 1 gives the order back once per tile: deadlock at k >= 2
  kGroup1SkipsVRelease,     // group 1 never releases V: a stage reuse race
  // Group 1 runs the queue epilogue without its release: harmless on a static queue (no
  // response ring, nothing to give back), a race on a dynamic one, whose scheduler refills
  // the response stage group 1 still reads (the one way to go wrong the dynamic queue adds).
  kGroup1KeepsTileResponse,
};

// The queue epilogue of group G (ts::queue_epilogue, but for the near miss above).
template <int G, Variant V, class W>
TS_HD void tile_epilogue(W& wq) {
  if constexpr (G == 1 && V == Variant::kGroup1KeepsTileResponse) {
    wq.try_wait();
    wq.wait();
    wq.get_and_advance_work_tile();
  } else {
    ts::queue_epilogue(wq);
  }
}

// What both consumer schedules do per tile: wait for the tile's Q stage and start the
// accumulator; per K/V block take the order's turn (kOrder), wait for a K stage and issue
// Q K^T, then `block()` finishes the iteration; `after()` follows the K/V loop; O is
// stored from the Q stage, which then goes back; after the last tile the O stores drain.
template <int D, int G, bool kOrder, Variant V, class S, class Ord, class Qr, class Kr, class Sc, class Acc, class Out,
          class W, class Block, class After>
TS_HD void each_tile(S& s, Ord& order, Qr& q, Kr& k, Sc& sc, Acc& acc, Out& out, W& wq, Block const& block,
                     After const& after) {
  s.work_tile_loop(wq, [&] {
    q.wait();
    auto q_stage = ts::work<&QRing<D>::operand>(q);
    ts::work<&OutAcc<D>::begin_tile>(acc);
    s.domain_loop(0, kv_bound(wq), 1, [&] {
      if constexpr (kOrder && G == 0) order.acquire();
      if constexpr (kOrder && G == 1) order.wait();
      k.wait();
      ts::work<&Scores<D, kRows>::qk>(sc, q_stage, ts::work<&KvRing<D>::operand>(k));
      block();
    });
    after();
    ts::work<&GmemO<D>::store>(out, ts::work<&OutAcc<D>::result>(acc), q_stage);
    q.release();
    tile_epilogue<G, V>(wq);
  });
  ts::work<&GmemO<D>::drain>(out);
}

template <int D, int G, Variant V = Variant::kCorrect>
struct ConsumerSchedule {
  static constexpr bool kOrder = V != Variant::kNoOrder;
  template <class S, class Ord, class Qr, class Kr, class Vr, class Sc, class Acc, class Out, class W>
  TS_HD void operator()(S& s, Ord& order, Qr& q, Kr& k, Vr& v, Sc& sc, Acc& acc, Out& out, W& wq) const {
    auto block = [&] {
      if constexpr (kOrder && G == 0) order.commit();
      if constexpr (kOrder && G == 1 && V != Variant::kOrderReleasedAfterLoop) order.release();
      ts::work<&Scores<D, kRows>::retire>(sc);
      k.release();
      ts::work<&OutAcc<D>::softmax>(acc, ts::work<&Scores<D, kRows>::fragment>(sc));
      v.wait();
      ts::work<&OutAcc<D>::pv>(acc, ts::work<&KvRing<D>::operand>(v));
      ts::work<&OutAcc<D>::retire>(acc);
      if constexpr (!(G == 1 && V == Variant::kGroup1SkipsVRelease)) v.release();
    };
    auto after = [&] {
      if constexpr (kOrder && G == 1 && V == Variant::kOrderReleasedAfterLoop) order.release();
    };
    each_tile<D, G, kOrder, V>(s, order, q, k, sc, acc, out, wq, block, after);
  }
};

// The overlapped schedule (FlashAttention-3's intra-warpgroup overlap): iteration j issues
// Q K^T of block j and then P V of block j - 1, retires the Q K^T alone (wait_group 1),
// runs the first half of the softmax of block j while that P V still runs on the tensor
// cores, retires the P V, releases its V stage and finishes the softmax (rescale O, form
// P). The last block's P V follows the loop. V is consumed one iteration behind K.
//
// Block 0 (no P V before it) runs ahead of the loop, which starts at block 1 and has no
// per-iteration guard: ptxas checks the wgmma pipeline path by path without relating branch
// conditions. With the P V issue and its wait under `every(1, 1)`, the path that issues and
// skips the wait reads O in flight (C7514), and a wgmma under a guard it cannot prove
// warp-uniform is fenced in a divergent path (C7520): either serialised every wgmma of the
// kernel (docs/cuda-backend.md, register plans).
template <int D, int G>
struct OverlapSchedule {
  template <class S, class Ord, class Qr, class Kr, class Vr, class Sc, class Acc, class Out, class W>
  TS_HD void operator()(S& s, Ord& order, Qr& q, Kr& k, Vr& v, Sc& sc, Acc& acc, Out& out, W& wq) const {
    auto issue_qk = [&](auto q_stage) {  // in the order's turn: the groups' Q K^T issues alternate
      if constexpr (G == 0) order.acquire();
      if constexpr (G == 1) order.wait();
      k.wait();
      ts::work<&Scores<D, kRows>::qk>(sc, q_stage, ts::work<&KvRing<D>::operand>(k));
    };
    auto pass_order = [&] {
      if constexpr (G == 0) order.commit();
      if constexpr (G == 1) order.release();
    };
    auto issue_pv = [&] {
      v.wait();
      ts::work<&OutAcc<D>::pv>(acc, ts::work<&KvRing<D>::operand>(v));
    };
    auto retire_pv = [&] {
      ts::work<&OutAcc<D>::retire>(acc);
      v.release();
    };
    s.work_tile_loop(wq, [&] {
      q.wait();
      auto q_stage = ts::work<&QRing<D>::operand>(q);
      ts::work<&OutAcc<D>::begin_tile>(acc);
      issue_qk(q_stage);  // block 0
      pass_order();
      ts::work<&Scores<D, kRows>::retire>(sc);
      k.release();
      ts::work<&OutAcc<D>::softmax_stats_first>(acc, ts::work<&Scores<D, kRows>::fragment>(sc));
      ts::work<&OutAcc<D>::softmax_apply>(acc, ts::work<&Scores<D, kRows>::fragment>(sc));
      s.domain_loop(1, kv_bound(wq), 1, [&] {
        issue_qk(q_stage);
        issue_pv();  // P V of the previous block, behind this block's Q K^T
        pass_order();
        ts::work<&Scores<D, kRows>::retire_keep_one>(sc);
        k.release();
        ts::work<&OutAcc<D>::softmax_stats>(acc, ts::work<&Scores<D, kRows>::fragment>(sc));
        retire_pv();
        ts::work<&OutAcc<D>::softmax_apply>(acc, ts::work<&Scores<D, kRows>::fragment>(sc));
      });
      issue_pv();  // the last block's P V
      retire_pv();
      ts::work<&GmemO<D>::store>(out, ts::work<&OutAcc<D>::result>(acc), q_stage);
      q.release();
      ts::queue_epilogue(wq);
    });
    ts::work<&GmemO<D>::drain>(out);
  }
};

template <int D, int G, Variant V, bool kOverlap>
using ConsumerOf = std::conditional_t<kOverlap, OverlapSchedule<D, G>, ConsumerSchedule<D, G, V>>;

// The shared-K/V shape for build_attention: a tile is one 128-row Q block of one head.
template <int D>
struct SharedShape {
  using QRing = shared::QRing<D>;
  using Source = SourceQKV<D>;
  static constexpr char const* kQueueName = "tiles";
  static constexpr bool kPair = false;
  template <class S>
  static HeadTileQueueOf<S> queue(Problem const& p, S const& sched) {
    return tile_queue<HeadTileQueueOf<S>>(p.plan, p.plan.num_blocks * p.plan.hq, sched);
  }
  static Scores<D, kRows> scores(int half) {
    Scores<D, kRows> sc{};
    sc.q_row0 = 64 * half;
    return sc;
  }
};

// p.plan.blocks: 128-row Q blocks (plan_blocks<D>(shape, kRows)), p.plan.shared = 1;
// p.map_q in 128 x D boxes (the emulator; 128 x 64 on the device). S: the tile scheduler,
// as make_attention takes it (static; ts::GlobalCounterScheduler{counter, scratch} on
// sm_90a; ts::ClcScheduler{} on the emulator).
template <int D, Variant V = Variant::kCorrect, bool kOverlap = false, class S>
  requires requires { S::is_dynamic; }
inline auto make_attention_shared(Problem const& p, S const& sched, ts::Options o = {}) {
  static_assert(!kOverlap || V == Variant::kCorrect, "the overlapped schedule has no near-miss variants");
  if (!p.plan.shared) throw std::invalid_argument("attention: make_attention_shared needs plan.shared = 1");
  using Load = std::conditional_t<kOverlap, OverlapLoadSchedule<D>, LoadSchedule<D>>;
  return build_attention<D, SharedShape<D>, V != Variant::kNoOrder, Load, ConsumerOf<D, 0, V, kOverlap>,
                         ConsumerOf<D, 1, V, kOverlap>>(p, o, sched);
}
template <int D, Variant V = Variant::kCorrect, bool kOverlap = false>
inline auto make_attention_shared(Problem const& p, ts::Options o = {}) {
  return make_attention_shared<D, V, kOverlap>(p, ts::StaticScheduler{}, o);
}

}  // namespace attn::shared
