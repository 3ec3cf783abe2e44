// ---- 05: dynamic persistent copy with a CLC scheduler task ----
// The grid covers every tile, but only a few CTAs are resident. A scheduler warp asks
// Cluster Launch Control to cancel a not-yet-started CTA and take over its coordinate
// (SPEC S13), publishing the response through a ClcFetchAsync pipeline; the worker
// warps copy whatever tile they are handed. The request for the next tile is issued
// before the current tile's work (S13.4). The worker body is example 03's.
#pragma once
#include "copy_persistent.hpp"

namespace examples {

// The scheduler task is the library's: acquire, fetch_work_tile, commit, epilogue.
using ClcScheduler = ts::SchedulerSchedule;

// The workers run examples::PersistentCopy unchanged: only the scheduler is swapped.

}  // namespace examples
