// Dynamic persistent work queue of the sm_90a backend (SPEC S4.7, S13, S14).
//
// Hopper has no Cluster Launch Control, so the scheduler task claims tiles from a
// global-memory counter instead, through the same ClcFetchAsync pipeline and the same
// 16-byte response layout, and with the same contract:
//  - every tile runs exactly once: every tile, each CTA's first one included, is handed
//    out by atomicAdd on `counter`, each value once (Hopper cannot cancel a pending CTA,
//    so a first tile bound to the CTA's own index would wait for that CTA to get an SM;
//    claiming it lets the running CTAs take the work and a late CTA leave at once);
//  - a failed fetch (counter past the last tile) ends the worker's loop, and the
//    scheduler never fetches again after a failure (its loop ends with the tile loop);
//  - the request for the next tile is issued before the current tile's work
//    (the schedule's order: acquire / fetch_work_tile / commit, then the tile body).
// The host zeroes `counter` before each launch (ts::cuda::reset_queue).
// Plain C++ so that host code can declare the resource; the CPU backend may treat it
// as any other work queue.
#pragma once
#include <cstdint>

#include "ts/core/queue_response.hpp"
#include "ts/core/resource_types.hpp"

namespace ts {

// counter: zero at launch. scratch: grid_blocks x kQueueMaxStages responses in device
// memory; the response travels global -> SMEM by a 16-byte bulk copy that completes on
// the stage's full barrier (async proxy, exactly as a CLC response lands), which is an
// ordering racecheck and the memory model both recognise.
struct GlobalCounterQueue : WorkQueue {
  unsigned* counter = nullptr;
  QueueResponse* scratch = nullptr;
};

}  // namespace ts
