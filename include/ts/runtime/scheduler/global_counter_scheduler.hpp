// The global-counter scheduler: the dynamic scheduler of sm_90a, which has no Cluster
// Launch Control. Tiles are claimed from a counter in global memory, through the same
// ClcFetchAsync ring and 16-byte response as CLC, under the same contract (SPEC S13.2):
//  - every tile runs exactly once: every tile, each CTA's first one included, is handed
//    out by an atomic add on `counter`, each value once (Hopper cannot cancel a pending
//    CTA, so a first tile bound to the CTA's own index would wait for that CTA to get an
//    SM; claiming it lets the running CTAs take the work and a late CTA leave at once);
//  - a failed fetch (counter past the last tile) ends the worker's loop, and the
//    scheduler never fetches again after a failure (its loop ends with the tile loop);
//  - the request for the next tile is issued before the current tile's work.
// The host zeroes `counter` before each launch (ts::cuda::reset_queue); `scratch` holds
// grid_blocks x kQueueMaxStages responses in global memory.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/runtime/scheduler/scheduler_task.hpp"
#include "ts/runtime/scheduler/tile_scheduler.hpp"

namespace ts {

// The hardware primitives a global counter needs:
//   atomic_add(p, v)                 device-scope fetch-and-add on global memory;
//   claim_once_per_cta(f)            the first caller in the CTA runs f, every caller of
//                                    the CTA gets its value (the first-tile claim);
//   publish_response(g, r, smem, full)  store r at global g and bring it into the SMEM
//                                    response by a 16-byte async-proxy copy completing on
//                                    full (as a CLC response lands);
//   read_response(smem)              the landed response, read as the warp's release needs.
namespace detail {
// A claim to probe claim_once_per_cta with (nvcc rejects a lambda inside a requires-expression).
struct ClaimProbe {
  TS_HD int operator()() const { return 0; }
};
}  // namespace detail

template <class A>
concept GlobalCounterArch =
    requires(A& a, unsigned* p, QueueResponse* g, QueueResponse const& r, void* s, void const* cs, uint64_t* full) {
      { a.atomic_add(p, 1u) } -> std::same_as<unsigned>;
      { a.claim_once_per_cta(detail::ClaimProbe{}) } -> std::same_as<int>;
      a.publish_response(g, r, s, full);
      { a.read_response(cs) } -> std::same_as<QueueResponse>;
    };

struct GlobalCounterScheduler {
  static constexpr bool is_dynamic = true;
  static constexpr char const* name = "global-counter";
  static constexpr auto pipeline = clc_fetch_async({.num_stages = 2, .consumer_signal = Signal::TaskWarpLeader});

  unsigned* counter = nullptr;
  QueueResponse* scratch = nullptr;

  template <GlobalCounterArch Arch, class Q>
  TS_HD static WorkTile first(Arch& a, Q const& q) {
    return q.make_tile(a.claim_once_per_cta([&] { return static_cast<int>(a.atomic_add(q.counter, 1u)); }));
  }
  template <GlobalCounterArch Arch, class Q>
  TS_HD static void fetch(Arch& a, Q const& q, QueueSlot const& slot) {
    QueueResponse r{};
    r.tile = static_cast<int>(a.atomic_add(q.counter, 1u));
    r.canceled = r.tile < q.num_tiles ? 1u : 0u;
    a.publish_response(q.scratch + a.thread().block_idx * kQueueMaxStages + slot.stage, r, slot.response, slot.full);
  }
  // A failed fetch ends the loop; its tile is never read (SPEC S13.3).
  template <GlobalCounterArch Arch, class Q>
  TS_HD static WorkTile read(Arch& a, Q const& q, void const* response) {
    QueueResponse r = a.read_response(response);
    if (!r.canceled) {
      WorkTile t;
      t.tile_idx = -1;
      t.valid = false;
      return t;
    }
    return q.make_tile(r.tile);
  }
  template <int Registers, class R>
  static auto task(R const& tiles, int warp) {
    return dynamic_scheduler_task<Registers>(tiles, warp);
  }
};

}  // namespace ts
