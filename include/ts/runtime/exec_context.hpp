// The executing schedule context: the `s` a schedule functor receives when it runs,
// on the GPU or in the CPU emulator. The same schedule body that the recorder turned
// into IR runs here as real loops, branches and barrier operations.
//
// Backend primitives come from an Arch object (docs/architecture.md, "The Arch interface"):
//   ThreadCoord const& thread() const;  KernelContext const& kernel() const;
//   void mbar_arrive(uint64_t*);  void mbar_expect_tx(uint64_t*, uint32_t);  // expect_tx: arms bytes, no arrival
//   bool mbar_try_wait(uint64_t*, uint32_t phase);
//   void mbar_wait(uint64_t*, uint32_t phase, WaitSite const&);
//   void umma_commit(uint64_t*);                       // MMA-engine arrival (emulated on sm_90)
//   and the primitives of the tile schedulers its work queues use (runtime/scheduler/:
//   none for the static one; GlobalCounterArch, ClcArch for the dynamic ones);
//   void pdl_wait();  void pdl_launch();
//   [[noreturn]] void fail(char const* what, WaitSite const&);
//   void warp_sync();                                  // __syncwarp: the warp's lanes converge
//   void task_sync(int barrier_id, int threads);       // bar.sync id, threads: the task's warps
// (the last two may be missing only from an Arch that runs each task as one thread, such
// as a test's trace-only Arch: there is nothing to converge).
// Optional step hooks (the CPU emulator uses them for scheduling points, replay and
// error reports; the CUDA arch lacks them, so they compile away there):
//   void on_sync(int task, int resource, SyncOp);  template <auto M> void on_work(int task, int resource);
// The resource handles and their pipeline protocols: runtime/handle.hpp, runtime/pipeline/.
// Each thread owns its context and its copies of the resource structs, so per-tile
// state kept in resource fields is per-thread register state, as on the GPU.
#pragma once
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/named_barriers.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/core/results.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/core/sync_op.hpp"
#include "ts/core/work_traits.hpp"
#include "ts/runtime/handle.hpp"
#include "ts/runtime/pipeline/state.hpp"
#include "ts/runtime/pipeline_runtime.hpp"
#include "ts/runtime/scheduler/checked.hpp"
#include "ts/runtime/loop_hooks.hpp"
#include "ts/schedule/runtime_value.hpp"
#include "ts/schedule/unroll.hpp"

// Run-time checks that repeat a static proof (a declared minimum, a tile loop's advance):
// always in the emulator, on the GPU only in debug builds (TS_BOUNDED_WAITS), because a
// conditional trap inside a tuned kernel costs registers and spills (see
// check_declared_minimum and run_tile_loop).
#if !TS_DEVICE_PASS || defined(TS_BOUNDED_WAITS)
#define TS_PROOF_CHECKS_AT_RUN_TIME 1
#else
#define TS_PROOF_CHECKS_AT_RUN_TIME 0
#endif

namespace ts {

namespace exec {

template <class F, class H>
TS_HD void invoke_body(F& body, H& h) {
  if constexpr (std::is_invocable_v<F&, H&>) body(h);
  else body();
}

template <class Arch>
class Context;

// The loop handle keeps no state of its own: the iteration count lives in the context,
// so no object's address is stored in another and, once inlined, the whole executing
// context stays in registers (an address cycle here put it in local memory: 128-192 B
// of stack per thread on sm_90a).
template <class Ctx>
class DomainLoop {
 public:
  TS_HD DomainLoop(Ctx* c) : ctx_(c) {}
  template <class F>
  TS_HD void first_iter(F&& body) { ctx_->first_iter(body); }
  template <class F>
  TS_HD void last_iter(F&& body) { ctx_->last_iter(body); }
  template <class F>
  TS_HD void every(int period, int start, F&& body) { ctx_->every(period, start, body); }
  template <class F>
  TS_HD void every(int period, F&& body) { ctx_->every(period, 0, body); }
  TS_HD void break_loop() { ctx_->live_ = false; }

 private:
  // Only a pointer to the context: the iteration state lives there by value, so no
  // pointer cycle keeps the compiler from holding it in registers.
  Ctx* ctx_;
};

template <class Ctx>
class WorkTileLoop {
 public:
  TS_HD WorkTileLoop(Ctx* c, bool skip) : ctx_(c), skip_(skip) {}
  template <class F>
  TS_HD void skippable(F&& body) { if (!skip_ && ctx_->live_) body(); }
  TS_HD int tile_idx() const { return ctx_->tile_.tile_idx; }

