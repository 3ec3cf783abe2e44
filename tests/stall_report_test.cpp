// Stall attribution (ts/print/stall_report.hpp): hand-built traces with known answers,
// edge cases with clear errors, emulator runs of the pipelined copy with a deliberately
// slow producer (or consumer) work body, and the trace-event JSON export read back.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"
#include "gemm/gemm_host.hpp"
#include "gemm/gemm_manager.hpp"
#include "ts/print/json_reader.hpp"
#include "ts/print/pictures.hpp"
#include "ts/print/stall_report.hpp"
#include "ts/runtime/cpu/emulator.hpp"
#include "ts/runtime/cpu/run.hpp"

using ts::print::StallError;
using ts::print::StallOp;
using ts::print::StallStep;
using ts::print::StallTrace;

namespace {

// A lane of back-to-back steps: each (op, resource, duration) starts where the previous ended.
struct Lane {
  int cta;
  std::string task;
  std::vector<std::tuple<StallOp, std::string, long long>> steps;
};
StallTrace trace_of(std::vector<Lane> const& lanes, std::vector<std::string> tasks = {"Load", "Math"},
                    std::vector<std::string> resources = {"gmem", "smem", "out", "tiles"}) {
  StallTrace t;
  t.clock = "ns";
  t.tasks = std::move(tasks);
  t.resources = std::move(resources);
  for (auto const& l : lanes) {
    long long at = 0;
    for (auto const& [op, res, d] : l.steps) {
      t.steps.push_back(StallStep{l.cta, l.task, res, op, at, at + d});
      at += d;
    }
  }
  return t;
}

// Load: acquire `acq`, load, commit; Math: wait `wait`, math, release; 100 ns per lane.
StallTrace pipeline(long long acq, long long wait) {
  return trace_of({{0, "Load", {{StallOp::Acquire, "smem", acq}, {StallOp::Work, "gmem", 100 - acq - 1},
                                {StallOp::Sync, "smem", 1}}},
                   {0, "Math", {{StallOp::Wait, "smem", wait}, {StallOp::Work, "smem", 100 - wait - 1},
                                {StallOp::Sync, "smem", 1}}}});
}

ts::print::TaskStalls const& task(ts::print::StallReport const& r, std::string const& n) {
  for (auto const& t : r.tasks)
    if (t.task == n) return t;
  throw std::runtime_error("no task " + n);
}

template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (StallError const& e) {
    return e.what();
  }
  return "<no StallError>";
}

}  // namespace

TEST(StallReport, ConsumerBlockedHalfTheTimeIsProducerBound) {
  auto r = ts::print::stall_report(pipeline(2, 50));
  EXPECT_EQ(r.bound, "producer-bound");
  EXPECT_EQ(task(r, "Math").t.total, 100);
  EXPECT_EQ(task(r, "Math").t.wait, 50);
  EXPECT_DOUBLE_EQ(task(r, "Math").t.pct(task(r, "Math").t.wait), 50.0);
  EXPECT_EQ(task(r, "Load").t.acquire, 2);
  EXPECT_EQ(task(r, "Load").t.work, 97);
  ASSERT_EQ(r.resources.size(), 1u);
  EXPECT_EQ(r.resources[0].resource, "smem");
  EXPECT_EQ(r.resources[0].bound, "producer-bound");
  EXPECT_EQ(r.resources[0].producers, std::vector<std::string>{"Load"});
  EXPECT_EQ(r.resources[0].consumers, std::vector<std::string>{"Math"});
  EXPECT_DOUBLE_EQ(r.resources[0].wait_pct, 50.0);
  EXPECT_DOUBLE_EQ(r.resources[0].acquire_pct, 2.0);
  EXPECT_NE(r.verdict.find("Math waited 50.0 % of its time on smem.wait: producer-bound"), std::string::npos)
      << r.verdict;
  EXPECT_NE(r.verdict.find("Load waited 2.0 % on smem.acquire"), std::string::npos) << r.verdict;
  std::string table = ts::print::stall_table(r);
  EXPECT_NE(table.find("Verdict (producer-bound"), std::string::npos) << table;
  EXPECT_NE(table.find("smem: Load -> Math: wait 50.0 % (Math), acquire 2.0 % (Load): producer-bound"),
            std::string::npos)
      << table;
}

