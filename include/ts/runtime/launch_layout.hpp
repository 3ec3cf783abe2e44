// LaunchLayout: where everything a kernel needs lives in one CTA's shared memory
// (declared SMEM allocations, the pipelines' mbarriers, work-queue response rings),
// the TMEM columns, and the device-side summary of every resource's pipeline.
// Computed once per TaskManager (a second layout is an error, SPEC S9.1); both
// backends launch from it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ts/core/memory_layout.hpp"
#include "ts/schedule/model.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts {

// The placements (placements, smem_bytes, tmem_columns) are the MemoryLayout part
// (core/memory_layout.hpp), which the printout's memory report reads.
struct LaunchLayout : MemoryLayout {
  std::vector<PipelineRuntime> pipes;  // indexed by resource id
  int block_threads = 0;               // all tasks' warps x 32
  int cluster_ctas = 1;                // CTAs per cluster (the pipelines' cta_layout_vmnk), 1 = no cluster
};

// Places every allocation and barrier and writes each handle's offset. Throws
// ts::ModelError when the layout was already made for these resources or when capacity
// is exceeded. A dry run computes the same layout without writing or checking anything
// (the printout's memory report).
LaunchLayout make_launch_layout(Model const& m, uint32_t smem_capacity = kSm90SmemCapacity, bool dry_run = false);

}  // namespace ts