 private:
  Ctx* ctx_;
  bool skip_;
};

template <class Arch>
class Context {
 public:
  static constexpr bool is_recording = false;
  TS_HD Context(Arch& arch, PipelineRuntime const* pipes, int task_id) : arch_(arch), pipes_(pipes), task_id_(task_id) {
    tile_.tile_idx = arch.thread().block_idx;
    tile_.coord[0] = tile_.tile_idx;
  }

  TS_HD ThreadCoord const& thread() const { return arch_.thread(); }
  TS_HD KernelContext const& kernel() const { return arch_.kernel(); }
  TS_HD int task_threads() const { return thread().task_threads; }
  TS_HD long long task_thread() const { return thread().thread_in_task; }
  TS_HD long long block_idx() const { return thread().block_idx; }
  TS_HD long long grid_blocks() const { return thread().grid_blocks; }
  TS_HD long long global_thread() const { return block_idx() * task_threads() + task_thread(); }
  TS_HD long long grid_threads() const { return grid_blocks() * task_threads(); }

  // Unroll defaults to 1 (SPEC S4.2): the loop stays rolled unless the schedule asks.
  template <class B0, class B1, class B2, class F>
  TS_HD void domain_loop(B0 start, B1 end, B2 step, F&& body) {
    check_declared_minimum(start);
    check_declared_minimum(end);
    run_domain_loop<1>(static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(step), body);
  }
  template <class B0, class B1, class B2, int N, class F>
  TS_HD void domain_loop(B0 start, B1 end, B2 step, Unroll<N>, F&& body) {
    check_declared_minimum(start);
    check_declared_minimum(end);
    run_domain_loop<N>(static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(step), body);
  }

  template <class H, class F>
  TS_HD void work_tile_loop(H const& wq, F&& body) {
    run_tile_loop(wq, [](auto const&, WorkTile const&) { return false; }, body);
  }
  // `skip` by value: ts::skip_if<F> is a scalar constant (schedule/skip_if.hpp), so
  // device code may use it.
  template <class H, class S, class F>
  TS_HD void work_tile_loop(H const& wq, S skip, F&& body) {
    run_tile_loop(wq, skip_predicate(skip), body);
  }

  // Context forms of the loop-handle operations (see the recorder for why both exist).
  template <class F>
  TS_HD void first_iter(F&& body) { if (live_ && loop_count_ == 0) body(); }
  template <class F>
  TS_HD void last_iter(F&& body) { if (live_ && loop_last_) body(); }
  template <class F>
  TS_HD void every(int period, int start, F&& body) {
    if (live_ && loop_count_ >= start && (loop_count_ - start) % period == 0) body();
  }
  template <class F>
  TS_HD void every(int period, F&& body) { every(period, 0, body); }
  TS_HD void break_loop() { live_ = false; }
  template <class F>
  TS_HD void skippable(F&& body) { if (!skip_ && live_) body(); }

  template <class C, class F>
  TS_HD void when_true(C const& cond, F&& body) { if (live_ && cond != C{}) body(); }
  template <class C, class F>
  TS_HD void when_false(C const& cond, F&& body) { if (live_ && cond == C{}) body(); }
  template <class C, class K, class F>
  TS_HD void when_true(C const& cond, K const&, F&& body) { when_true(cond, body); }
  template <class C, class K, class F>
  TS_HD void when_false(C const& cond, K const&, F&& body) { when_false(cond, body); }

  // The checker models a task's op as one step; on the GPU the task's lanes and warps run
  // apart (independent thread scheduling), so before a leader signals for the task every
  // thread must have finished what precedes the op: otherwise the other side may refill
  // a slot a lane still reads (racecheck's hazard on the dynamic queue's response) or
  // read a stage a lane has not written yet. Called by every thread of the task, on
  // every op where a leader signals (commit, release); `m` is who signals:
  //   All: each thread arrives for itself, nothing to converge;
  //   TaskWarpLeader (with or without CtaLeader): lane 0 of each warp arrives for its warp,
  //     so the warp converges (bar.warp.sync, which also orders the lanes' memory accesses
  //     before the leader's release-arrive); the barrier counts one arrival per warp;
  //   CtaLeader: one thread arrives for all the task's warps: one warp converges, several
  //     meet at the task's named barrier (bar.sync kTaskBarrierBase + task, task threads).
  // Acquire's expect_tx and fetch_work_tile need none: they publish only the leader's own
  // copy issue, after the leader's own wait (the stage's contents are published by commit).
  TS_HD void converge(Signal m) {
    if constexpr (requires { arch_.warp_sync(); }) {
      if (m == Signal::All) return;
      if (m == Signal::CtaLeader && thread().task_threads > 32) {
        if (task_id_ >= kTaskBarriers) {
          WaitSite w;
          w.task = task_id_;
          arch_.fail("CtaLeader signal in a multi-warp task beyond the named barriers reserved for tasks", w);
        }
        arch_.task_sync(kTaskBarrierBase + task_id_, thread().task_threads);
      } else {
        arch_.warp_sync();
      }
    } else {
      (void)m;
    }
  }

