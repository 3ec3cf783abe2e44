// What a kernel needs to run one resource's pipeline: a plain-old-data summary of the
// PipelineConfig plus where its barriers (and, for queues, response buffers) were
// placed in shared memory. Built on the host by the launcher, read on the device.
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/core/protocol.hpp"

namespace ts {

// Engines, signal modes and resource kinds are the protocol vocabulary (core/protocol.hpp),
// the same enums the config and the model use.
struct PipelineRuntime {
  ResourceKind kind = ResourceKind::Memory;
  bool pipelined = false;
  bool async_load = false;             // Async producer arrives by cp.async completion (AsyncLoad)
  Engine producer = Engine::None;
  Engine consumer = Engine::None;
  int num_stages = 0;
  uint32_t stage_bytes = 0;            // transaction bytes per stage (TMA / CLC producers)
  int full_arrivals = 0;               // init count of each full barrier
  int empty_arrivals = 0;              // init count of each empty barrier
  Signal producer_signal = Signal::All;
  Signal consumer_signal = Signal::All;
  Signal wait_signal = Signal::All;  // split-consumer override for the release side
  uint32_t full_offset = 0;            // SMEM byte offset of full[num_stages]
  uint32_t empty_offset = 0;           // SMEM byte offset of empty[num_stages]
  uint32_t response_offset = 0;        // SMEM byte offset of CLC-style responses (queues)
  int8_t stride_acquire = 1, stride_commit = 1, stride_wait = 1, stride_release = 1;
  // Domain-lane interleaving (S3.3, S6.12): the side's ops sit in domain loops stepping
  // by the stride, and each task's stage counters start at its loop's start (its lane).
  bool producer_lanes = false, consumer_lanes = false;
  // Warp-lane interleaving (S3.3, S6.12; runtime/pipeline/warp_lanes.hpp): the side's ops
  // run outside stepping domain loops, each warp w of the task is a lane whose counters
  // start at stage w, and the task converges at each of the side's ops.
  bool producer_warp_lanes = false, consumer_warp_lanes = false;
  // Multicast TMA in a cluster (cta_layout_vmnk): the CTAs whose consumers release each
  // stage (every CTA writes into every other's stage), 1 when CTA-local. A release then
  // arrives on the empty barrier of each of them (cluster ranks 0 .. multicast_ctas-1).
  int8_t multicast_ctas = 1;
  // Pipeline groups (SPEC S10): this member's full / empty barriers are the group's
  // shared ones; a collapsed op signals a shared barrier through the lead member only.
  bool shared_full = false, shared_empty = false;
  bool group_lead = false;
  int8_t group_member = -1;  // position in the group's declaration order, -1 outside groups
};

}  // namespace ts
