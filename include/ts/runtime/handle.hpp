// The executing side of a resource handle: what `smem.acquire()`, `ts::work<&R::f>(h)`
// and the queue ops do when a schedule runs. The pipeline ops hand over to the resource's
// protocol class (runtime/pipeline/<type>.hpp), chosen at compile time when the resource
// type declares its config (`static constexpr auto pipeline = ts::tma_async({...})`), by
// one switch over the layout's engines otherwise; PDL resources and unpipelined ones are
// told apart at compile time by their type, or by the layout for a runtime config.
#pragma once
#include <type_traits>
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/core/sync_op.hpp"
#include "ts/core/work_traits.hpp"
#include "ts/runtime/group_view.hpp"
#include "ts/runtime/pipeline/params.hpp"
#include "ts/runtime/pipeline/protocols.hpp"
#include "ts/runtime/pipeline/state.hpp"
#include "ts/runtime/pipeline/warp_lanes.hpp"
#include "ts/runtime/pipeline_runtime.hpp"
#include "ts/runtime/scheduler/checked.hpp"

namespace ts::exec {

template <class A>
concept HasStepHooks = requires(A& a) { a.on_sync(0, 0, SyncOp::Wait); };

template <class Ctx, class T>
class Handle {
  static constexpr bool kStatic = HasStaticPipeline<T>;
  static constexpr bool kPdlWait = requires { T::is_pdl_wait; };
  static constexpr bool kPdlLaunch = requires { T::is_pdl_launch; };
  static constexpr bool kWorkQueue = requires { T::is_work_queue; };

 public:
  using resource_type = T;
  // The handle keeps its own copy of the resource's layout entry: read once from the
  // kernel parameters, it then lives in registers, where the barrier asm's memory
  // clobbers cannot force it to be reloaded every iteration.
  TS_HD Handle(Ctx* c, T* res, int id, ResourceState* st)
      : ctx_(c), res_(res), id_(id), st_(st), rt_(c->pipes_[id]) {
    start_warp_lanes<T>(*st_, rt_, static_cast<int>(c->thread().thread_in_task >> 5));
  }
  TS_HD T* operator->() const { return res_; }
  TS_HD T& get() const { return *res_; }
  TS_HD int id() const { return id_; }
  TS_HD int member_index() const { return rt_.group_member; }

