// Decoding of the GPU step trace (ts/runtime/cuda/trace_records.hpp), on hand-made
// buffers: the 32-bit clock unwrapped in lane order, cycles mapped to ns between the
// anchors (at the rate the anchors give, not 1 ns per cycle), unused and padding slots
// skipped, full regions counted, and each lane's last step closed inside its own lane.
#include <gtest/gtest.h>

#include <vector>

#include "copy/copy_builders.hpp"
#include "cpu_test_util.hpp"
#include "ts/runtime/cuda/trace_records.hpp"

namespace {

using ts::cuda::TraceRecord;

TraceRecord rec(uint32_t t, int kind, int resource) {
  return TraceRecord{t, uint16_t(kind + ts::cuda::kTraceCodeBias), int16_t(resource)};
}
// An anchor's three records: ns (low, high word) and the clock's low word.
void anchor(std::vector<TraceRecord>& lane, unsigned long long ns, uint32_t cycles) {
  lane.push_back(rec(uint32_t(ns), ts::cuda::kTraceAnchorNsLow, -1));
  lane.push_back(rec(uint32_t(ns >> 32), ts::cuda::kTraceAnchorNsHigh, -1));
  lane.push_back(rec(cycles, ts::cuda::kTraceAnchorCycles, -1));
}
// The step record of schedule step `i` of task 0.
TraceRecord step_rec(ts::Model const& m, int i, uint32_t cycles) {
  auto const& s = m.tasks[0].schedule.steps.at(i);
  return rec(cycles, int(s.kind), s.resource);
}

struct Decode : ::testing::Test {
  std::vector<int16_t> src = std::vector<int16_t>(64), dst = std::vector<int16_t>(64);
  decltype(examples::make_pipelined_copy(nullptr, nullptr, 0)) tm =
      examples::make_pipelined_copy(src.data(), dst.data(), 64, cpu_test::quiet());
  ts::Model const& m = tm.model();
  // Lays lanes (one per CTA of task 0; other tasks' regions stay unused) into a buffer.
  std::vector<TraceRecord> buffer(std::vector<std::vector<TraceRecord>> const& lanes, int capacity) {
    int tasks = int(m.tasks.size());
    std::vector<TraceRecord> b(lanes.size() * tasks * capacity, TraceRecord{0, 0, 0});
    for (size_t cta = 0; cta < lanes.size(); ++cta)
      for (size_t i = 0; i < lanes[cta].size(); ++i) b[cta * tasks * capacity + i] = lanes[cta][i];
    return b;
  }
};

TEST_F(Decode, UnwrapsTheClockAndMapsCyclesToNsBetweenAnchors) {
  ASSERT_GE(m.tasks[0].schedule.steps.size(), 2u);
  // Anchors 0x300 cycles apart across a wrap of the 32-bit clock, 0x180 ns apart: the
  // clock ran at 2 cycles per ns. Steps at anchor + 0x80 and at anchor + 0x200 cycles.
  std::vector<TraceRecord> lane;
  anchor(lane, 1'000'000, 0xFFFFFF00u);
  lane.push_back(step_rec(m, 0, 0xFFFFFF80u));
  lane.push_back(step_rec(m, 1, 0x00000100u));  // wrapped: 2^32 + 0x100
  anchor(lane, 1'000'000 + 0x180, 0x00000200u);
  std::vector<TraceRecord> padded = lane;
  padded.resize(32, TraceRecord{0, 0, 0});  // an end's padding and never-written slots
  ts::Trace t;
  int full = ts::cuda::decode_trace_records(m, buffer({padded}, 32), 1, int(m.tasks.size()), 32, t);
  EXPECT_EQ(full, 0);
  ASSERT_EQ(t.events.size(), 2u);
  EXPECT_EQ(t.clock, "ns");
  EXPECT_EQ(t.events[0].step, 0);
  EXPECT_EQ(t.events[1].step, 1);
  EXPECT_EQ(t.events[0].begin, 0);
  // 0x180 cycles after the first step at 2 cycles per ns: 0xC0 ns (1 ns per cycle would give 0x180).
  EXPECT_EQ(t.events[1].begin, 0xC0);
  EXPECT_EQ(t.events[0].end, t.events[1].begin);
}

TEST_F(Decode, EachLanesLastStepEndsInItsOwnLane) {
  std::vector<TraceRecord> a, b;
  anchor(a, 5'000, 100);
  a.push_back(step_rec(m, 0, 200));
  anchor(b, 1'000, 100);  // CTA 1 starts earlier: its steps are the trace's origin
  b.push_back(step_rec(m, 0, 110));
  b.push_back(step_rec(m, 1, 150));
  ts::Trace t;
  ts::cuda::decode_trace_records(m, buffer({a, b}, 16), 2, int(m.tasks.size()), 16, t);
  ASSERT_EQ(t.events.size(), 3u);
  // CTA 0's only step starts 4090 ns after CTA 1's first and lasts 1 ns, not until a
  // step of another lane.
  EXPECT_EQ(t.events[0].cta, 0);
  EXPECT_EQ(t.events[0].begin, 4'090);
  EXPECT_EQ(t.events[0].end, 4'091);
  EXPECT_EQ(t.events[1].cta, 1);
  EXPECT_EQ(t.events[1].begin, 0);
  EXPECT_EQ(t.events[1].end, 40);
  EXPECT_EQ(t.events[2].begin, 40);
  EXPECT_EQ(t.events[2].end, 41);
}

TEST_F(Decode, ARegionWhoseLastSlotIsWrittenCountsAsFull) {
  std::vector<TraceRecord> lane;
  anchor(lane, 10, 0);
  for (int i = 0; int(lane.size()) < 16; ++i) lane.push_back(step_rec(m, 0, uint32_t(10 + i)));
  ts::Trace t;
  EXPECT_EQ(ts::cuda::decode_trace_records(m, buffer({lane}, 16), 1, int(m.tasks.size()), 16, t), 1);
  EXPECT_EQ(t.events.size(), 13u);
}

}  // namespace
