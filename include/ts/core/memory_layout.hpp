// Where the declared allocations, barriers and queue responses of one CTA are placed
// (SMEM bytes, TMEM columns), and the capacities they are placed against. The launch
// layout (runtime/launch_layout.hpp) computes it; the printout's memory report
// (print/printout.hpp) reads it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ts/core/allocation_decl.hpp"

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

struct MemoryLayout {
  std::vector<Placement> placements;   // data allocations, then barriers and responses
  uint32_t smem_bytes = 0;             // dynamic SMEM per CTA
  uint32_t tmem_columns = 0;
};

}  // namespace ts
