// The executing schedule context: the `s` a schedule functor receives when it runs,
// on the GPU or in the CPU emulator. The same schedule body that the recorder turned
// into IR runs here as real loops, branches and barrier operations.
//
// Backend primitives come from an Arch object (docs/architecture.md, "The Arch interface"):
//   ThreadCoord const& thread() const;  KernelContext const& kernel() const;
//   void mbar_arrive(uint64_t*);  void mbar_expect_tx(uint64_t*, uint32_t);  // arms bytes, no arrival
//   bool mbar_try_wait(uint64_t*, uint32_t phase);
//   void mbar_wait(uint64_t*, uint32_t phase, WaitSite const&);
//   void umma_commit(uint64_t*);                       // MMA-engine arrival (emulated on sm_90)
//   template <class Q> WorkTile first_tile(Q const&);
//   template <class Q> void queue_fetch(Q const&, void* response, uint64_t* full);
//   template <class Q> WorkTile queue_read(Q const&, void const* response);
//   void pdl_wait();  void pdl_launch();
//   [[noreturn]] void fail(char const* what, WaitSite const&);
//   void warp_sync();                                  // __syncwarp: the warp's lanes converge
//   void task_sync(int barrier_id, int threads);       // bar.sync id, threads: the task's warps
// (the last two may be missing only from an Arch that runs each task as one thread, such
// as a test's trace-only Arch: there is nothing to converge).
// Optional step hooks (the CPU emulator uses them for scheduling points, replay and
// error reports; the CUDA arch lacks them, so they compile away there):
//   void on_sync(int task, int resource, SyncOp);  template <auto M> void on_work(int task, int resource);
// Each thread owns its context and its copies of the resource structs, so per-tile
// state kept in resource fields is per-thread register state, as on the GPU.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/core/results.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/core/sync_op.hpp"
#include "ts/core/work_traits.hpp"
#include "ts/runtime/pipeline_runtime.hpp"
#include "ts/schedule/unroll.hpp"

namespace ts {

namespace exec {

template <class F, class H>
TS_HD void invoke_body(F& body, H& h) {
  if constexpr (std::is_invocable_v<F&, H&>) body(h);
  else body();
}

template <class A>
concept HasStepHooks = requires(A& a) { a.on_sync(0, 0, SyncOp::Wait); };

// Per (task, resource) pipeline position, kept by the executing thread.
struct ResourceState {
  PipelineCounter prod_open, prod_close, cons_open, cons_close;
  int prod_stage = kNoStage, cons_stage = kNoStage, active_stage = kNoStage;
  bool try_acquire_ready = false, try_wait_ready = false;
};

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

// The collapsed side of a pipeline group while executing (ts::group). Each member runs
// its op in the group's order (the recorder's order too, so step hooks line up); a
// barrier the members share is signalled once, through the lead member. Waiting twice
// on a shared full barrier is harmless: its phase cannot move on before this consumer
// releases the stage.
template <class... H>
class GroupView {
 public:
  TS_HD explicit GroupView(H const*... h) : h_(h...) {}
  TS_HD void try_acquire() const { each([](auto const& m) { m.try_acquire(); }); }
  TS_HD void acquire() const { each([](auto const& m) { m.acquire_op(true); }); }
  TS_HD void commit() const { each([](auto const& m) { m.commit_op(true); }); }
  TS_HD void try_wait() const { each([](auto const& m) { m.try_wait(); }); }
  TS_HD void wait() const { each([](auto const& m) { m.wait(); }); }
  TS_HD void release() const { each([](auto const& m) { m.release_op(true); }); }

 private:
  // Members in group order: the view may list them in any order.
  template <class F>
  TS_HD void each(F const& f) const {
    for (int k = 0; k < int(sizeof...(H)); ++k) visit(k, f, std::index_sequence_for<H...>{});
  }
  template <class F, std::size_t... I>
  TS_HD void visit(int k, F const& f, std::index_sequence<I...>) const {
    ((h_.template get<I>()->member_index() == k ? f(*h_.template get<I>()) : void()), ...);
  }
  Results<H const*...> h_;
};

template <class Ctx, class T>
class Handle {
 public:
  using resource_type = T;
  // The handle keeps its own copy of the resource's pipeline description: read once
  // from the kernel parameters, it then lives in registers, where the barrier asm's
  // memory clobbers cannot force it to be reloaded every iteration.
  TS_HD Handle(Ctx* c, T* res, int id, ResourceState* st)
      : ctx_(c), res_(res), id_(id), st_(st), pipe_(c->pipes_[id]) {
    if constexpr (requires { T::static_pipeline; }) {
      // Field by field, as constants: naming the object itself in device code would odr-use
      // a host variable.
      constexpr Engine producer = T::static_pipeline.producer, consumer = T::static_pipeline.consumer;
      constexpr int stages = T::static_pipeline.num_stages, multicast = T::static_pipeline.multicast_ctas;
      constexpr Signal psig = T::static_pipeline.producer_signal, csig = T::static_pipeline.consumer_signal;
      constexpr uint32_t bytes = T::static_pipeline.stage_bytes;
      pin(StaticPipeline{producer, consumer, stages, psig, csig, bytes, multicast});
    }
  }
  TS_HD T* operator->() const { return res_; }
  TS_HD T& get() const { return *res_; }
  TS_HD int id() const { return id_; }
  TS_HD int member_index() const { return pipe_.group_member; }

