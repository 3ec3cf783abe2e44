// A work queue under a chosen scheduler: `struct Tiles : ts::WorkQueueOf<ts::GlobalCounterScheduler>`
// (the queue keeps its raster, `make_tile`, and takes the scheduler's state and, for a
// dynamic one, its response ring `pipeline` by inheritance). Changing the scheduler of a
// kernel is changing this one type argument.
#pragma once
#include <tuple>
#include <type_traits>

#include "ts/core/resource.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/runtime/scheduler/clc_scheduler.hpp"
#include "ts/runtime/scheduler/global_counter_scheduler.hpp"
#include "ts/runtime/scheduler/static_scheduler.hpp"

namespace ts {

// S's fields (a global-counter scheduler's counter and scratch) become the queue's own,
// so the scheduler reads them from the queue copy every thread holds in registers.
template <class S>
struct WorkQueueOf : WorkQueue, S {
  using scheduler = S;
};

// The global-counter queue under the name examples used before schedulers were types.
using GlobalCounterQueue = WorkQueueOf<GlobalCounterScheduler>;

namespace detail {
template <class Q>
auto scheduler_of() {
  if constexpr (requires { typename Q::scheduler; }) return std::type_identity<typename Q::scheduler>{};
  // A plain ts::WorkQueue that declares a ClcFetchAsync ring (the queues written before
  // schedulers were types): Cluster Launch Control, as the emulator always ran it.
  else if constexpr (requires { Q::pipeline; }) return std::type_identity<ClcScheduler>{};
  else return std::type_identity<StaticScheduler>{};
}
}  // namespace detail

// The scheduler of queue type Q: its `scheduler`, else CLC for a queue with a response
// ring, else static.
template <class Q>
using scheduler_of_t = typename decltype(detail::scheduler_of<Q>())::type;

// The tasks the queue's scheduler brings, as a tuple to splice into ts::tasks(...): none
// for a static scheduler, its scheduler task (on `warp`, at `Registers`; 0: no budget of
// its own) for a dynamic one.
template <int Registers = 0, class Q>
auto scheduler_tasks(Resource<Q> const& tiles, int warp) {
  using S = scheduler_of_t<Q>;
  if constexpr (S::is_dynamic) return std::make_tuple(S::template task<Registers>(tiles, warp));
  else return std::tuple<>{};
}

}  // namespace ts
