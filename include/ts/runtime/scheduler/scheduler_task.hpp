// The task a dynamic scheduler brings along: one warp that, per tile, acquires a response
// slot, fetches the next tile into it and commits (ts::SchedulerSchedule), at the register
// budget the kernel gives its warp group (Registers; 0: none, the warp group's). Its warps, like every task's, count in the queue's derived
// consumer group (it runs the queue epilogue too), so nobody types "ten warps".
#pragma once
#include "ts/core/task.hpp"
#include "ts/schedule/queue_schedules.hpp"
#include "ts/schedule/registers.hpp"

namespace ts {

// The ScheduledTask of a dynamic scheduler over the queue resource `tiles`, on `warp`.
template <int Registers, class Q>
auto dynamic_scheduler_task(Resource<Q> const& tiles, int warp) {
  auto task = Task("Scheduler").warps(warp, 1).reads(tiles).writes(tiles);
  if constexpr (Registers > 0) return task.schedule(with_registers<Registers>(SchedulerSchedule{}), tiles);
  else return task.schedule(SchedulerSchedule{}, tiles);
}

}  // namespace ts
