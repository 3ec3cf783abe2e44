// Host-side declaration of forward attention (attention_schedule.hpp): resources, tasks,
// dependency graph, registers. One CTA = 384 threads: warp 0 loads (40 registers, the rest
// of its warp group idles), warp groups 1 and 2 compute (232 registers each). ptxas
// allocates each task's code at its own budget (docs/cuda-backend.md, register plans): the
// load loop spilled at 24 and 32 and is clean at 40 (but for 4-16 B at D = 256), and 232 is
// enough for the consumers but for the dynamic overlapped schedule at D = 256: 148 B of spill
// stores with 80-key blocks (12 B with 64), gone at 256 registers (a ptxas probe, stop 34),
// so that kernel's math needs about 20 registers more than the static one's.
#pragma once
#include <tuple>

#include "attention_schedule.hpp"
#include "ts/task_manager.hpp"

namespace attn {

// What the manager needs; the maps and buffers belong to the caller (attention_host.hpp
// on the emulator). plan.blocks must outlive every run.
struct Problem {
  Plan plan;
  void const* map_q = nullptr;  // Q as [tokens][hq * D], 64 x D boxes
  void const* map_k = nullptr;  // K as [tokens][hkv * D], kBlockN x D boxes
  void const* map_v = nullptr;  // V likewise
  void const* map_o = nullptr;  // device: O as [tokens][hq * D], 64 x 64 boxes (null: O from registers)
  uint16_t* o = nullptr;
  float* lse = nullptr;
  int pairs() const { return plan.num_blocks * plan.head_pairs; }
};

// The warp groups' setmaxnreg budgets (see the header comment for why these two). An inc
// takes its registers from what the CTA's own decs gave back, so the three budgets may not
// sum past the 3 x 168 allocated at entry (FlashAttention-3's 24 + 2 x 240 and CUTLASS's
// 40 + 2 x 232 meet it exactly); 48 + 2 x 232 would fit the file but not the CTA's pool.
constexpr int kLoadRegisters = 40;
constexpr int kMathRegisters = 232;
constexpr int kEntryRegisters = 65536 / 384 / 8 * 8;  // 168: __launch_bounds__(384, 1)
static_assert(kLoadRegisters + 2 * kMathRegisters <= 3 * kEntryRegisters,
              "attention: the budgets exceed the registers the CTA holds at entry");

// Under a dynamic scheduler the pair kernel at D = 256 spilled 4 B at 40 / 232 (ptxas) and is
// clean at 48 / 224, so the spill was in the load warp group (Load or Scheduler; the response
// ring's stage and phase live through the load loop are the likely extra). Every other
// kernel keeps 40 / 232: the static ones unchanged; the dynamic overlapped one at 256 spills
// more at 48 / 224 (its math is the tight side) and at 24 / 240 (docs/attention.md).
template <int D, class Shape, class S>
struct Budgets {
  static constexpr int load = S::is_dynamic && Shape::kPair && D == 256 ? 48 : kLoadRegisters;
  static constexpr int math = (3 * kEntryRegisters - load) / 2 / 8 * 8;
  static_assert(load + 2 * math <= 3 * kEntryRegisters, "attention: the budgets exceed the registers at entry");
};

// A shape's tile queue: `tiles` tiles over the plan, under scheduler `sched` (its state: none
// for the static one, a global counter's counter and scratch).
template <class Q, class S>
inline Q tile_queue(Plan const& plan, int tiles, S const& sched) {
  Q q;
  if constexpr (S::is_dynamic) static_cast<S&>(q) = sched;
  q.num_tiles = tiles;
  q.plan = plan;
  return q;
}

// The builder of both shapes (this file's pair shape, attention_shared.hpp's shared-K/V
// one): resources, the load task, the two consumer groups with their registers and the
// dependency graph. Shape says what differs: the tile queue (Shape::queue(p), named
// Shape::kQueueName), the Q/K/V source, the Q ring and each group's Scores
// (Shape::scores(half)); Load, C0, C1 are the schedules; kOrder: whether the groups pass
// the order barrier (a graph self-edge and a resource the groups read and write). S is the
// tile scheduler: a dynamic one brings its scheduler task, on warp 1 of the load warp group
// (idle otherwise) at the load budget (Budgets); the data tasks' schedules are the same for all.
template <int D, class Shape, bool kOrder, class Load, class C0, class C1, class S = ts::StaticScheduler>
inline auto build_attention(Problem const& p, ts::Options o, S const& sched = {}) {
  auto out = [&](int half) {
    GmemO<D> g;
    g.plan = p.plan;
    g.half = half;
    g.o = p.o;
    g.lse = p.lse;
    g.map_o = p.map_o;
    return g;
  };
  auto acc = [&](int half) {
    OutAcc<D> a{};
    a.plan = p.plan;
    a.half = half;  // the group's first row in the tile (plan.row0: 0 in the pair shape)
    return a;
  };
  typename Shape::QRing qr{};
  qr.map = p.map_q;
  KvRing<D> kr{}, vr{};
  kr.map = p.map_k;
  vr.map = p.map_v;
  typename Shape::Source src{};
  src.plan = p.plan;
  auto wq = ts::resource(Shape::kQueueName, Shape::queue(p, sched));  // S::pipeline when dynamic
  auto gmem = ts::resource("gmem_qkv", src);
  auto q_smem = ts::resource("q_smem", qr);
  auto k_smem = ts::resource("k_smem", kr);
  auto v_smem = ts::resource("v_smem", vr);
  auto s0 = ts::resource("s0", Shape::scores(0));
  auto s1 = ts::resource("s1", Shape::scores(1));
  auto acc0 = ts::resource("acc0", acc(0));
  auto acc1 = ts::resource("acc1", acc(1));
  auto o0 = ts::resource("o0", out(0));
  auto o1 = ts::resource("o1", out(1));
  auto order = ts::resource("order", MathOrder{});
  using B = Budgets<D, Shape, S>;
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, wq).writes(q_smem, k_smem, v_smem).schedule(
      ts::with_registers<B::load>(Load{}), gmem, q_smem, k_smem, v_smem, wq);
  auto g0 = ts::Task("Group0").warps(4, 4);
  auto g1 = ts::Task("Group1").warps(8, 4);
  if constexpr (kOrder) {
    g0.reads(q_smem, k_smem, v_smem, s0, acc0, wq).writes(order, s0, acc0, o0);
    g1.reads(order, q_smem, k_smem, v_smem, s1, acc1, wq).writes(s1, acc1, o1);
  } else {
    g0.reads(q_smem, k_smem, v_smem, s0, acc0, wq).writes(s0, acc0, o0);
    g1.reads(q_smem, k_smem, v_smem, s1, acc1, wq).writes(s1, acc1, o1);
  }
  auto c0 = g0.schedule(ts::with_registers<B::math>(C0{}), order, q_smem, k_smem, v_smem, s0, acc0, o0, wq);
  auto c1 = g1.schedule(ts::with_registers<B::math>(C1{}), order, q_smem, k_smem, v_smem, s1, acc1, o1, wq);
  ts::DependencyGraph graph{{q_smem, {gmem}}, {k_smem, {gmem}}, {v_smem, {gmem}}, {s0, {q_smem, k_smem}},
                            {s1, {q_smem, k_smem}}, {acc0, {s0, v_smem}}, {acc1, {s1, v_smem}}, {o0, {acc0}},
                            {o1, {acc1}}};
  if constexpr (kOrder) graph.edges.push_back({order, {order}});
  return std::apply([&](auto const&... scheduler) { return ts::TaskManager(ts::tasks(load, scheduler..., c0, c1), graph, o); },
                    ts::scheduler_tasks<B::load>(wq, 1));
}