TEST(StallReport, ProducerBlockedOnAcquireIsConsumerBound) {
  auto r = ts::print::stall_report(pipeline(40, 5));
  EXPECT_EQ(r.bound, "consumer-bound");
  EXPECT_NE(r.verdict.find("Load waited 40.0 % of its time on smem.acquire: consumer-bound"), std::string::npos)
      << r.verdict;
  EXPECT_NE(r.verdict.find("Math holds the stages of smem too long"), std::string::npos) << r.verdict;
}

TEST(StallReport, LittleWaitingIsBalanced) {
  auto r = ts::print::stall_report(pipeline(3, 7));
  EXPECT_EQ(r.bound, "balanced");
  EXPECT_EQ(r.resources.at(0).bound, "balanced");
  EXPECT_NE(r.verdict.find("Balanced: no task is blocked 10.0 % of its time or more (the most: Math 7.0 % on smem.wait)"),
            std::string::npos)
      << r.verdict;
}

TEST(StallReport, BothSidesBlockedIsLatencyBound) {
  auto r = ts::print::stall_report(pipeline(25, 30));
  EXPECT_EQ(r.bound, "both-blocked");
  EXPECT_NE(r.verdict.find("Math waited 30.0 % of its time on smem.wait and Load 25.0 % on smem.acquire"),
            std::string::npos)
      << r.verdict;
}

TEST(StallReport, ThresholdsDecide) {
  // 50 % blocked is not "blocked" under a 60 % threshold; 2 vs 12: dominance 10x fails.
  EXPECT_EQ(ts::print::stall_report(pipeline(2, 50), {.stall_pct = 60}).bound, "balanced");
  EXPECT_EQ(ts::print::stall_report(pipeline(12, 20), {.stall_pct = 10, .dominance = 1.5}).bound, "producer-bound");
  EXPECT_EQ(ts::print::stall_report(pipeline(12, 20), {.stall_pct = 10, .dominance = 2}).bound, "both-blocked");
  EXPECT_NE(error_of([] { ts::print::stall_report(pipeline(2, 50), {.stall_pct = 120}); }).find("thresholds out of range"),
            std::string::npos);
}

TEST(StallReport, SumsOverCtasAndNamesTheQueue) {
  auto r = ts::print::stall_report(
      trace_of({{0, "Math", {{StallOp::Queue, "tiles", 30}, {StallOp::Work, "smem", 70}}},
                {1, "Math", {{StallOp::Queue, "tiles", 50}, {StallOp::Work, "smem", 50}}}}));
  EXPECT_EQ(task(r, "Math").ctas, 2);
  EXPECT_EQ(task(r, "Math").t.total, 200);
  EXPECT_EQ(task(r, "Math").t.queue, 80);
  EXPECT_EQ(r.bound, "queue-bound");
  EXPECT_NE(r.verdict.find("Math waited 40.0 % of its time on tiles (the work queue): queue-bound"), std::string::npos)
      << r.verdict;
}

TEST(StallReport, AProducerBlockedUpstreamIsNamed) {
  // Math starves on smem, but Load itself waits on gmem's queue: look upstream.
  auto r = ts::print::stall_report(
      trace_of({{0, "Load", {{StallOp::Wait, "gmem", 30}, {StallOp::Acquire, "smem", 1}, {StallOp::Work, "gmem", 69}}},
                {0, "Math", {{StallOp::Wait, "smem", 60}, {StallOp::Work, "smem", 40}}}}));
  EXPECT_EQ(r.bound, "producer-bound");
  EXPECT_NE(r.verdict.find("Load itself waits 30.0 % on gmem.wait: the stall starts further upstream"),
            std::string::npos)
      << r.verdict;
  EXPECT_NE(r.verdict.find("Per resource: gmem producer-bound; smem producer-bound"), std::string::npos) << r.verdict;
}

