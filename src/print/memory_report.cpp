#include <iomanip>
#include <map>
#include <set>

#include "ts/print/printout.hpp"

namespace ts::print {

void memory_report(Model const& m, MemoryLayout const& L, std::ostream& os) {
  uint64_t data = 0, barriers = 0, responses = 0;
  int stages = 0;
  for (auto const& p : L.placements) {
    if (p.space != MemSpace::Smem) continue;
    if (p.allocation == "full_barriers" || p.allocation == "empty_barriers") barriers += p.size;
    else if (p.allocation == "responses") responses += p.size;
  }
  for (auto const& r : m.resources)
    if (r->pipeline) stages += r->pipeline->num_stages;
  uint64_t used = L.smem_bytes;
  data = used - barriers - responses;
  os << "Shared memory: " << used << " of " << kSm90SmemCapacity << " bytes ("
     << std::fixed << std::setprecision(1) << 100.0 * double(used) / kSm90SmemCapacity << "%)"
     << (used > kSm90SmemCapacity ? " OVER CAPACITY" : "") << ": data and padding " << data << ", barriers "
     << barriers;
  if (m.groups.empty()) os << " (" << stages << " stages x 16 B)";
  else os << " (" << barriers / 8 << " mbarriers x 8 B; pipeline groups share theirs)";
  if (responses) os << ", queue responses " << responses;
  os << "\n";
  os << "Tensor memory: " << L.tmem_columns << " of " << kTmemColumns << " columns"
     << (L.tmem_columns > uint32_t(kTmemColumns) ? " OVER CAPACITY" : "") << "\n";
  if (L.placements.empty()) return;

  os << "Allocator report:\n";
  os << "  " << std::left << std::setw(16) << "resource" << std::setw(18) << "allocation" << std::setw(6) << "space"
     << std::right << std::setw(9) << "size" << std::setw(7) << "align" << std::setw(9) << "offset" << std::setw(9)
     << "end" << "  alias\n";
  for (auto const& p : L.placements) {
    os << "  " << std::left << std::setw(16) << p.resource << std::setw(18) << p.allocation << std::setw(6)
       << (p.space == MemSpace::Smem ? "smem" : "tmem") << std::right << std::setw(9) << p.size << std::setw(7)
       << p.alignment << std::setw(9) << p.offset << std::setw(9) << p.offset + p.size;
    if (!p.alias_group.empty()) os << "  " << p.alias_group << "/" << p.alias_phase;
    os << "\n";
  }
  // Alias groups: phases never live together, so the region is the largest phase.
  std::map<std::string, std::map<int, std::vector<Placement const*>>> groups;
  for (auto const& p : L.placements)
    if (!p.alias_group.empty()) groups[p.alias_group][p.alias_phase].push_back(&p);
  for (auto const& [name, phases] : groups) {
    uint64_t sum = 0, region = 0;
    os << "  alias group '" << name << "':";
    for (auto const& [ph, items] : phases) {
      uint64_t lo = ~0ull, hi = 0;
      os << " phase " << ph << " {";
      for (size_t i = 0; i < items.size(); ++i) {
        os << (i ? ", " : "") << items[i]->resource << "." << items[i]->allocation;
        lo = std::min<uint64_t>(lo, items[i]->offset);
        hi = std::max<uint64_t>(hi, items[i]->offset + items[i]->size);
        sum += items[i]->size;
      }
      os << "}";
      region = std::max(region, hi - lo);
    }
    os << "; region " << region << " B, saves " << (sum > region ? sum - region : 0) << " B\n";
  }
}

}  // namespace ts::print