  TS_HD void try_acquire() const {
    if (!live()) return;
    hook(SyncOp::TryAcquire);
    if (!pipe().pipelined) return;
    st_->try_acquire_ready = ctx_->arch_.mbar_try_wait(empty_bar(st_->prod_open.index), st_->prod_open.phase ^ 1u);
  }
  TS_HD void acquire() const { acquire_op(false); }
  // `collapsed`: one member's part of a group op (ts::group(...).acquire()); a barrier
  // the members share is signalled through the lead member only.
  TS_HD void acquire_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Acquire);
    auto const& p = pipe();
    if (p.kind == ResourceKind::PdlLaunch || !p.pipelined) return;
    auto& c = st_->prod_open;
    if (!st_->try_acquire_ready)
      ctx_->arch_.mbar_wait(empty_bar(c.index), c.phase ^ 1u, site(SyncOp::Acquire, c));
    st_->try_acquire_ready = false;
    bool signal_full = !(collapsed && p.shared_full && !p.group_lead);
    // Tma / ClcFetch: arm the stage's transaction bytes without arriving. The leader's
    // arrival comes at the commit, so the stage turns full once the commit ran *and* the
    // bytes landed, as the checker models it (a consumer cannot pass between the copy and
    // the commit).
    if (bytes_producer(p) && signal_full && ctx_->signals(Signal::CtaLeader))
      ctx_->arch_.mbar_expect_tx(full_bar(c.index), p.stage_bytes);
    st_->prod_stage = st_->active_stage = c.index;
    c.advance(p.num_stages, p.stride_acquire);
  }
  TS_HD void commit() const { commit_op(false); }
  TS_HD void commit_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Commit);
    auto const& p = pipe();
    if (p.kind == ResourceKind::PdlLaunch) {
      ctx_->arch_.pdl_launch();
      return;
    }
    if (!p.pipelined) return;
    auto& c = st_->prod_close;
    if (collapsed && p.shared_full && !p.group_lead) {  // the lead member signals the shared barrier
      c.advance(p.num_stages, p.stride_commit);
      return;
    }
    // A leader's arrival publishes the stage the whole task wrote: converge first.
    if (p.producer == Engine::Async) ctx_->converge(p.producer_signal);
    if (p.producer == Engine::Umma || bytes_producer(p)) ctx_->converge(Signal::CtaLeader);
    if (p.producer == Engine::Async && ctx_->signals(p.producer_signal)) {
      // AsyncLoad: the arrival fires when this thread's cp.async copies have landed
      // (backends without cp.async arrive directly).
      if constexpr (requires { ctx_->arch_.cp_async_arrive(full_bar(c.index)); }) {
        if (p.async_load) ctx_->arch_.cp_async_arrive(full_bar(c.index));
        else ctx_->arch_.mbar_arrive(full_bar(c.index));
      } else {
        ctx_->arch_.mbar_arrive(full_bar(c.index));
      }
    }
    if (p.producer == Engine::Umma && ctx_->signals(Signal::CtaLeader)) ctx_->arch_.umma_commit(full_bar(c.index));
    // Tma / ClcFetch: the one arrival the full barrier counts; with the bytes armed in
    // acquire, the phase completes when they have landed too.
    if (bytes_producer(p) && ctx_->signals(Signal::CtaLeader)) ctx_->arch_.mbar_arrive(full_bar(c.index));
    c.advance(p.num_stages, p.stride_commit);
  }
  TS_HD void try_wait() const {
    if (!live()) return;
    hook(SyncOp::TryWait);
    if (!pipe().pipelined) return;
    st_->try_wait_ready = ctx_->arch_.mbar_try_wait(full_bar(st_->cons_open.index), st_->cons_open.phase);
  }
  TS_HD void wait() const {
    if (!live()) return;
    hook(SyncOp::Wait);
    auto const& p = pipe();
    if (p.kind == ResourceKind::PdlWait) {
      ctx_->arch_.pdl_wait();
      return;
    }
    if (!p.pipelined) return;
    auto& c = st_->cons_open;
    if (!st_->try_wait_ready) ctx_->arch_.mbar_wait(full_bar(c.index), c.phase, site(SyncOp::Wait, c));
    st_->try_wait_ready = false;
    st_->cons_stage = st_->active_stage = c.index;
    c.advance(p.num_stages, p.stride_wait);
  }
  TS_HD void release() const { release_op(false); }
  TS_HD void release_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Release);
    auto const& p = pipe();
    if (!p.pipelined) return;
    auto& c = st_->cons_close;
    if (collapsed && p.shared_empty && !p.group_lead) {  // the lead member signals the shared barrier
      c.advance(p.num_stages, p.stride_release);
      return;
    }
    // A leader's arrival hands the stage back for the whole task, whose every lane may
    // still be reading it (a queue response, a stage read by ld.shared): converge first.
    ctx_->converge(p.consumer == Engine::Umma ? Signal::CtaLeader : p.consumer_signal);
    if (p.consumer == Engine::Umma) {
      if (ctx_->signals(Signal::CtaLeader)) ctx_->arch_.umma_commit(empty_bar(c.index));
    } else if (p.multicast_ctas > 1 && p.consumer_signal == Signal::TaskWarpLeader) {
      // One warp leader's arrival per CTA of the cluster, spread over lanes 0 .. n-1 so
      // they go out in parallel rather than one after the other from lane 0.
      int lane = ctx_->thread().thread_in_task & 31;
      if (lane < p.multicast_ctas) arrive_at(empty_bar(c.index), lane);
    } else if (ctx_->signals(p.consumer_signal)) {
      if (p.multicast_ctas > 1) {
        for (int r = 0; r < p.multicast_ctas; ++r) arrive_at(empty_bar(c.index), r);
      } else {
        ctx_->arch_.mbar_arrive(empty_bar(c.index));
      }
    }
    c.advance(p.num_stages, p.stride_release);
  }

  // Turn-taking consumers (docs/turns.md): pass over `n` stages another consumer task of
  // the ring waits for and releases. Only this thread's wait and release counters move
  // (index and phase, as n waits and n releases would move them); no barrier is touched.
  // The checker proves the skipped stages are the other task's and that no later wait
  // lands two phases ahead of its barrier (parity aliasing).
  TS_HD void skip(long long n) const {
    if (!live()) return;
    hook(SyncOp::Skip);
    if (!pipe().pipelined || n <= 0) return;
    int S = pipe().num_stages;
    auto pass = [&](PipelineCounter& c) {
      long long to = c.index + n;
      c.phase ^= uint32_t((to / S) & 1);
      c.index = int(to % S);
    };
    pass(st_->cons_open);
    pass(st_->cons_close);
  }

  // ts::group(this, others...) (schedule/group.hpp).
  template <class... H>
  TS_HD auto group_with(H const&... others) const {
    return GroupView<Handle, H...>(this, &others...);
  }

  // Work-queue bookkeeping (SPEC S4.6).
  TS_HD void get_and_advance_work_tile() const requires requires { T::is_work_queue; } {
    if (!live()) return;
    hook(SyncOp::Advance);
    auto const& p = pipe();
    if (p.pipelined) {
      ctx_->tile_ = ctx_->arch_.queue_read(*res_, response(st_->cons_stage));
    } else {
      ctx_->tile_ = res_->make_tile(ctx_->tile_.tile_idx + ctx_->thread().grid_blocks);
    }
    ctx_->advanced_ = true;
  }
  TS_HD void fetch_work_tile() const requires requires { T::is_work_queue; } {
    if (!live()) return;
    hook(SyncOp::Fetch);
    if (ctx_->signals(Signal::CtaLeader))
      ctx_->arch_.queue_fetch(*res_, response(st_->prod_stage), full_bar(st_->prod_stage));
  }

  template <auto M, class... A>
  TS_HD auto invoke(A&&... args) const {
    using W = work_traits<M>;
    static_assert(std::is_base_of_v<typename W::owner, T>,
                  "ts::work<M>(h): M is a method of another resource type than the handle's resource");
    if constexpr (HasStepHooks<std::remove_reference_t<decltype(ctx_->arch_)>>)
      if (live()) ctx_->arch_.template on_work<M>(ctx_->task_id_, id_);
    // Work for an asynchronous engine (a TMA copy, an MMA) is issued by one elected
    // thread, and the engine's access is ordered only after what that thread did. The
    // checker treats the work as one step of the whole task: converge the task first, so
    // every lane's earlier accesses precede the engine's.
    if (live() && engine_work(W::role)) ctx_->converge(Signal::CtaLeader);
    typename W::stage_type si;
    fill(si, W::role);
    return call<M>(si, typename W::ct_params{}, std::forward<A>(args)...);
  }

  template <auto M, class Stage, class... C, class... A>
  TS_HD auto call(Stage const& si, detail::type_list<C...>, A&&... args) const {
    using R = typename work_traits<M>::result;
    // Through a local copy: GCC 12 otherwise fails to instantiate a member-function
    // template named only as a template argument inside nested generic lambdas.
    constexpr auto method = M;
    if constexpr (std::is_void_v<R>) {
      if (live()) (res_->*method)(si, std::forward<A>(args)..., C{}...);
    } else {
      if (!live()) return R{};
      return (res_->*method)(si, std::forward<A>(args)..., C{}...);
    }
  }

  template <auto M>
  TS_HD long long per_tile() const {
    return (res_->*M)(ctx_->tile_);
  }

 private:
  TS_HD bool live() const { return ctx_->live_; }
  // Zero-cost unless the arch observes steps (the CPU emulator does).
  TS_HD void hook(SyncOp op) const {
    if constexpr (HasStepHooks<std::remove_reference_t<decltype(ctx_->arch_)>>)
      ctx_->arch_.on_sync(ctx_->task_id_, id_, op);
    (void)op;
  }
  TS_HD PipelineRuntime const& pipe() const { return pipe_; }
  // Producers whose stage completes by transaction bytes (a TMA or CLC/queue copy).
  TS_HD static bool bytes_producer(PipelineRuntime const& p) {
    return p.producer == Engine::Tma || p.producer == Engine::ClcFetch;
  }
  // Work on this side of the pipe is handed to an engine rather than done by the threads.
  TS_HD bool engine_work(WorkRole role) const {
    auto const& p = pipe();
    if (!p.pipelined) return false;
    if (role == WorkRole::Producer) return p.producer == Engine::Tma || p.producer == Engine::Umma;
    if (role == WorkRole::Consumer) return p.consumer == Engine::Umma;
    return false;
  }
  // Compile-time protocol fields (StaticPipeline; checked against the layout at launch).
  TS_HD void pin(StaticPipeline const& s) {
    pipe_.kind = ResourceKind::Memory;
    pipe_.pipelined = true;
    pipe_.async_load = false;
    pipe_.producer = s.producer;
    pipe_.consumer = s.consumer;
    pipe_.num_stages = s.num_stages;
    pipe_.stage_bytes = s.stage_bytes;
    pipe_.producer_signal = s.producer_signal;
    pipe_.consumer_signal = s.consumer_signal;
    pipe_.multicast_ctas = static_cast<int8_t>(s.multicast_ctas);
    pipe_.stride_acquire = pipe_.stride_commit = pipe_.stride_wait = pipe_.stride_release = 1;
    pipe_.shared_full = pipe_.shared_empty = false;
    pipe_.producer_lanes = pipe_.consumer_lanes = false;
  }
  // A multicast stage is written by every CTA of the cluster, so its release arrives on
  // the same barrier in each of them. An Arch without clusters (the CPU emulator: every
  // CTA is its own cluster) takes all the arrivals locally, keeping the counts right.
  TS_HD void arrive_at(uint64_t* bar, int cta_rank) const {
    if constexpr (requires { ctx_->arch_.mbar_arrive_cluster(bar, cta_rank); })
      ctx_->arch_.mbar_arrive_cluster(bar, cta_rank);
    else
      ctx_->arch_.mbar_arrive(bar);
  }
  TS_HD uint64_t* full_bar(int stage) const {
    return reinterpret_cast<uint64_t*>(ctx_->kernel().smem_base + pipe().full_offset) + stage;
  }
  TS_HD uint64_t* empty_bar(int stage) const {
    return reinterpret_cast<uint64_t*>(ctx_->kernel().smem_base + pipe().empty_offset) + stage;
  }
  TS_HD void* response(int stage) const {
    return ctx_->kernel().smem_base + pipe().response_offset + kQueueResponseBytes * (stage < 0 ? 0 : stage);
  }
  TS_HD WaitSite site(SyncOp op, PipelineCounter const& c) const {
    WaitSite w;
    w.task = ctx_->task_id_;
    w.resource = id_;
    w.op = op;
    w.stage = c.index;
    w.phase = c.phase;
    return w;
  }
  TS_HD void fill(StageInfo& si, WorkRole role) const {
    si.loop_offset = ctx_->loop_offset_;
    int stage = role == WorkRole::Producer ? st_->prod_stage
                : role == WorkRole::Consumer ? st_->cons_stage
                                             : st_->active_stage;
    si.stage_idx = pipe().pipelined ? stage : kNoStage;
    si.barrier = (pipe().pipelined && stage >= 0) ? full_bar(stage) : nullptr;
    si.work_tile = ctx_->tile_;
    si.context = ctx_->kernel();
    si.thread = ctx_->thread();
  }

  Ctx* ctx_;
  T* res_;
  int id_;
  ResourceState* st_;
  PipelineRuntime pipe_;
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
    run_domain_loop<1>(static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(step), body);
  }
  template <class B0, class B1, class B2, int N, class F>
  TS_HD void domain_loop(B0 start, B1 end, B2 step, Unroll<N>, F&& body) {
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
  // Acquire's expect_tx and fetch_work_tile need none: they publish nothing (a TMA or
  // queue stage is published by the commit's arrival, after the task converged).
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

  // Named barriers: 0 is __syncthreads, 1 .. 7 are left to work bodies (the GEMM's
  // TMA-store epilogue uses 1 + warp group), 8 .. 15 converge tasks 0 .. 7 (converge()).
  static constexpr int kTaskBarrierBase = 8, kTaskBarriers = 8;

  Arch& arch_;
  PipelineRuntime const* pipes_;
  int task_id_;
  // The task's per-resource pipeline positions (set by run_task_impl), for domain lanes.
  ResourceState* states_ = nullptr;
  int const* state_ids_ = nullptr;
  int num_states_ = 0;
  bool lanes_started_ = false;
  long long loop_offset_ = 0;
  WorkTile tile_{};
  bool live_ = true;
  bool advanced_ = false;
  bool skip_ = false;
  long long loop_count_ = 0;  // zero-based iteration of the domain loop
  bool loop_last_ = false;

 private:
  // Domain-lane interleaving (S3.3, S6.12): a task whose loop runs from its lane l with
  // step = stride handles stages l, l + stride, ...: its counters on a domain-lane side
  // start at l. Done once per thread, so across work tiles the counters continue (right
  // when every lane handles the same number of stages per tile).
  TS_HD void start_lanes(long long start, long long step) {
    lanes_started_ = true;
    for (int i = 0; i < num_states_; ++i) {
      PipelineRuntime const& p = pipes_[state_ids_[i]];
      ResourceState& st = states_[i];
      if (p.producer_lanes && step == p.stride_acquire && start >= 0 && start < step) {
        st.prod_open.advance(p.num_stages, static_cast<int>(start));
        st.prod_close.advance(p.num_stages, static_cast<int>(start));
      }
      if (p.consumer_lanes && step == p.stride_wait && start >= 0 && start < step) {
        st.cons_open.advance(p.num_stages, static_cast<int>(start));
        st.cons_close.advance(p.num_stages, static_cast<int>(start));
      }
    }
  }
  template <int U, class F>
  TS_HD void run_domain_loop(long long start, long long end, long long step, F& body) {
    if (!lanes_started_) start_lanes(start, step);
    // One loop per step direction: each is a canonical counted loop the compiler can
    // unroll and keep several loads in flight (a direction test in the loop condition
    // blocked that: 0.6x of the hand-written grid-stride copy on the H200).
    if (step > 0) domain_loop_dir<true, U>(start, end, step, body);
    else domain_loop_dir<false, U>(start, end, step, body);
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
    tile_ = arch_.first_tile(wq.get());
    while (tile_.valid) {
      skip_ = skip(wq.get(), tile_);
      WorkTileLoop<Context> h(this, skip_);
      advanced_ = false;
      invoke_body(body, h);
      if (!advanced_) {
        WaitSite w;
        w.task = task_id_;
        w.resource = wq.id();
        w.op = SyncOp::Advance;
        arch_.fail("work_tile_loop body finished without get_and_advance_work_tile(): the loop would never end", w);
      }
    }
  }
};

}  // namespace exec
}  // namespace ts
