// S6.16 SMEM capacity, S6.17 TMEM capacity. The block's shared memory holds every
// declared SMEM allocation (each rounded up to its alignment) plus 16 bytes per pipeline
// stage (a full and an empty 8-byte mbarrier). Allocations of one alias group share a
// region sized to its largest phase (SPEC S9.4). TMEM holds the declared columns.
#include <algorithm>
#include <map>

#include "passes.hpp"

namespace ts::verify {

namespace {

constexpr long long kBarrierBytesPerStage = 16;

long long aligned(long long bytes, int alignment) {
  long long a = std::max(1, alignment);
  return (bytes + a - 1) / a * a;
}

// Sum of a memory space with alias groups collapsed to their largest phase.
long long footprint(Model const& m, MemSpace space, std::string& biggest) {
  long long total = 0, biggest_size = -1;
  std::map<std::string, std::map<int, long long>> groups;
  for (auto const& r : m.resources) {
    long long own = 0;
    for (auto const& a : r->allocations.decls()) {
      if (a.space != space) continue;
      long long size = space == MemSpace::Smem ? aligned(a.bytes(), a.alignment) : a.count;
      own += size;
      if (a.alias_group.empty()) total += size;
      else groups[a.alias_group][a.alias_phase] += size;
    }
    if (space == MemSpace::Smem && r->pipeline) own += kBarrierBytesPerStage * r->pipeline->num_stages;
    if (space == MemSpace::Smem && r->pipeline) total += kBarrierBytesPerStage * r->pipeline->num_stages;
    if (own > biggest_size) {
      biggest_size = own;
      biggest = r->name;
    }
  }
  // Pipeline groups share barriers (SPEC S10.2): (N + 1) x S for Merge / Fork and
  // 2 x S for FusedMerge instead of 2 x S per member.
  if (space == MemSpace::Smem)
    for (auto const& g : m.groups) {
      long long n = static_cast<long long>(g.members.size());
      long long shared = g.mode == GroupMode::FusedMerge ? 2 : n + 1;
      total -= (2 * n - shared) * (kBarrierBytesPerStage / 2) * g.num_stages;
    }
  for (auto const& [name, phases] : groups) {
    long long largest = 0;
    for (auto const& [phase, size] : phases) largest = std::max(largest, size);
    total += largest;
  }
  return total;
}

}  // namespace

void check_memory_capacity(Model const& m, Limits const& l, Diagnostics& out) {
  std::string biggest;
  long long smem = footprint(m, MemSpace::Smem, biggest);
  if (smem > l.smem_bytes) {
    Diagnostic d;
    d.check = "S6.16.smem-capacity";
    d.resource = biggest;
    d.message = "shared memory needed (allocations + 16 B of barriers per pipeline stage) exceeds the block's "
                "capacity; the largest user is '" + biggest + "'";
    d.expected = "<= " + std::to_string(l.smem_bytes) + " bytes";
    d.actual = std::to_string(smem) + " bytes";
    d.hint = "reduce num_stages or tile sizes, or alias allocations whose lifetimes do not overlap";
    out.push_back(d);
  }
  long long tmem = footprint(m, MemSpace::Tmem, biggest);
  if (tmem > l.tmem_columns) {
    Diagnostic d;
    d.check = "S6.17.tmem-capacity";
    d.resource = biggest;
    d.message = "tensor memory columns needed exceed the capacity; the largest user is '" + biggest + "'";
    d.expected = "<= " + std::to_string(l.tmem_columns) + " columns";
    d.actual = std::to_string(tmem) + " columns";
    out.push_back(d);
  }
}

}  // namespace ts::verify
