// The executing context's one door to a queue's scheduler: the scheduler of queue type Q,
// checked against the TileScheduler interface on the Arch that runs it, so a scheduler on
// an Arch without its primitives (CLC on sm_90a) or a scheduler missing an operation is
// one readable compile error where the schedule's tile loop is instantiated.
#pragma once
#include "ts/runtime/scheduler/queue.hpp"
#include "ts/runtime/scheduler/tile_scheduler.hpp"

namespace ts::exec {

template <class Q, class Arch>
struct CheckedScheduler {
  using S = scheduler_of_t<Q>;
  static_assert(TileScheduler<S, Arch, Q>,
                "the work queue's scheduler does not meet ts::TileScheduler on this Arch: a static scheduler needs "
                "first/next, a dynamic one first/fetch/read and a ClcFetchAsync `pipeline`, each over primitives the "
                "Arch has (ts::ClcScheduler needs Cluster Launch Control: sm_100a or the CPU emulator; on sm_90a use "
                "ts::GlobalCounterScheduler)");
  // The handle runs a queue's ring only when its type declares one: a dynamic scheduler's
  // ring comes with it (WorkQueueOf<S> inherits S::pipeline), a static one has none.
  static_assert(S::is_dynamic == requires { Q::pipeline; },
                "a work queue declares a response ring (`pipeline`) exactly when its scheduler is dynamic");
  using type = S;
};

template <class Q, class Arch>
using checked_scheduler_t = typename CheckedScheduler<Q, Arch>::type;

}  // namespace ts::exec