  TS_HD bool signals(Signal m) const {
    ThreadCoord const& t = thread();
    switch (m) {
      case Signal::All: return true;
      case Signal::CtaLeader: return t.thread_in_task == 0;
      case Signal::TaskWarpLeader: return (t.thread_in_task & 31) == 0;
      case Signal::CtaLeaderTaskWarpLeader: return (t.thread_in_task & 31) == 0;
    }
    return true;
  }

  // Named barriers (core/named_barriers.hpp): 0 is __syncthreads, 1 .. 8 converge tasks
  // 0 .. 7 (converge()), 9 .. 15 are left to work bodies (the GEMM's TMA-store epilogue
  // uses kFirstBodyBarrier + warp group).
  static constexpr int kTaskBarrierBase = ts::kTaskBarrierBase, kTaskBarriers = ts::kTaskBarriers;

  Arch& arch_;
  PipelineRuntime const* pipes_;
  int task_id_;
  // The task's per-resource pipeline positions (set by run_task_impl), for domain lanes.
  ResourceState* states_ = nullptr;
  int const* state_ids_ = nullptr;
  int num_states_ = 0;
  // Which sides of the task's resources may run in lane mode (pipeline/params.hpp,
  // lane_sides_mask): a constant, so start_lanes folds away for static stride-1 rings.
  uint64_t lane_sides_ = ~uint64_t(0);
  bool lanes_started_ = false;
  long long loop_offset_ = 0;
  WorkTile tile_{};
  bool live_ = true;
  bool advanced_ = false;
  bool skip_ = false;
  long long loop_count_ = 0;  // zero-based iteration of the domain loop
  bool loop_last_ = false;

 private:
  // The checker proved the schedule for the lengths a declared minimum allows
  // (ts::runtime(v, "n").at_least(m), ts::at_least(m, bound)): a value below it is a run
  // outside the proof (the GEMM's lagged release with no K block releases a stage never
  // waited for), so it stops here, at the loop that would take it, instead of hanging or
  // racing further on. The emulator always checks; on the GPU only debug builds
  // (TS_BOUNDED_WAITS) do: a conditional trap between the wgmma regions of the attention
  // kernel took its spills from 148 to 2536 bytes and serialized its wgmma (ptxas C7512,
  // stop 35), so release builds trust the declaration as the proof does.
  template <class B>
  TS_HD void check_declared_minimum(B const&) {}
  TS_HD void check_declared_minimum(RuntimeValue const& v) { check_declared_minimum(v.value, v.least, v.name); }
  TS_HD void check_declared_minimum(AtLeast const& v) { check_declared_minimum(v.value, v.least, nullptr); }
  // name: the ts::runtime value's, or null for a ts::at_least(m, bound).
  TS_HD void check_declared_minimum(long long value, long long least, char const* name) {
    (void)name;
    if (!TS_PROOF_CHECKS_AT_RUN_TIME || value >= least) return;
    WaitSite w;
    w.task = task_id_;
#if TS_DEVICE_PASS
    arch_.fail("a domain_loop bound is below its declared minimum (at_least): this run is outside the checker's proof", w);
#else
    char bound[96];
    if (name && least == 0) std::snprintf(bound, sizeof bound, "ts::runtime(..., \"%s\") (never negative)", name);
    else if (name) std::snprintf(bound, sizeof bound, "ts::runtime(..., \"%s\").at_least(%lld)", name, least);
    else std::snprintf(bound, sizeof bound, "ts::at_least(%lld, ...)", least);
    char what[320];
    std::snprintf(what, sizeof what,
                  "domain_loop bound %s is %lld, below its declared minimum %lld: the checker proved the schedule "
                  "only for values from %lld, so this run is outside its proof",
                  bound, value, least, least);
    arch_.fail(what, w);
#endif
  }

