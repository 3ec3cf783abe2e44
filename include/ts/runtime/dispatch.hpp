// Warp-role dispatch shared by both backends: the kernel parameter block built from a
// verified TaskManager, and the per-thread entry that picks the thread's task by its
// warp index and runs that task's schedule in the executing context.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ts/core/macros.hpp"
#include "ts/core/results.hpp"
#include "ts/runtime/exec_context.hpp"
#include "ts/runtime/pipeline_runtime.hpp"
#include "ts/schedule/registers.hpp"

namespace ts {

constexpr int kMaxResources = 32;

// One task's part of the kernel parameters: its schedule functor, copies of the
// resource structs bound to the schedule's parameters, and their resource ids.
template <class Sched, class... R>
struct TaskParams {
  using schedule_type = Sched;
  Sched sched;
  Results<R...> values;
  int ids[sizeof...(R) > 0 ? sizeof...(R) : 1];
  int warp_start;
  int num_warps;
};

template <class... TP>
struct KernelParams {
  Results<TP...> tasks;
  PipelineRuntime pipes[kMaxResources];
  int num_resources;
  uint32_t smem_bytes;
  int block_threads;
  int cluster_ctas;    // CTAs per cluster (1: none); the kernel syncs the cluster around the tasks
  void* trace;         // backend trace target (ts::cuda::TraceTarget*-shaped data), or null
  int trace_capacity;  // records per (CTA, task)
};

namespace detail {

template <class A, int N>
concept CanSetRegisters = requires(A& a) { a.template set_registers<N>(); };

// setmaxnreg must sit in the task's own branch with an immediate count; an Arch
// without register control (the CPU emulator) ignores budgets.
template <class Sched, class Arch>
TS_HD void apply_register_budget(Arch& arch) {
  if constexpr (HasRegisterBudget<Sched>) {
    if constexpr (CanSetRegisters<Arch, Sched::registers>) arch.template set_registers<Sched::registers>();
  }
}

template <class Arch, class Sched, class... R, std::size_t... I>
TS_HD void run_task_impl(Arch& arch, PipelineRuntime const* pipes, int task_id, TaskParams<Sched, R...> const& tp,
                         std::index_sequence<I...>) {
  exec::Context<Arch> ctx(arch, pipes, task_id);
  exec::ResourceState st[sizeof...(R) > 0 ? sizeof...(R) : 1];
  // Per-thread copies: per-tile state kept in resource fields is thread-private.
  Results<R...> values = tp.values;
  auto handles = Results<exec::Handle<exec::Context<Arch>, R>...>{
      exec::Handle<exec::Context<Arch>, R>(&ctx, &values.template get<I>(), tp.ids[I], &st[I])...};
  ctx.states_ = st;
  ctx.state_ids_ = tp.ids;
  ctx.num_states_ = static_cast<int>(sizeof...(R));
  ctx.lane_sides_ = exec::lane_sides_mask<R...>();
  tp.sched(ctx, handles.template get<I>()...);
  // An arch that buffers per task (the GPU tracer keeps records on chip) hears the end.
  if constexpr (requires { arch.on_task_end(task_id); }) arch.on_task_end(task_id);
}

}  // namespace detail

// Runs the task this thread belongs to. `arch.coord` must hold the block-level fields
// (thread_in_block, block_threads, block_idx, grid_blocks); the task fields are set here.
// setmaxnreg is collective over a warp group, so a warp no task covers still applies the
// budget of a task in its warp group before it leaves.
template <class Arch, class... TP>
TS_HD void run_thread(Arch& arch, KernelParams<TP...> const& p) {
  int warp = arch.coord.thread_in_block >> 5;
  bool ran = false;
  [&]<std::size_t... T>(std::index_sequence<T...>) {
    (
        [&] {
          auto const& tp = p.tasks.template get<T>();
          if (!ran && warp >= tp.warp_start && warp < tp.warp_start + tp.num_warps) {
            ran = true;
            using Sched = typename std::remove_cvref_t<decltype(tp)>::schedule_type;
            detail::apply_register_budget<Sched>(arch);
            arch.coord.thread_in_task = arch.coord.thread_in_block - tp.warp_start * 32;
            arch.coord.task_threads = tp.num_warps * 32;
            detail::run_task_impl(arch, p.pipes, int(T), tp,
                                  std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<decltype(tp.values)>>>{});
          }
        }(),
        ...);
    if (ran) return;
    int group = warp / 4;
    (
        [&] {
          auto const& tp = p.tasks.template get<T>();
          if (!ran && tp.warp_start / 4 <= group && (tp.warp_start + tp.num_warps - 1) / 4 >= group) {
            ran = true;
            detail::apply_register_budget<typename std::remove_cvref_t<decltype(tp)>::schedule_type>(arch);
          }
        }(),
        ...);
  }(std::index_sequence_for<TP...>{});
}

}  // namespace ts