TEST(StallReport, ATaskThatNeverBlocks) {
  auto r = ts::print::stall_report(trace_of({{0, "Load", {{StallOp::Work, "gmem", 10}, {StallOp::Sync, "smem", 1}}},
                                             {0, "Math", {{StallOp::Wait, "smem", 1}, {StallOp::Work, "smem", 20}}}}));
  EXPECT_EQ(task(r, "Load").t.wait + task(r, "Load").t.acquire, 0);
  EXPECT_NE(r.verdict.find("Never blocked: Load."), std::string::npos) << r.verdict;
  // A single task that never blocks: balanced, 100 % work.
  auto one = ts::print::stall_report(trace_of({{0, "Load", {{StallOp::Work, "gmem", 10}}}}));
  EXPECT_EQ(one.bound, "balanced");
  EXPECT_DOUBLE_EQ(task(one, "Load").t.pct(task(one, "Load").t.work), 100.0);
  EXPECT_TRUE(one.resources.empty());
}

TEST(StallReport, EdgeCasesFailClearly) {
  EXPECT_NE(error_of([] { ts::print::stall_report(StallTrace{}); }).find("the trace has no steps"), std::string::npos);
  EXPECT_NE(error_of([] { ts::print::stall_report(trace_of({{0, "Math", {{StallOp::Wait, "nosuch", 5}}}})); })
                .find("names resource 'nosuch', which the trace does not declare (declared: gmem, smem, out, tiles)"),
            std::string::npos);
  EXPECT_NE(error_of([] { ts::print::stall_report(trace_of({{0, "Epi", {{StallOp::Work, "out", 5}}}})); })
                .find("task 'Epi', CTA 0) names a task the trace does not declare"),
            std::string::npos);
  EXPECT_NE(error_of([] { ts::print::stall_report(trace_of({{0, "Math", {{StallOp::Wait, "", 5}}}})); })
                .find("is a wait on no resource"),
            std::string::npos);
  StallTrace open = trace_of({{0, "Math", {{StallOp::Work, "smem", 5}}}});
  open.steps[0].end = -1;
  EXPECT_NE(error_of([&] { ts::print::stall_report(open); }).find("a step still open (end -1)"), std::string::npos);
  // From a model: an event naming a task the model lacks.
  examples::CopyBuffers b(64);
  auto tm = examples::make_pipelined_copy(b, ts::Options{.verbose = false, .exhaustive_check = false});
  ts::Trace bad{"logical", {ts::TraceEvent{0, 7, 0, 0, 1}}};
  EXPECT_NE(error_of([&] { ts::print::stall_report(tm.model(), bad); }).find("names task 7; the model has 2 tasks"),
            std::string::npos);
  ts::Trace bad_step{"logical", {ts::TraceEvent{0, 0, 99, 0, 1}}};
  EXPECT_NE(error_of([&] { ts::print::stall_report(tm.model(), bad_step); }).find("names step 99 of task 'Producer'"),
            std::string::npos);
  // The page of an empty trace says why it has no attribution instead of failing.
  std::string page = ts::print::trace_html(tm.model(), ts::Trace{"logical", {}});
  EXPECT_NE(page.find("class=\"stall-error\">stall attribution: the trace has no steps"), std::string::npos);
  EXPECT_NE(ts::print::trace_chrome_json(tm.model(), ts::Trace{"logical", {}}).find("\"traceEvents\":[]"),
            std::string::npos);
  EXPECT_NE(error_of([] { ts::print::stall_trace_from_chrome_json("{\"traceEvents\": [1,"); }).find("not a trace-event JSON"),
            std::string::npos);
  EXPECT_NE(error_of([] { ts::print::stall_trace_from_chrome_json("{\"x\": 1}"); }).find("no \"traceEvents\" array"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              ts::print::stall_trace_from_chrome_json(
                  R"J({"traceEvents":[{"ph":"X","name":"a.wait()","cat":"ConsumerWait","ts":1,"dur":2,"pid":0,"tid":3}]})J");
            }).find("tid 3, which no thread_name metadata"),
            std::string::npos);
}

