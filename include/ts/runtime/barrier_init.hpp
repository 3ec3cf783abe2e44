// The kernel prologue's barrier setup, once for both backends: every pipelined resource's
// full and empty barriers, initialised with the arrival counts the launch layout declares
// (PipelineRuntime::full_arrivals / empty_arrivals). Run by one thread before any task
// starts; the backend passes its init primitive (mbarrier.init on sm_90a, the emulator's
// mbar_init) and makes the result visible its own way (fence + __syncthreads, cta_sync).
#pragma once
#include <cstdint>

#include "ts/core/macros.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts {

template <class Init>
TS_HD void init_pipeline_barriers(PipelineRuntime const* pipes, int num_resources, unsigned char* smem, Init&& init) {
  for (int r = 0; r < num_resources; ++r) {
    PipelineRuntime const& pr = pipes[r];
    if (!pr.pipelined) continue;
    auto* full = reinterpret_cast<uint64_t*>(smem + pr.full_offset);
    auto* empty = reinterpret_cast<uint64_t*>(smem + pr.empty_offset);
    for (int s = 0; s < pr.num_stages; ++s) {
      init(full + s, pr.full_arrivals);
      init(empty + s, pr.empty_arrivals);
    }
  }
}

}  // namespace ts
