// LaunchLayout: where everything a kernel needs lives in one CTA's shared memory
// (declared SMEM allocations, the pipelines' mbarriers, work-queue response rings),
// the TMEM columns, and the device-side summary of every resource's pipeline.
// Computed once per TaskManager (a second layout is an error, SPEC S9.1); both
// backends launch from it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ts/core/model.hpp"
#include "ts/runtime/pipeline_runtime.hpp"

namespace ts {

constexpr uint32_t kSm90SmemCapacity = 232448;  // opt-in dynamic SMEM per block on sm_90
constexpr int kTmemColumns = 512;

struct Placement {
  std::string resource, allocation;
  MemSpace space = MemSpace::Smem;
  uint32_t offset = 0;  // bytes (SMEM) or columns (TMEM)
  uint64_t size = 0;    // bytes or columns
  int alignment = 0;
  std::string alias_group;  // empty: not aliased
  int alias_phase = 0;
};

struct LaunchLayout {
  std::vector<PipelineRuntime> pipes;  // indexed by resource id
  std::vector<Placement> placements;   // data allocations, then barriers and responses
  uint32_t smem_bytes = 0;             // dynamic SMEM per CTA
  uint32_t tmem_columns = 0;
  int block_threads = 0;               // all tasks' warps x 32
  int cluster_ctas = 1;                // CTAs per cluster (the pipelines' cta_layout_vmnk), 1 = no cluster
};

// Places every allocation and barrier and writes each handle's offset. Throws
// ts::ModelError when the layout was already made for these resources or when capacity
// is exceeded. A dry run computes the same layout without writing or checking anything
// (the printout's memory report).
LaunchLayout make_launch_layout(Model const& m, uint32_t smem_capacity = kSm90SmemCapacity, bool dry_run = false);

}  // namespace ts
