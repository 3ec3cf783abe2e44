#include "ts/runtime/launch_layout.hpp"

#include <algorithm>
#include <map>

#include "ts/core/errors.hpp"
#include "ts/core/queue_response.hpp"
#include "ts/schedule/lane_mode.hpp"

namespace ts {

namespace {

uint32_t align_up(uint64_t v, uint32_t a) { return static_cast<uint32_t>((v + a - 1) / a * a); }

[[noreturn]] void layout_error(std::string check, std::string resource, std::string msg, std::string expected,
                               std::string actual) {
  throw ModelError(value_diagnostic(std::move(check), std::move(resource), std::move(msg), std::move(expected),
                                   std::move(actual)));
}

struct Item {
  int resource;
  AllocationDecl const* decl;
};

// A side (opened by `open`) runs in domain-lane mode when its open/close strides match,
// exceed 1, and every task issuing `open` on the resource has it in a domain loop that
// steps by the stride from a lane start (the rule S6.12 checks).
bool domain_lane_side(Model const& m, int r, SyncOp open, int stride_open, int stride_close) {
  if (stride_open <= 1 || stride_open != stride_close) return false;
  bool any = false;
  for (auto const& t : m.tasks) {
    bool issues = false;
    for (auto const& s : t.schedule.steps) issues |= s.kind == open && s.resource == r;
    if (!issues) continue;
    if (ir::domain_lane(t.schedule, r, open, stride_open) < 0) return false;
    any = true;
  }
  return any;
}

}  // namespace

LaunchLayout make_launch_layout(Model const& m, uint32_t smem_capacity, bool dry_run) {
  LaunchLayout L;
  L.block_threads = m.total_warps() * 32;
  uint64_t cursor = 0;

  // Data allocations: larger alignment first, then larger size, to keep padding small.
  // Allocations of one alias group share a region sized to the group's largest phase.
  std::vector<Item> plain;
  std::map<std::string, std::map<int, std::vector<Item>>> groups;
  for (size_t r = 0; r < m.resources.size(); ++r)
    for (auto const& a : m.resources[r]->allocations.decls()) {
      if (!dry_run && a.placement && *a.placement != kUnplaced)
        layout_error("S9.1.layout-once", m.resources[r]->name,
                     "allocation '" + a.name + "' was already placed: a TaskManager's layout is made exactly once",
                     "an unplaced allocation", "offset " + std::to_string(*a.placement));
      if (a.space != MemSpace::Smem) continue;
      if (a.alias_group.empty()) plain.push_back({int(r), &a});
      else groups[a.alias_group][a.alias_phase].push_back({int(r), &a});
    }
  auto by_align = [](Item const& x, Item const& y) {
    if (x.decl->alignment != y.decl->alignment) return x.decl->alignment > y.decl->alignment;
    return x.decl->bytes() > y.decl->bytes();
  };
  std::sort(plain.begin(), plain.end(), by_align);
  auto place = [&](Item const& it, uint64_t& at) {
    at = align_up(at, static_cast<uint32_t>(std::max(1, it.decl->alignment)));
    if (!dry_run) *it.decl->placement = static_cast<uint32_t>(at);
    L.placements.push_back({m.resources[it.resource]->name, it.decl->name, MemSpace::Smem, uint32_t(at),
                            uint64_t(it.decl->bytes()), it.decl->alignment, it.decl->alias_group,
                            it.decl->alias_phase});
    at += it.decl->bytes();
  };
  for (auto const& it : plain) place(it, cursor);
  for (auto& [name, phases] : groups) {
    int max_align = 1;
    for (auto& [ph, items] : phases)
      for (auto& it : items) max_align = std::max(max_align, it.decl->alignment);
    uint64_t base = align_up(cursor, static_cast<uint32_t>(max_align)), end = base;
    for (auto& [ph, items] : phases) {
      std::sort(items.begin(), items.end(), by_align);
      uint64_t at = base;
      for (auto const& it : items) place(it, at);
      end = std::max(end, at);
    }
    cursor = end;
  }

  // Barriers: full[stages] and empty[stages] per pipelined resource, 8 B each; a
  // pipelined work queue also gets a 16 B response per stage. A pipeline group's lead
  // member (its first member this manager uses) places the barriers the group shares;
  // the other members place only their own and point at the lead's shared ones, so a
  // group holds (N + 1) x S (Merge, Fork) or 2 x S (FusedMerge) barriers (SPEC S10.2).
  L.pipes.resize(m.resources.size());
  auto lead_of = [&](int g) {
    for (int r : m.groups[g].members)
      if (r >= 0) return r;
    return -1;
  };
  auto place_barriers = [&](int r) {
    auto const& d = *m.resources[r];
    auto& p = L.pipes[r];
    auto const& c = *d.pipeline;
    int g = m.group_of(r);
    int lead = g >= 0 ? lead_of(g) : -1;
    bool follower = g >= 0 && lead != r;
    GroupMode mode = g >= 0 ? m.groups[g].mode : GroupMode::Merge;
    std::string owner = d.name;
    if (g >= 0 && !follower) owner = m.groups[g].name + " (group)";
    p.full_arrivals = c.declared_full_arrivals();
    p.empty_arrivals = c.declared_empty_arrivals() * p.multicast_ctas;
    if (g >= 0) {
      p.group_lead = !follower;
      p.group_member = static_cast<int8_t>(d.group_member);
      p.shared_full = shares_full(mode);
      p.shared_empty = shares_empty(mode);
      // Arrivals a shared barrier counts: the collapsed side signals once (the lead's
      // count; the members' counts are equal, checked when the group is declared); a
      // FusedMerge full barrier counts every producer's arrivals.
      auto const& lc = *m.resources[lead]->pipeline;
      if (p.shared_empty) p.empty_arrivals = lc.declared_empty_arrivals();
      if (p.shared_full && mode == GroupMode::Fork) {
        p.full_arrivals = lc.declared_full_arrivals();
        p.stage_bytes = static_cast<uint32_t>(m.groups[g].total_bytes);  // one expect_tx for the group
      }
      if (p.shared_full && mode == GroupMode::FusedMerge) {
        p.full_arrivals = 0;
        for (int mr : m.groups[g].members)
          if (mr >= 0) p.full_arrivals += m.resources[mr]->pipeline->declared_full_arrivals();
      }
    }
    auto const& lp = follower ? L.pipes[lead] : p;
    cursor = align_up(cursor, 8);
    // One array of num_stages barriers per side: a group follower reuses its lead's shared
    // array, everyone else gets a fresh one (named for the group when it is shared).
    auto place_array = [&](bool shared, uint32_t lead_offset, char const* what) {
      if (follower && shared) return lead_offset;
      auto at = static_cast<uint32_t>(cursor);
      L.placements.push_back({shared ? owner : d.name, what, MemSpace::Smem, at, uint64_t(8 * c.num_stages), 8});
      cursor += 8ull * c.num_stages;
      return at;
    };
    p.full_offset = place_array(p.shared_full, lp.full_offset, "full_barriers");
    p.empty_offset = place_array(p.shared_empty, lp.empty_offset, "empty_barriers");
    if (d.kind == ResourceKind::WorkQueue) {
      cursor = align_up(cursor, 16);
      p.response_offset = static_cast<uint32_t>(cursor);
      L.placements.push_back({d.name, "responses", MemSpace::Smem, p.response_offset,
                              uint64_t(kQueueResponseBytes * c.num_stages), 16});
      cursor += uint64_t(kQueueResponseBytes) * c.num_stages;
    }
  };
  std::vector<int> followers;
  for (size_t r = 0; r < m.resources.size(); ++r) {
    auto const& d = *m.resources[r];
    auto& p = L.pipes[r];
    p.kind = d.kind;
    if (!d.pipeline) continue;
    auto const& c = *d.pipeline;
    p.pipelined = true;
    p.producer = c.producer_engine();
    p.consumer = c.consumer_engine();
    p.num_stages = c.num_stages;
    p.async_load = c.async_flavor == AsyncFlavor::AsyncLoad;
    p.stage_bytes = static_cast<uint32_t>(c.num_bytes);
    p.producer_signal = c.producer_signal;
    p.consumer_signal = c.consumer_signal;
    p.wait_signal = c.wait_signal_override.value_or(c.consumer_signal);
    p.stride_acquire = static_cast<int8_t>(c.interleave_stride.acquire);
    p.stride_commit = static_cast<int8_t>(c.interleave_stride.commit);
    p.stride_wait = static_cast<int8_t>(c.interleave_stride.wait);
    p.stride_release = static_cast<int8_t>(c.interleave_stride.release);
    // Multicast TMA (docs/pipeline-arrivals.md): every CTA of the multicast row and column
    // writes this CTA's stage, so all their consumers release it here: the empty barrier
    // counts the fan-in times the CTA-local arrivals, and each release arrives everywhere.
    p.multicast_ctas = static_cast<int8_t>(c.multicast_fan_in());
    L.cluster_ctas = std::max(L.cluster_ctas, c.cluster_ctas());
    p.producer_lanes = domain_lane_side(m, static_cast<int>(r), SyncOp::Acquire, c.interleave_stride.acquire,
                                        c.interleave_stride.commit);
    p.consumer_lanes = domain_lane_side(m, static_cast<int>(r), SyncOp::Wait, c.interleave_stride.wait,
                                        c.interleave_stride.release);
    p.producer_warp_lanes = warp_lane_side(m, static_cast<int>(r), true);
    p.consumer_warp_lanes = warp_lane_side(m, static_cast<int>(r), false);
    int g = m.group_of(static_cast<int>(r));
    if (g >= 0 && lead_of(g) != static_cast<int>(r)) followers.push_back(static_cast<int>(r));
    else place_barriers(static_cast<int>(r));
  }
  for (int r : followers) place_barriers(r);
  L.smem_bytes = align_up(cursor, 16);
  if (!dry_run && L.smem_bytes > smem_capacity)
    layout_error("S6.16.smem-capacity", "", "the kernel's shared memory (allocations + barriers) exceeds capacity",
                 "<= " + std::to_string(smem_capacity) + " bytes", std::to_string(L.smem_bytes) + " bytes");

  // TMEM: columns in declaration order.
  uint32_t col = 0;
  for (size_t r = 0; r < m.resources.size(); ++r)
    for (auto const& a : m.resources[r]->allocations.decls()) {
      if (a.space != MemSpace::Tmem) continue;
      if (!dry_run) *a.placement = col;
      L.placements.push_back({m.resources[r]->name, a.name, MemSpace::Tmem, col, uint64_t(a.count), 1});
      col += static_cast<uint32_t>(a.count);
    }
  L.tmem_columns = col;
  if (!dry_run && col > static_cast<uint32_t>(kTmemColumns))
    layout_error("S6.17.tmem-capacity", "", "the kernel's tensor-memory columns exceed capacity",
                 "<= " + std::to_string(kTmemColumns) + " columns", std::to_string(col) + " columns");
  return L;
}

}  // namespace ts
