// The tile-scheduler interface (SPEC S4.6, S4.7, S13): who decides which tile of a
// persistent work queue a CTA runs next. The queue resource maps a linear tile index to a
// tile (`make_tile`: the raster, the problem's shape); the scheduler hands out the indices.
// Changing a kernel's scheduler is changing one type: the queue's `scheduler`
// (ts::WorkQueueOf<S>, runtime/scheduler/queue.hpp).
//
// Two kinds, told apart by `S::is_dynamic`:
//   static   S::first(arch, q)            the CTA's first tile
//            S::next(arch, q, current)    the tile after `current` (arithmetic, no pipeline)
//   dynamic  S::first(arch, q)
//            S::fetch(arch, q, slot)      the scheduler task's elected thread: request the
//                                         next tile into the response slot its acquire armed
//            S::read(arch, q, response)   every thread of every task, after its wait:
//                                         the fetched tile (invalid: the queue is empty)
//            S::pipeline                  the response ring (ClcFetchAsync); its consumer
//                                         group is left to the verifier (derived from the
//                                         tasks that release it), never typed
//            S::task<Registers>(tiles, warp)  the scheduler task it brings along
// `arch` is the backend's Arch: a scheduler uses only its hardware primitives (atomics,
// the CTA-once claim, response copies, CLC), each scheduler naming what it needs as a
// concept, so a scheduler on an Arch without them fails TileScheduler (and the executing
// context's static_assert says which) instead of failing deep inside a body.
#pragma once
#include <concepts>
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/pipeline_config.hpp"
#include "ts/core/stage_info.hpp"

namespace ts {

// Where a dynamic scheduler's fetch lands: the producer stage its acquire opened, that
// stage's 16-byte response in SMEM and the full barrier the response completes on.
struct QueueSlot {
  int stage = 0;
  void* response = nullptr;
  uint64_t* full = nullptr;
};

template <class S, class Arch, class Q>
concept StaticTileScheduler = !S::is_dynamic && requires(Arch& a, Q const& q, WorkTile const& t) {
  { S::first(a, q) } -> std::same_as<WorkTile>;
  { S::next(a, q, t) } -> std::same_as<WorkTile>;
};

template <class S, class Arch, class Q>
concept DynamicTileScheduler =
    S::is_dynamic && S::pipeline.type == PipelineType::ClcFetchAsync &&
    requires(Arch& a, Q const& q, QueueSlot const& slot, void const* response) {
      { S::first(a, q) } -> std::same_as<WorkTile>;
      { S::fetch(a, q, slot) } -> std::same_as<void>;
      { S::read(a, q, response) } -> std::same_as<WorkTile>;
    };

template <class S, class Arch, class Q>
concept TileScheduler = StaticTileScheduler<S, Arch, Q> || DynamicTileScheduler<S, Arch, Q>;

}  // namespace ts