  // Domain-lane interleaving (S3.3, S6.12): a task whose loop runs from its lane l with
  // step = stride handles stages l, l + stride, ...: its counters on a domain-lane side
  // start at l. Done once per thread, so across work tiles the counters continue (right
  // when every lane handles the same number of stages per tile).
  TS_HD void start_lanes(long long start, long long step) {
    lanes_started_ = true;
TS_UNROLL
    for (int i = 0; i < num_states_; ++i) {
      bool const may_p = i >= 32 || (lane_sides_ >> (2 * i) & 1), may_c = i >= 32 || (lane_sides_ >> (2 * i + 1) & 1);
      if (!may_p && !may_c) continue;
      PipelineRuntime const& p = pipes_[state_ids_[i]];
      ResourceState& st = states_[i];
      if (may_p && p.producer_lanes && step == p.stride_acquire && start >= 0 && start < step) {
        st.prod_open.advance(p.num_stages, static_cast<int>(start));
        st.prod_close.advance(p.num_stages, static_cast<int>(start));
      }
      if (may_c && p.consumer_lanes && step == p.stride_wait && start >= 0 && start < step) {
        st.cons_open.advance(p.num_stages, static_cast<int>(start));
        st.cons_close.advance(p.num_stages, static_cast<int>(start));
      }
    }
  }
  // Zero-cost unless the arch numbers steps by the IR (the CPU emulator; loop_hooks.hpp).
  TS_HD void loop_edge(LoopKind kind, LoopEdge edge) {
    if constexpr (HasLoopHooks<Arch>) arch_.on_loop(task_id_, kind, edge);
    (void)kind;
    (void)edge;
  }
  template <int U, class F>
  TS_HD void run_domain_loop(long long start, long long end, long long step, F& body) {
    if (!lanes_started_) start_lanes(start, step);
    // One loop per step direction: each is a canonical counted loop the compiler can
    // unroll and keep several loads in flight (a direction test in the loop condition
    // blocked that: 0.6x of the hand-written grid-stride copy on the H200).
    if (step > 0) domain_loop_dir<true, U>(start, end, step, body);
    else domain_loop_dir<false, U>(start, end, step, body);
    loop_edge(LoopKind::Domain, LoopEdge::Exit);
  }
  template <bool Up, int U, class F>
  TS_HD void domain_loop_dir(long long start, long long end, long long step, F& body) {
    DomainLoop<Context> d(this);
    loop_count_ = 0;
    long long i = start;
#if TS_DEVICE_PASS
    // ts::unroll<U>: unrolled by hand, U iterations per trip while U remain. nvcc will
    // not unroll a loop with the break_loop() exit, because the live_ flag is folded only
    // after its unroller ran; here the later passes fold the checks away when the body
    // never breaks, leaving U loads in flight (grid-stride copy on the H200: 0.62-0.70x
    // of the hand-written twin when rolled). The default (1) keeps large bodies, like
    // the GEMM's k-loop, rolled.
    if constexpr (Up && U > 1) {
      for (; i + (U - 1) * step < end; i += U * step) {
        for (int u = 0; u < U; ++u) {
          loop_offset_ = i + u * step;
          loop_last_ = i + (u + 1) * step >= end;
          loop_edge(LoopKind::Domain, LoopEdge::Iteration);
          invoke_body(body, d);
          ++loop_count_;
          if (!live_) {
            live_ = true;
            return;
          }
        }
      }
    }
#endif
    for (; Up ? i < end : i > end; i += step) {
      loop_offset_ = i;
      loop_last_ = Up ? i + step >= end : i + step <= end;
      loop_edge(LoopKind::Domain, LoopEdge::Iteration);
      invoke_body(body, d);
      ++loop_count_;
      if (!live_) {  // break_loop(): leave the loop, resume after it
        live_ = true;
        break;
      }
    }
  }
  template <class H, class S, class F>
  TS_HD void run_tile_loop(H const& wq, S const& skip, F& body) {
    tile_ = checked_scheduler_t<std::remove_cvref_t<decltype(wq.get())>, Arch>::first(arch_, wq.get());
    while (tile_.valid) {
      skip_ = skip(wq.get(), tile_);
      WorkTileLoop<Context> h(this, skip_);
      advanced_ = false;
      loop_edge(LoopKind::WorkTile, LoopEdge::Iteration);
      invoke_body(body, h);
      // A body without its advance would loop on this tile for ever. The static check
      // S6.7.missing-queue-epilogue refuses such a schedule (an advance directly in the
      // tile body, under no guard), so on the GPU only debug builds (TS_BOUNDED_WAITS)
      // repeat it at run time: this conditional trap after every tile cost the attention
      // kernel at head dim 256 under the dynamic scheduler all its 148 bytes of spills
      // (0 without it, ptxas, stop 35). The emulator always checks.
      if (TS_PROOF_CHECKS_AT_RUN_TIME && !advanced_) {
        WaitSite w;
        w.task = task_id_;
        w.resource = wq.id();
        w.op = SyncOp::Advance;
        arch_.fail("work_tile_loop body finished without get_and_advance_work_tile(): the loop would never end", w);
      }
    }
    loop_edge(LoopKind::WorkTile, LoopEdge::Exit);
  }
};

}  // namespace exec
}  // namespace ts