  TS_HD void try_acquire() const {
    if (!live()) return;
    hook(SyncOp::TryAcquire);
    if (pipelined()) pipe_op<Side::None>([](auto, auto& p) { p.try_open_producer(); });
  }
  TS_HD void acquire() const { acquire_op(false); }
  // `collapsed`: one member's part of a group op (ts::group(...).acquire()).
  TS_HD void acquire_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Acquire);
    if constexpr (!kPdlLaunch)
      if (pipelined()) pipe_op<Side::Producer>([&](auto proto, auto& p) { proto.acquire(p, collapsed); });
  }
  TS_HD void commit() const { commit_op(false); }
  TS_HD void commit_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Commit);
    if constexpr (kPdlLaunch) ctx_->arch_.pdl_launch();
    else if (pipelined()) pipe_op<Side::Producer>([&](auto proto, auto& p) { proto.commit(p, collapsed); });
  }
  TS_HD void try_wait() const {
    if (!live()) return;
    hook(SyncOp::TryWait);
    if (pipelined()) pipe_op<Side::None>([](auto, auto& p) { p.try_open_consumer(); });
  }
  TS_HD void wait() const {
    if (!live()) return;
    hook(SyncOp::Wait);
    if constexpr (kPdlWait) ctx_->arch_.pdl_wait();
    else if (pipelined()) pipe_op<Side::None>([](auto proto, auto& p) { proto.wait(p); });
  }
  TS_HD void release() const { release_op(false); }
  TS_HD void release_op(bool collapsed) const {
    if (!live()) return;
    hook(SyncOp::Release);
    if (pipelined()) pipe_op<Side::Consumer>([&](auto proto, auto& p) { proto.release(p, collapsed); });
  }

  // Turn-taking consumers: skip `n` stages another consumer task handles (docs/turns.md).
  TS_HD void skip(long long n) const {
    if (!live()) return;
    hook(SyncOp::Skip);
    if (pipelined() && n > 0) pipe_op<Side::None>([&](auto, auto& p) { p.skip_consumer(n); });
  }

  // ts::group(this, others...) (schedule/group.hpp).
  template <class... H>
  TS_HD auto group_with(H const&... others) const {
    return GroupView<Handle, H...>(this, &others...);
  }

  // Work-queue bookkeeping (SPEC S4.6), by the queue's tile scheduler
  // (runtime/scheduler/): a dynamic one reads the response its wait opened, a static one
  // computes the next tile.
  TS_HD void get_and_advance_work_tile() const requires requires { T::is_work_queue; } {
    if (!live()) return;
    hook(SyncOp::Advance);
    using S = checked_scheduler_t<T, std::remove_reference_t<decltype(ctx_->arch_)>>;
    if constexpr (S::is_dynamic) ctx_->tile_ = S::read(ctx_->arch_, *res_, response(st_->cons_stage));
    else ctx_->tile_ = S::next(ctx_->arch_, *res_, ctx_->tile_);
    ctx_->advanced_ = true;
  }
  // The scheduler's request for the next tile into the stage its acquire armed.
  TS_HD void fetch_work_tile() const requires requires { T::is_work_queue; } {
    if (!live()) return;
    hook(SyncOp::Fetch);
    using S = checked_scheduler_t<T, std::remove_reference_t<decltype(ctx_->arch_)>>;
    if constexpr (S::is_dynamic) {
      int stage = st_->prod_stage;
      if (ctx_->signals(Signal::CtaLeader)) S::fetch(ctx_->arch_, *res_, QueueSlot{stage, response(stage), full_bar(stage)});
    }
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
    // every lane's earlier accesses precede the engine's. On the GPU only a pipeline
    // declared in the resource type can have an engine (ts::cuda::launch refuses one
    // given at run time), so a plain or runtime-configured resource carries no barrier in
    // its work calls: even never taken, a possible barrier there keeps the compiler from
    // unrolling and reordering the loop around it (it cost the grid-stride copy 2.7x).
    if constexpr (kStatic || !TS_DEVICE_PASS)
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
  TS_HD bool pipelined() const {
    if constexpr (kStatic) return true;
    else if constexpr (kWorkQueue) return false;  // a dynamic queue declares its ring in its type
    else return rt_.pipelined;
  }
  // Work on this side of the pipe is handed to an engine rather than done by the threads.
  TS_HD bool engine_work(WorkRole role) const {
    if (!pipelined()) return false;
    Engine producer = rt_.producer, consumer = rt_.consumer;
    if constexpr (kStatic) {
      producer = StaticParams<T>::kProducer;
      consumer = StaticParams<T>::kConsumer;
    }
    if (role == WorkRole::Producer) return producer == Engine::Tma || producer == Engine::Umma;
    if (role == WorkRole::Consumer) return consumer == Engine::Umma;
    return false;
  }
  // Zero-cost unless the arch observes steps (the CPU emulator does).
  TS_HD void hook(SyncOp op) const {
    if constexpr (HasStepHooks<std::remove_reference_t<decltype(ctx_->arch_)>>)
      ctx_->arch_.on_sync(ctx_->task_id_, id_, op);
    (void)op;
  }
  // f(protocol, pipe): the protocol class and its view of this handle's pipeline. `S` is
  // the side whose engine the op depends on (runtime configs pick the class by it).
  enum class Side { Producer, Consumer, None };
  template <Side S, class F>
  TS_HD void pipe_op(F&& f) const {
    if constexpr (kStatic) {
      static_assert(!kPdlWait && !kPdlLaunch, "a PDL resource has no pipeline to declare");
      Pipe<Ctx, StaticParams<T>> p{*ctx_, *st_, rt_, StaticParams<T>{rt_}, id_};
      f(protocol_t<T::pipeline.type>{}, p);
    } else {
      Pipe<Ctx, RuntimeParams> p{*ctx_, *st_, rt_, RuntimeParams{rt_}, id_};
      if constexpr (S == Side::Producer) with_producer_protocol(rt_.producer, [&](auto proto) { f(proto, p); });
      else if constexpr (S == Side::Consumer) with_consumer_protocol(rt_.consumer, [&](auto proto) { f(proto, p); });
      else f(AsyncAsync{}, p);
    }
  }
  TS_HD uint64_t* full_bar(int stage) const {
    return reinterpret_cast<uint64_t*>(ctx_->kernel().smem_base + rt_.full_offset) + stage;
  }
  TS_HD void* response(int stage) const {
    return ctx_->kernel().smem_base + rt_.response_offset + kQueueResponseBytes * (stage < 0 ? 0 : stage);
  }
  TS_HD void fill(StageInfo& si, WorkRole role) const {
    si.loop_offset = ctx_->loop_offset_;
    int stage = role == WorkRole::Producer ? st_->prod_stage
                : role == WorkRole::Consumer ? st_->cons_stage
                                             : st_->active_stage;
    bool piped = pipelined();
    si.stage_idx = piped ? stage : kNoStage;
    si.barrier = (piped && stage >= 0) ? full_bar(stage) : nullptr;
    si.work_tile = ctx_->tile_;
    si.context = ctx_->kernel();
    si.thread = ctx_->thread();
  }

  Ctx* ctx_;
  T* res_;
  int id_;
  ResourceState* st_;
  PipelineRuntime rt_;
};

}  // namespace ts::exec