// ---- emulator runs: the pipelined copy with a slow work body on one side ----
namespace {

// Cost of a work body on the emulator's logical clock: it yields `cost` times, so the
// other threads (and the clock) move on while it "works".
void spend(int cost) {
  if (ts::cpu::Emulator::in_emulated_thread())
    for (int i = 0; i < cost; ++i) ts::cpu::Emulator::current().yield();
}

struct SlowInput : examples::ChunkInput {
  int cost = 0;
  TS_HD int16_t load(ts::ConsumerStage const& si) const {
    spend(cost);
    return ChunkInput::load(si);
  }
};
struct SlowOutput : examples::ChunkOutput {
  int cost = 0;
  TS_HD void store(ts::ProducerStage const& si, int16_t v) const {
    spend(cost);
    ChunkOutput::store(si, v);
  }
};

struct SlowProducer {
  template <class S, class In, class Ring>
  TS_HD void operator()(S& s, In& in, Ring& ring) const {
    s.domain_loop(s.block_idx(), in->chunks(), s.grid_blocks(), [&] {
      ring.acquire();
      auto v = ts::work<&SlowInput::load>(in);
      ts::work<&examples::SmemRing::put>(ring, v);
      ring.commit();
    });
  }
};
struct SlowConsumer {
  template <class S, class Ring, class Out>
  TS_HD void operator()(S& s, Ring& ring, Out& out) const {
    s.domain_loop(s.block_idx(), (out->n + examples::kChunk - 1) / examples::kChunk, s.grid_blocks(), [&] {
      ring.wait();
      auto v = ts::work<&examples::SmemRing::take>(ring);
      ts::work<&SlowOutput::store>(out, v);
      ring.release();
    });
  }
};

auto make_slow_copy(examples::CopyBuffers& b, int load_cost, int store_cost) {
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", SlowInput{{{}, b.src.data(), n}, load_cost});
  auto out = ts::resource("out", SlowOutput{{{}, b.dst.data(), n}, store_cost});
  auto ring = ts::resource("ring", examples::SmemRing{},
                           ts::PipelineConfig::async_async({.num_stages = examples::kRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto producer = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(SlowProducer{}, in, ring);
  auto consumer = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(SlowConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(producer, consumer), ts::DependencyGraph{{ring, {in}}, {out, {ring}}},
                         ts::Options{.verbose = false, .exhaustive_check = false});
}

ts::cpu::RunStats traced_run(examples::CopyBuffers& b, int load_cost, int store_cost) {
  auto tm = make_slow_copy(b, load_cost, store_cost);
  tm.print_and_verify();
  ts::cpu::RunOptions o;
  o.grid_blocks = 2;
  o.seed = 3;
  o.trace = true;
  auto st = ts::cpu::run(tm, o);
  EXPECT_TRUE(b.matches());
  return st;
}

}  // namespace

TEST(StallReport, EmulatedSlowProducerIsProducerBound) {
  examples::CopyBuffers b(32 * 24);
  auto tm = make_slow_copy(b, 200, 0);
  auto st = traced_run(b, 200, 0);
  auto r = ts::print::stall_report(tm.model(), st.steps);
  EXPECT_EQ(r.clock, "logical");
  EXPECT_EQ(r.bound, "producer-bound") << ts::print::stall_table(r);
  EXPECT_EQ(r.resources.at(0).resource, "ring");
  EXPECT_EQ(r.resources.at(0).wait_task, "Consumer");
  EXPECT_GT(r.resources.at(0).wait_pct, 40.0) << ts::print::stall_table(r);
  EXPECT_NE(r.verdict.find("Consumer waited"), std::string::npos) << r.verdict;
  EXPECT_NE(r.verdict.find("on ring.wait: producer-bound. Producer cannot keep ring full"), std::string::npos)
      << r.verdict;
}

TEST(StallReport, EmulatedSlowConsumerIsConsumerBound) {
  examples::CopyBuffers b(32 * 24);
  auto tm = make_slow_copy(b, 0, 200);
  auto st = traced_run(b, 0, 200);
  auto r = ts::print::stall_report(tm.model(), st.steps);
  EXPECT_EQ(r.bound, "consumer-bound") << ts::print::stall_table(r);
  EXPECT_EQ(r.resources.at(0).acquire_task, "Producer");
  EXPECT_GT(r.resources.at(0).acquire_pct, 40.0) << ts::print::stall_table(r);
  EXPECT_NE(r.verdict.find("on ring.acquire: consumer-bound. Consumer holds the stages of ring too long"),
            std::string::npos)
      << r.verdict;
}

// The trace-event JSON (Perfetto / chrome://tracing) parses, has the documented shape,
// and reading it back gives the same attribution as the model and trace.
TEST(StallReport, ChromeJsonParsesAndRoundTrips) {
  examples::CopyBuffers b(32 * 24);
  auto tm = make_slow_copy(b, 200, 0);
  auto st = traced_run(b, 200, 0);
  std::string json = ts::print::trace_chrome_json(tm.model(), st.steps);
  auto doc = ts::print::JsonReader::parse(json);
  ASSERT_TRUE(doc.is_object());
  auto const* events = doc.get("traceEvents");
  ASSERT_TRUE(events && events->is_array());
  std::map<std::string, int> phases;
  std::set<std::pair<long long, long long>> threads_named;
  int begins = 0, ends = 0;
  for (auto const& e : events->items) {
    std::string ph = e.string_or("ph", "");
    ++phases[ph];
    ASSERT_TRUE(e.has_number("pid"));
    long long pid = (long long)e.number_or("pid", -1), tid = (long long)e.number_or("tid", -1);
    if (ph == "M" && e.string_or("name", "") == "thread_name") threads_named.insert({pid, tid});
    if (ph == "X") {
      EXPECT_TRUE(e.has_number("ts") && e.has_number("dur"));
      EXPECT_TRUE(pid == 0 || pid == 1);  // pid = CTA
      EXPECT_TRUE(tid == 0 || tid == 1);  // tid = task
      EXPECT_TRUE(threads_named.count({pid, tid}));
      auto const* args = e.get("args");
      ASSERT_TRUE(args);
      EXPECT_TRUE(args->has_number("begin") && args->has_number("end"));
      EXPECT_NE(args->string_or("stall", ""), "");
    }
    if (ph == "B") {
      ++begins;
      EXPECT_GE(tid, 1000);  // the tiles thread of a task
    }
    if (ph == "E") ++ends;
  }
  EXPECT_EQ(phases["X"], int(st.steps.events.size()));
  EXPECT_EQ(begins, ends);
  EXPECT_EQ(begins, 48);  // 24 chunks: each CTA's two tasks run 12 domain-loop iterations
  auto const* other = doc.get("otherData");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->string_or("clock", ""), "logical");
  EXPECT_EQ(other->string_or("stall_bound", ""), "producer-bound");

  auto direct = ts::print::stall_report(tm.model(), st.steps);
  auto back = ts::print::stall_report(ts::print::stall_trace_from_chrome_json(json));
  EXPECT_EQ(back.clock, "logical");
  EXPECT_EQ(back.bound, direct.bound);
  EXPECT_EQ(back.verdict, direct.verdict);
  ASSERT_EQ(back.tasks.size(), direct.tasks.size());
  for (size_t i = 0; i < back.tasks.size(); ++i) {
    EXPECT_EQ(back.tasks[i].t.total, direct.tasks[i].t.total);
    EXPECT_EQ(back.tasks[i].t.wait, direct.tasks[i].t.wait);
    EXPECT_EQ(back.tasks[i].t.acquire, direct.tasks[i].t.acquire);
  }
  // An older export (no args.stall/resource/begin/end): kind from "cat", resource from
  // the step name, times from ts/dur.
  auto old = ts::print::stall_report(ts::print::stall_trace_from_chrome_json(
      R"J({"traceEvents":[{"ph":"M","name":"thread_name","pid":0,"tid":0,"args":{"name":"Math"}},
          {"ph":"X","name":"smem.wait()","cat":"ConsumerWait","ts":0,"dur":0.5,"pid":0,"tid":0},
          {"ph":"X","name":"smem.Smem::mma()","cat":"ConsumerWork:mma","ts":0.5,"dur":0.5,"pid":0,"tid":0}]})J"));
  EXPECT_EQ(old.clock, "ns");
  EXPECT_EQ(task(old, "Math").t.wait, 500);
  EXPECT_EQ(task(old, "Math").t.total, 1000);
  EXPECT_EQ(old.bound, "producer-bound");
}

TEST(StallReport, TilesFollowTheDomainLoop) {
  examples::CopyBuffers b(32 * 24);
  auto tm = examples::make_pipelined_copy(b, ts::Options{.verbose = false});
  tm.print_and_verify();
  auto st = ts::cpu::run(tm, {.grid_blocks = 2, .seed = 5, .trace = true});
  auto tiles = ts::print::trace_tiles(tm.model(), st.steps);
  std::map<std::pair<int, int>, std::vector<ts::print::TraceTile>> lanes;
  for (auto const& t : tiles) lanes[{t.cta, t.task}].push_back(t);
  ASSERT_EQ(lanes.size(), 4u);
  for (auto const& [k, v] : lanes) {
    ASSERT_EQ(v.size(), 12u);
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_EQ(v[i].index, int(i));
      EXPECT_LT(v[i].begin, v[i].end);
      if (i) {
        EXPECT_EQ(v[i - 1].end, v[i].begin);  // back to back: the loop is the whole schedule
      }
    }
  }
  std::string html = ts::print::trace_html(tm.model(), st.steps);
  for (char const* part : {"class=\"trace-axis\"", "class=\"axis-tick\"", "class=\"axis-unit\"", "time (decisions)",
                           "class=\"trace-legend\"", "class=\"legend-item\" data-kind=\"wait\"", "class=\"tile-boundary\"",
                           "class=\"ts-stalls\"", "class=\"stall-verdict\"", "id=\"ts-zoom-in\"", "<script>"})
    EXPECT_NE(html.find(part), std::string::npos) << part;
}

