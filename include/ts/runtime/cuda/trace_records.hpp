// The GPU step trace's record format and its decoding, host-only C++ (no CUDA): the
// device side (ts/runtime/cuda/trace.cuh) writes these records, decode_trace_records
// turns a copy of the buffer into a ts::Trace. Kept apart so the decoding (clock
// unwrapping, anchors, padding, full regions) is tested on machines without a GPU.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "ts/core/trace.hpp"
#include "ts/schedule/model.hpp"
#include "ts/schedule/step_matching.hpp"

namespace ts::cuda {

enum class TraceLevel : int { Tile = 1, Stage = 2, Step = 3 };

inline char const* trace_level_name(TraceLevel l) {
  return l == TraceLevel::Tile ? "tile" : l == TraceLevel::Stage ? "stage" : "step";
}

// One traced step, 8 bytes: the low 32 bits of the SM's clock64 at the step's start
// (the decoder unwraps them in lane order), the kind and the resource. The task is the
// region's (one region per CTA and task). Anchors (below) use the same shape.
struct TraceRecord {
  uint32_t t;
  uint16_t code;     // kind + kTraceCodeBias: 0 marks an unused slot
  int16_t resource;
};
static_assert(sizeof(TraceRecord) == 8, "two records per 16-byte copy");
constexpr int kTraceCodeBias = 4;

// Anchors tie a lane's cycles to %globaltimer (ns, comparable across SMs): three
// records, the timer's low and high words and the clock's low word read right after.
// The decoder maps each record's cycles to ns linearly between the anchors around it (one
// per tile and at the lane's start), so a clock that changes speed during the kernel
// shifts no record by more than one tile's drift.
constexpr int kTraceAnchorNsLow = -1;
constexpr int kTraceAnchorNsHigh = -2;
constexpr int kTraceAnchorCycles = -3;

// Records each task leader keeps in SMEM: a ring of two halves of 16. A full half goes
// to the leader's region of the device buffer by one bulk copy (the TMA engine reads the
// SMEM; the leader issues one instruction and keeps no registers for it) while the
// other half fills. Each task has one block [header 16 B][ring 256 B]; the header holds
// what only a copy needs (the region and how much of it is written), so the hot path
// keeps two registers. The GEMM leaves under 1 KiB of SMEM free: 2-3 blocks fit.
constexpr int kTraceHalfRecords = 16;
constexpr int kTraceRingRecords = 2 * kTraceHalfRecords;
constexpr unsigned kTraceBlockBytes = 16 + kTraceRingRecords * sizeof(TraceRecord);
constexpr unsigned trace_ring_bytes(int tasks) { return unsigned(tasks) * kTraceBlockBytes; }

namespace detail {

// One lane's steps with their cycles unwrapped (the 32-bit clock, in lane order) and
// mapped to ns: between two anchors linearly, before the first / after the last at the
// slope of the nearest two (1 ns per cycle with a single anchor).
struct LaneStep {
  long long ns;
  int kind, resource;
};
inline std::vector<LaneStep> lane_in_ns(TraceRecord const* r, int n) {
  std::vector<std::pair<double, double>> anchors;  // (cycles, ns)
  std::vector<std::pair<double, TraceRecord const*>> steps;
  unsigned long long hi = 0;
  uint32_t last = 0;
  bool any = false;
  uint32_t ns_low = 0, ns_high = 0;
  for (int i = 0; i < n; ++i) {
    if (r[i].code == 0) continue;
    int kind = int(r[i].code) - kTraceCodeBias;
    if (kind == kTraceAnchorNsLow) { ns_low = r[i].t; continue; }
    if (kind == kTraceAnchorNsHigh) { ns_high = r[i].t; continue; }
    if (any && r[i].t < last) hi += 1ull << 32;  // the clock wrapped since the last record
    any = true;
    last = r[i].t;
    double cycles = double(hi + r[i].t);
    if (kind == kTraceAnchorCycles) anchors.push_back({cycles, double((uint64_t(ns_high) << 32) | ns_low)});
    else steps.push_back({cycles, r + i});
  }
  auto to_ns = [&](double c) {
    if (anchors.empty()) return c;
    if (anchors.size() == 1) return anchors[0].second + (c - anchors[0].first);
    size_t k = 1;
    while (k + 1 < anchors.size() && anchors[k].first < c) ++k;
    auto [c0, n0] = anchors[k - 1];
    auto [c1, n1] = anchors[k];
    double slope = c1 > c0 ? (n1 - n0) / (c1 - c0) : 1.0;
    return n0 + (c - c0) * slope;
  };
  std::vector<LaneStep> out;
  for (auto const& [c, rec] : steps)
    out.push_back({(long long)to_ns(c), int(rec->code) - kTraceCodeBias, rec->resource});
  return out;
}

}  // namespace detail

// Decodes a copy of a trace buffer (`grid` CTAs x `tasks` regions of `capacity`
// records) into step intervals: each step ends where the same leader's next traced step
// starts (a leader's last step gets 1 ns); times are ns relative to the earliest record.
// Returns the number of (CTA, task) regions whose last slot is written (they may have
// dropped later records).
inline int decode_trace_records(Model const& m, std::vector<TraceRecord> const& h, int grid, int tasks, int capacity,
                                Trace& out) {
  out.clock = "ns";
  out.events.clear();
  std::vector<std::vector<detail::LaneStep>> lanes;
  std::vector<std::pair<int, int>> who;
  int full = 0;
  long long t0 = std::numeric_limits<long long>::max();
  for (int cta = 0; cta < grid; ++cta)
    for (int task = 0; task < tasks && task < int(m.tasks.size()); ++task) {
      TraceRecord const* r = h.data() + (size_t(cta) * tasks + task) * capacity;
      if (r[capacity - 1].code != 0) ++full;  // the last slot written: later halves may have been dropped
      lanes.push_back(detail::lane_in_ns(r, capacity));  // unused slots (code 0) are skipped
      who.push_back({cta, task});
      for (auto const& s : lanes.back()) t0 = std::min(t0, s.ns);
    }
  for (size_t l = 0; l < lanes.size(); ++l) {
    auto [cta, task] = who[l];
    int prev = -1;
    size_t first = out.events.size();
    for (auto const& s : lanes[l]) {
      int step = match_next_step(m.tasks[task].schedule, prev, SyncOp(s.kind), s.resource, nullptr);
      if (step < 0) continue;
      prev = step;
      out.events.push_back(TraceEvent{cta, task, step, s.ns - t0, -1});
    }
    size_t last = out.events.size();  // this lane's events are [first, last)
    for (size_t i = first; i < last; ++i)
      out.events[i].end = i + 1 < last ? out.events[i + 1].begin : out.events[i].begin + 1;
  }
  return full;
}

}  // namespace ts::cuda