// The pair shape: a tile is a pair of 64-row Q blocks, one per group.
template <int D>
struct PairShape {
  using QRing = attn::QRing<D>;
  using Source = GmemQKV<D>;
  static constexpr char const* kQueueName = "pairs";
  static constexpr bool kPair = true;
  template <class S>
  static PairQueueOf<S> queue(Problem const& p, S const& sched) {
    return tile_queue<PairQueueOf<S>>(p.plan, p.pairs(), sched);
  }
  static Scores<D> scores(int) { return Scores<D>{}; }
};

// The pair-shape kernel. S: the tile scheduler, by value with its state (as gemm::make_gemm):
//   make_attention<D>(p)                                              static persistent
//   make_attention<D>(p, ts::GlobalCounterScheduler{counter, scratch})  dynamic on sm_90a:
//       `counter` zeroed before each launch (ts::cuda::reset_queue), `scratch` grid x
//       ts::kQueueMaxStages responses, both device memory (host memory on the emulator)
//   make_attention<D>(p, ts::ClcScheduler{})                          dynamic by Cluster Launch
//       Control (the emulator; sm_100a)
template <int D, Variant V = Variant::kCorrect, class S>
  requires requires { S::is_dynamic; }
inline auto make_attention(Problem const& p, S const& sched, ts::Options o = {}) {
  return build_attention<D, PairShape<D>, V != Variant::kNoOrder, LoadSchedule<D>, ConsumerSchedule<D, 0, V>,
                         ConsumerSchedule<D, 1, V>>(p, o, sched);
}
template <int D, Variant V = Variant::kCorrect>
inline auto make_attention(Problem const& p, ts::Options o = {}) {
  return make_attention<D, V>(p, ts::StaticScheduler{}, o);
}

}  // namespace attn
