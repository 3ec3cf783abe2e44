// Host side: build the KernelParams of a TaskManager from its launch layout.
// The runtime sits below the TaskManager (ts/task_manager.hpp, the api layer), so the
// backends take the manager as a template parameter that meets KernelSource (for the
// parameters) or RunnableManager (to run it); ts::TaskManager<Tasks...> is the one such type.
#pragma once
#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ts/core/task.hpp"
#include "ts/runtime/dispatch.hpp"
#include "ts/runtime/launch_layout.hpp"
#include "ts/schedule/model.hpp"

namespace ts {

namespace detail {
template <class Sched, class... R>
TaskParams<Sched, R...> task_params(ScheduledTask<Sched, R...> const& t, TaskModel const& m) {
  TaskParams<Sched, R...> tp{t.schedule(), {}, {}, m.warp_start, m.num_warps};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((tp.values.template get<I>() = std::get<I>(t.args()).value()), ...);
    ((tp.ids[I] = m.schedule_args[I]), ...);
  }(std::index_sequence_for<R...>{});
  return tp;
}
template <class T>
struct task_params_of;
template <class Sched, class... R>
struct task_params_of<ScheduledTask<Sched, R...>> {
  using type = TaskParams<Sched, R...>;
};
}  // namespace detail

template <class... Tasks>
using KernelParamsOf = KernelParams<typename detail::task_params_of<Tasks>::type...>;

// A manager the kernel parameters can be built from: its tasks (a std::tuple of
// ScheduledTask) and the Model they were recorded into.
template <class M>
concept KernelSource = requires(M const& m) {
  { m.model() } -> std::convertible_to<Model const&>;
  std::tuple_size<std::remove_cvref_t<decltype(m.tasks())>>::value;
};
// A manager a backend can run: also its launch layout (made on first use) and whether
// print_and_verify() passed.
template <class M>
concept RunnableManager = KernelSource<M> && requires(M& m) {
  { m.layout() } -> std::convertible_to<LaunchLayout const&>;
  { m.verified() } -> std::convertible_to<bool>;
};

namespace detail {
template <class Tuple>
struct kernel_params_of_tuple;
template <class... Tasks>
struct kernel_params_of_tuple<std::tuple<Tasks...>> {
  using type = KernelParamsOf<Tasks...>;
};
}  // namespace detail

// The manager's tasks, as the std::tuple it keeps them in.
template <KernelSource M>
using TasksOf = std::remove_cvref_t<decltype(std::declval<M const&>().tasks())>;
// The kernel parameter block of a manager's kernel.
template <KernelSource M>
using KernelParamsFor = typename detail::kernel_params_of_tuple<TasksOf<M>>::type;

// The manager's layout must already be made (TaskManagerBase::layout()).
template <KernelSource M>
KernelParamsFor<M> make_kernel_params(M const& tm, LaunchLayout const& layout) {
  KernelParamsFor<M> p{};
  if (layout.pipes.size() > static_cast<size_t>(kMaxResources))
    throw std::length_error("ts: more than kMaxResources resources in one kernel");
  [&]<std::size_t... T>(std::index_sequence<T...>) {
    ((p.tasks.template get<T>() = detail::task_params(std::get<T>(tm.tasks()), tm.model().tasks[T])),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<TasksOf<M>>>{});
  for (size_t r = 0; r < layout.pipes.size(); ++r) p.pipes[r] = layout.pipes[r];
  p.num_resources = static_cast<int>(layout.pipes.size());
  p.smem_bytes = layout.smem_bytes;
  p.block_threads = layout.block_threads;
  p.cluster_ctas = layout.cluster_ctas;
  return p;
}

}  // namespace ts
