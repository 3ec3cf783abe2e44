// Step traces of emulator runs, and their Chrome trace-event / HTML exports.
#include <gtest/gtest.h>

#include <map>

#include "copy/copy_examples.hpp"
#include "ts/print/pictures.hpp"
#include "ts/runtime/cpu/run.hpp"

TEST(CpuTrace, PipelinedCopyRecordsEveryLeaderStepInOrder) {
  examples::CopyBuffers b(32 * 24);
  auto tm = examples::make_pipelined_copy(b, ts::Options{.verbose = false});
  tm.print_and_verify();
  ts::cpu::RunOptions o;
  o.grid_blocks = 2;
  o.seed = 5;
  o.trace = true;
  auto st = ts::cpu::run(tm, o);
  ASSERT_TRUE(b.matches());
  auto const& ev = st.steps.events;
  EXPECT_EQ(st.steps.clock, "logical");
  // 24 chunks over 2 CTAs: each CTA's producer leader runs 12 x (acquire, load, put, commit).
  std::map<std::pair<int, int>, std::vector<ts::TraceEvent>> lanes;
  for (auto const& e : ev) lanes[{e.cta, e.task}].push_back(e);
  ASSERT_EQ(lanes.size(), 4u);
  for (auto const& [k, v] : lanes) {
    EXPECT_EQ(v.size(), 48u) << "CTA " << k.first << " task " << k.second;
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_LE(v[i].begin, v[i].end);
      if (i) EXPECT_LE(v[i - 1].end, v[i].begin);  // one leader thread: steps do not overlap
    }
    // The steps follow the schedule: the producer's cycle of four.
    if (k.second == 0)
      for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].step, int(i % 4));
  }
  std::string json = ts::print::trace_chrome_json(tm.model(), st.steps);
  EXPECT_NE(json.find("\"traceEvents\":["), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"Consumer\"}"),
            std::string::npos);
  EXPECT_NE(json.find("\"name\":\"ring.acquire()\",\"cat\":\"ProducerAcquire\",\"ph\":\"X\""), std::string::npos);
  std::string html = ts::print::trace_html(tm.model(), st.steps);
  EXPECT_NE(html.find("class=\"ts-trace\""), std::string::npos);
}

TEST(CpuTrace, OffByDefault) {
  examples::CopyBuffers b(64);
  auto tm = examples::make_pipelined_copy(b, ts::Options{.verbose = false});
  tm.print_and_verify();
  auto st = ts::cpu::run(tm, ts::cpu::RunOptions{});
  EXPECT_TRUE(st.steps.events.empty());
}
