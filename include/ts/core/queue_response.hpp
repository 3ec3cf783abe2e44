// The 16-byte response of one work-queue fetch (the shape of a CLC try_cancel response)
// and the response ring's bound: shared by the resource that declares a global-counter
// queue (runtime/scheduler/global_counter_scheduler.hpp), the ClcFetch config's transaction bytes
// (core/pipeline_config.cpp, the arrival model), the launch layout and the executing
// context (the response ring in SMEM), the emulator's CLC and the sm_90a Arch
// (arch/cuda_sm90.cuh), which writes and reads it.
#pragma once
#include <cstdint>

namespace ts {

// int: the executing context's response address arithmetic is in int (stage * bytes).
constexpr int kQueueResponseBytes = 16;

// The 16-byte response of one fetch (the shape of a CLC try_cancel response).
struct alignas(16) QueueResponse {
  int tile;
  uint32_t canceled;  // 1: `tile` was claimed for this CTA; 0: the queue is empty
  uint32_t pad[2];
};
static_assert(sizeof(QueueResponse) == kQueueResponseBytes);

constexpr int kQueueMaxStages = 8;

}  // namespace ts
