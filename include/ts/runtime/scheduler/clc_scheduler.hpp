// The Cluster Launch Control scheduler (SPEC S13.3; sm_100a hardware, and the CPU
// emulator's CLC engine): each CTA starts on its own coordinate; the scheduler task asks
// the hardware to cancel a CTA that has not started yet and takes over its coordinate.
// A failed request (no CTA left to cancel) ends every task's tile loop, and its CTA id is
// never read.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/runtime/scheduler/scheduler_task.hpp"
#include "ts/runtime/scheduler/tile_scheduler.hpp"

namespace ts {

// The hardware primitives CLC needs: the asynchronous try_cancel into a 16-byte response
// completing on a barrier, and the two queries of a landed response.
template <class A>
concept ClcArch = requires(A& a, void* r, void const* cr, uint64_t* full) {
  a.clc_try_cancel(r, full);
  { a.clc_is_canceled(cr) } -> std::same_as<bool>;
  { a.clc_first_ctaid(cr) } -> std::same_as<int>;
};

struct ClcScheduler {
  static constexpr bool is_dynamic = true;
  static constexpr char const* name = "clc";
  // Two response stages, released by every consuming warp's leader; the consumer group
  // (the warps of every task running the queue epilogue) is derived.
  static constexpr auto pipeline = clc_fetch_async({.num_stages = 2, .consumer_signal = Signal::TaskWarpLeader});

  template <class Arch, class Q>
  TS_HD static WorkTile first(Arch& a, Q const& q) {
    return q.make_tile(a.thread().block_idx);
  }
  template <ClcArch Arch, class Q>
  TS_HD static void fetch(Arch& a, Q const&, QueueSlot const& slot) {
    a.clc_try_cancel(slot.response, slot.full);
  }
  // is_canceled first; the CTA id only when it is set.
  template <ClcArch Arch, class Q>
  TS_HD static WorkTile read(Arch& a, Q const& q, void const* response) {
    if (!a.clc_is_canceled(response)) {
      WorkTile t;
      t.tile_idx = -1;
      t.valid = false;
      return t;
    }
    return q.make_tile(a.clc_first_ctaid(response));
  }
  template <int Registers, class R>
  static auto task(R const& tiles, int warp) {
    return dynamic_scheduler_task<Registers>(tiles, warp);
  }
};

}  // namespace ts