// The GEMM on the emulator: tiles follow the work-tile loop, not its inner k-loop (2 x 2
// tiles of 2 k-blocks each on one persistent CTA: 4 tiles per task lane).
TEST(StallReport, GemmTilesFollowTheWorkTileLoop) {
  gemm::HostGemm h(256, 512, 128, 1);
  auto tm = gemm::make_gemm({h.M, h.N, h.K, &h.map_a, &h.map_b, h.d.data(), nullptr}, cpu_test::quiet());
  tm.print_and_verify();
  auto st = ts::cpu::run(tm, {.grid_blocks = 1, .resident_blocks = 1, .seed = 1, .trace = true});
  ASSERT_EQ(h.check(), "");
  std::map<int, int> tiles_per_task;
  for (auto const& t : ts::print::trace_tiles(tm.model(), st.steps)) tiles_per_task[t.task]++;
  ASSERT_FALSE(tiles_per_task.empty());
  for (auto const& [task, n] : tiles_per_task) EXPECT_EQ(n, 4) << tm.model().tasks[task].name;
  auto r = ts::print::stall_report(tm.model(), st.steps);
  bool smem_ab = false;
  for (auto const& x : r.resources) smem_ab |= x.resource == "smem_ab" && !x.producers.empty() && !x.consumers.empty();
  EXPECT_TRUE(smem_ab) << ts::print::stall_table(r);
}
