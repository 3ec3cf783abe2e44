// Warp-lane interleaving (SPEC S3.3, S6.12; docs/warp-lanes.md): the S6.12 rules of the
// mode with their near misses, the checker's "one task op = stride stage ops" with
// schedules that are UNSAFE only because of that arithmetic, the example on the emulator,
// the replay of a counterexample, and the printout's lane block.
#include <sstream>

#include "patterns/warp_lane_consumer.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/runtime/cpu/run.hpp"
#include "ring_loops.hpp"

using namespace vt;

namespace {

template <long long N>
using ProduceN = ProduceLoop<0, N>;
template <long long N>
using ConsumeN = ConsumeLoop<0, N>;
using ConsumeDomainLane = ConsumeLoop<0, 8, 2>;  // a domain-lane consumer, for the mixed-modes test
using TmaFill = TmaFillLoop<4>;                   // 4 lane ops (8 stages with producer lanes)
using TmaFillAll = TmaFillLoop<8>;                // 8 stages, one per op

// Holds each stage until the next one is there (LaneAcquireNeedsEveryLaneStageFree).
struct ReleaseAfterNextWait {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    b.wait();
    s.domain_loop(0LL, 7LL, 1LL, [&](auto&) {
      ts::work<&Dst::store>(out, ts::work<&Buf::take>(b));
      b.wait();
      b.release();
    });
    b.release();
  }
};

// Gives both stages back before waiting again (its near miss).
struct TwoThenRelease {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(0LL, 4LL, 1LL, [&](auto&) {
      b.wait();
      b.wait();
      ts::work<&Dst::store>(out, ts::work<&Buf::take>(b));
      b.release();
      b.release();
    });
  }
};

// A task with nothing to do (the barrier-index test's padding).
struct Idle {
  template <class S>
  void operator()(S&) const {}
};

ts::PipelineConfig lanes_cfg(ts::InterleaveStride st, int stages = 4) {
  return ts::PipelineConfig::async_async({.num_stages = stages, .interleave_stride = st});
}

ts::Options checked() {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  return o;
}

// P (pwarps) fills `ring`, C (cwarps) drains it.
template <class PS, class CS>
auto lanes_pair(ts::PipelineConfig cfg, int pwarps, int cwarps, PS ps, CS cs, ts::Options o = quiet()) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto ring = ts::resource("ring", Buf{}, cfg);
  auto p = ts::Task("P").warps(0, pwarps).reads(in).writes(ring).schedule(ps, in, ring);
  auto c = ts::Task("C").warps(pwarps, cwarps).reads(ring).writes(out).schedule(cs, ring, out);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, o);
}

bool contains(std::string const& s, std::string const& part) { return s.find(part) != std::string::npos; }

}  // namespace

// ---- S6.12 rules of warp-lane mode ----

TEST(WarpLaneRules, NearMissStrideWarpsOnBothSidesPasses) {
  auto ds = diags(lanes_pair(lanes_cfg(2), 2, 2, ProduceN<8>{}, ConsumeN<8>{}));
  EXPECT_FALSE(has(ds, "S6.12")) << all(ds);
  EXPECT_FALSE(has(ds, "S6.10")) << all(ds);  // derived counts: one warp arrives per stage
}

TEST(WarpLaneRules, WrongWarpCountRejected) {
  auto ds = diags(lanes_pair(lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)), 1, 3, ProduceN<8>{}, ConsumeN<4>{}));
  auto d = find(ds, "S6.12.warp-lane-warps");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "C");
  EXPECT_EQ(d->resource, "ring");
  EXPECT_EQ(d->step, 0);
  EXPECT_EQ(d->step_text, "ring.wait()");
  EXPECT_EQ(d->expected, "2 warps");
  EXPECT_EQ(d->actual, "3 warps");
}

TEST(WarpLaneRules, StrideNotDividingStagesRejected) {
  auto ds = diags(lanes_pair(lanes_cfg(ts::InterleaveStride(1, 1, 2, 2), 3), 1, 2, ProduceN<8>{}, ConsumeN<4>{}));
  auto d = find(ds, "S6.12.stride-divides-stages");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "ring");
  EXPECT_EQ(d->expected, "a divisor of 3");
  EXPECT_EQ(d->actual, "2");
}

TEST(WarpLaneRules, UnequalOpenAndCloseStridesRejected) {
  auto cfg = lanes_cfg(ts::InterleaveStride(1, 1, 2, 1));
  cfg.advance_on_wait = true;
  auto ds = diags(lanes_pair(cfg, 1, 2, ProduceN<8>{}, ConsumeN<4>{}));
  auto d = find(ds, "S6.12.warp-lane-open-close");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "C");
  EXPECT_EQ(d->step_text, "ring.wait()");
  EXPECT_EQ(d->expected, "equal strides (2/2)");
  EXPECT_EQ(d->actual, "2/1");
}

TEST(WarpLaneRules, TaskWideSignalRejected) {
  auto cfg = lanes_cfg(ts::InterleaveStride(1, 1, 2, 2));
  cfg.consumer_signal = ts::Signal::CtaLeader;
  auto d = find(diags(lanes_pair(cfg, 1, 2, ProduceN<8>{}, ConsumeN<4>{})), "S6.12.warp-lane-signal");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "C");
  EXPECT_EQ(d->resource, "ring");
  EXPECT_EQ(d->expected, "All or TaskWarpLeader");
  EXPECT_EQ(d->actual, "CtaLeader");
  // Why: only thread 0 of C (warp 0) releases, so warp 1's stages are never given back.
  // The checker does not model who signals (it would call this SAFE); the emulator,
  // running it anyway in warning mode, hangs.
  ts::Options warn = checked();
  warn.warning_mode = true;
  auto tm = lanes_pair(cfg, 1, 2, ProduceN<8>{}, ConsumeN<4>{}, warn);
  std::ostringstream os;
  EXPECT_EQ(tm.print_and_verify(os).verdict, ts::Verdict::Safe);
  EXPECT_THROW(ts::cpu::run(tm, {.seed = 1, .require_verified = false}), ts::cpu::DeadlockError);
  // Near miss: one leader lane per warp signals each warp's own stages.
  cfg.consumer_signal = ts::Signal::TaskWarpLeader;
  auto ds = diags(lanes_pair(cfg, 1, 2, ProduceN<8>{}, ConsumeN<4>{}));
  EXPECT_FALSE(has(ds, "S6.12")) << all(ds);
  EXPECT_FALSE(has(ds, "S6.10")) << all(ds);
}

TEST(WarpLaneRules, EngineSideRejected) {
  auto tma = ts::PipelineConfig::tma_async({.num_stages = 4, .num_bytes = 64, .interleave_stride = ts::InterleaveStride(2, 2, 1, 1)});
  auto d = find(diags(lanes_pair(tma, 2, 1, TmaFill{}, ConsumeN<8>{})), "S6.12.warp-lane-engine");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->step_text, "ring.acquire()");
  EXPECT_EQ(d->expected, "an Async producer side");
  EXPECT_EQ(d->actual, "tma producer");
  // Near miss: the TMA ring's consumer side (plain threads) may run in warp-lane mode.
  auto cons = ts::PipelineConfig::tma_async({.num_stages = 4, .num_bytes = 64, .interleave_stride = ts::InterleaveStride(1, 1, 2, 2)});
  auto ds = diags(lanes_pair(cons, 1, 2, TmaFillAll{}, ConsumeN<4>{}));
  EXPECT_FALSE(has(ds, "S6.12")) << all(ds);
}

TEST(WarpLaneRules, MixedLaneModesOnOneSideRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto ring = ts::resource("ring", Buf{}, lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)));
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(ring).schedule(ProduceN<8>{}, in, ring);
  auto lane = ts::Task("L0").warps(1, 1).reads(ring).writes(out).schedule(ConsumeDomainLane{}, ring, out);
  auto warps = ts::Task("W").warps(2, 2).reads(ring).writes(out).schedule(ConsumeN<4>{}, ring, out);
  auto tm = ts::TaskManager(ts::tasks(p, lane, warps), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, quiet());
  auto ds = diags(tm);
  auto d = find(ds, "S6.12.lane-modes-mixed");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "W");
  EXPECT_EQ(d->resource, "ring");
  EXPECT_EQ(d->step_text, "ring.wait()");
  EXPECT_EQ(d->expected, "one lane mode on the side (domain-lane, as task 'L0')");
  EXPECT_EQ(d->actual, "warp-lane");
}

// A task past the named barriers reserved for tasks cannot converge at its lane ops.
TEST(WarpLaneRules, TaskBeyondTheNamedBarriersRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto ring = ts::resource("ring", Buf{}, lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)));
  auto idle = [](int w) { return ts::Task("Idle" + std::to_string(w)).warps(w, 1).schedule(Idle{}); };
  auto p = ts::Task("P").warps(8, 1).reads(in).writes(ring).schedule(ProduceN<8>{}, in, ring);
  auto c = ts::Task("C").warps(9, 2).reads(ring).writes(out).schedule(ConsumeN<4>{}, ring, out);
  auto tm = ts::TaskManager(ts::tasks(idle(0), idle(1), idle(2), idle(3), idle(4), idle(5), idle(6), idle(7), p, c),
                            ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, quiet());
  auto ds = diags(tm);
  auto d = find(ds, "S6.12.warp-lane-task-barrier");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "C");
  EXPECT_EQ(d->step_text, "ring.wait()");
  EXPECT_EQ(d->expected, "task index < 8");
  EXPECT_EQ(d->actual, "task index 9");
  // Near miss: the same two tasks first.
  EXPECT_FALSE(has(diags(lanes_pair(lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)), 1, 2, ProduceN<8>{}, ConsumeN<4>{})),
                   "S6.12.warp-lane-task-barrier"));
}

// ---- the checker: one task op is `stride` stage ops ----

// Eight commits, and eight waits of C that are sixteen stage waits: C's fifth wait can
// never pass. Counting each task op as one stage (the model before warp lanes) calls
// this SAFE.
TEST(WarpLaneChecker, ConsumerLanesThatWaitForMoreStagesThanCommittedDeadlock) {
  auto tm = lanes_pair(lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)), 1, 2, ProduceN<8>{}, ConsumeN<8>{}, checked());
  std::ostringstream os;
  auto rep = tm.print_and_verify(os);
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  auto const& cex = *tm.last_counterexample();
  EXPECT_EQ(cex.kind, "deadlock");
  bool named = false;
  for (auto const& b : cex.blocked)
    named |= contains(b, "C at ring.wait() (step 0, loop, iteration 4; warp-lane stride 2: this op is 2 stage ops");
  EXPECT_TRUE(named) << rep.checker_text;
  // The emulator, where warp 1 of C starts at stage 1, hangs the same way.
  EXPECT_THROW(ts::cpu::replay_counterexample(tm, {.seed = 1, .detect_races = true, .require_verified = false}), ts::cpu::DeadlockError);
  EXPECT_THROW(ts::cpu::run(tm, {.seed = 3, .require_verified = false}), ts::cpu::DeadlockError);
}

TEST(WarpLaneChecker, NearMissConsumerLanesWithHalfTheIterationsAreSafe) {
  auto tm = lanes_pair(lanes_cfg(ts::InterleaveStride(1, 1, 2, 2)), 1, 2, ProduceN<8>{}, ConsumeN<4>{}, checked());
  std::ostringstream os;
  auto rep = tm.print_and_verify(os);
  EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << rep.checker_text;
  for (uint64_t seed = 1; seed <= 4; ++seed) EXPECT_NO_THROW(ts::cpu::run(tm, {.seed = seed, .detect_races = true}));
}

// P's four acquire/commit pairs are eight stages; C waits for four of them.
TEST(WarpLaneChecker, ProducerLanesCommitTwoStagesPerOp) {
  auto tm = lanes_pair(lanes_cfg(ts::InterleaveStride(2, 2, 1, 1)), 2, 1, ProduceN<4>{}, ConsumeN<4>{}, checked());
  std::ostringstream os;
  auto rep = tm.print_and_verify(os);
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  auto const& cex = *tm.last_counterexample();
  EXPECT_EQ(cex.kind, "unbalanced");
  EXPECT_TRUE(contains(cex.detail, "ring: 4 commit(s) never waited by C")) << cex.detail;
  // Near miss: C waits for all eight.
  auto ok = lanes_pair(lanes_cfg(ts::InterleaveStride(2, 2, 1, 1)), 2, 1, ProduceN<4>{}, ConsumeN<8>{}, checked());
  EXPECT_EQ(ok.print_and_verify(os).verdict, ts::Verdict::Safe);
  for (uint64_t seed = 1; seed <= 4; ++seed) EXPECT_NO_THROW(ts::cpu::run(ok, {.seed = seed, .detect_races = true}));
}

// Producer lanes on a 2-stage ring: one acquire of P is both stages at once (warp 0
// stage 0, warp 1 stage 1), and P converges after it, so it passes only when C gave both
// back. C releases each stage only after waiting for the next: it holds stage 1 while
// waiting for stage 0's refill, which needs stage 1 too. A deadlock, which counting P's
// acquire as one stage (the model before warp lanes) misses.
TEST(WarpLaneChecker, LaneAcquireNeedsEveryLaneStageFree) {
  auto tm = lanes_pair(lanes_cfg(ts::InterleaveStride(2, 2, 1, 1), 2), 2, 1, ProduceN<4>{}, ReleaseAfterNextWait{}, checked());
  std::ostringstream os;
  auto rep = tm.print_and_verify(os);
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  auto const& cex = *tm.last_counterexample();
  EXPECT_EQ(cex.kind, "deadlock");
  bool named = false;
  for (auto const& b : cex.blocked) named |= contains(b, "P at ring.acquire() (step 0, loop, iteration 1; warp-lane stride 2");
  EXPECT_TRUE(named) << rep.checker_text;
  EXPECT_THROW(ts::cpu::replay_counterexample(tm, {.seed = 1, .require_verified = false}), ts::cpu::DeadlockError);
  // Near miss: C gives both stages back before it waits again.
  auto ok = lanes_pair(lanes_cfg(ts::InterleaveStride(2, 2, 1, 1), 2), 2, 1, ProduceN<4>{}, TwoThenRelease{}, checked());
  EXPECT_EQ(ok.print_and_verify(os).verdict, ts::Verdict::Safe);
  for (uint64_t seed = 1; seed <= 4; ++seed) EXPECT_NO_THROW(ts::cpu::run(ok, {.seed = seed, .detect_races = true}));
}

// ---- the example (16) and the printout ----

TEST(WarpLaneExample, ProvedForEveryLengthAndCorrectOnTheEmulator) {
  for (int pairs : {1, 3}) {
    examples::patterns::PatternBuffers b(4096 + 17);
    ts::Options o;
    o.verbose = false;
    auto tm = examples::patterns::make_warp_lane_consumer(b, o, pairs);
    std::ostringstream os;
    auto rep = tm.print_and_verify(os);
    EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << rep.checker_text;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::fill(b.dst.begin(), b.dst.end(), -1);
      ts::cpu::run(tm, {.grid_blocks = examples::patterns::warp_lane_tiles(b.n(), pairs), .resident_blocks = 3,
                        .seed = seed, .detect_races = true});
      EXPECT_TRUE(b.matches()) << "pairs " << pairs << " seed " << seed;
    }
  }
}

// The executing side drops the lane start and the per-op lane convergence of a side whose
// static config has no interleave stride above 1 (runtime/pipeline/params.hpp,
// may_have_lanes): a ring's counters then never depend on a warp's lane, so the GPU keeps
// them in uniform registers. That is right only while the layout never gives such a side a
// lane mode: checked here on a ring with a strided consumer side and a stride-1 producer
// side (if lane_mode ever gave stride 1 a lane mode, the producer side would fail).
TEST(WarpLaneExample, CompileTimeLanePredicateCoversTheLayoutsLanes) {
  using Ring = examples::patterns::WarpLaneRing;
  static_assert(!ts::exec::may_have_lanes<Ring>(true), "the ring's producer side has stride 1");
  static_assert(ts::exec::may_have_lanes<Ring>(false), "the ring's consumer side has the lane stride");
  static_assert(!ts::exec::may_have_lanes<examples::patterns::PairSource>(true) ||
                    !ts::exec::HasStaticPipeline<examples::patterns::PairSource>,
                "a resource without a static config keeps the layout's answer");
  examples::patterns::PatternBuffers b(4096);
  ts::Options o;
  o.verbose = false;
  auto tm = examples::patterns::make_warp_lane_consumer(b, o, 2);
  ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
  auto const& L = tm.layout();
  int ring = tm.model().find_resource("ring");
  ASSERT_GE(ring, 0);
  ts::PipelineRuntime const& p = L.pipes[size_t(ring)];
  EXPECT_TRUE(p.consumer_warp_lanes);  // the example's lanes are really there ...
  EXPECT_FALSE(p.producer_warp_lanes || p.producer_lanes);  // ... and only where the type allows them
  // The mask the dispatch hands the executing context: ring (argument 0 of Lanes) may have
  // consumer lanes only; the sink (argument 1) has no static config, so both bits stay set.
  constexpr uint64_t m = ts::exec::lane_sides_mask<Ring, examples::patterns::WarpLaneSink>();
  EXPECT_EQ(m & 0xF, uint64_t{0b1110});
}

TEST(WarpLaneExample, ThreeConsumerWarpsAreRejected) {
  examples::patterns::PatternBuffers b(256);
  ts::Options o;
  o.verbose = false;
  auto tm = examples::patterns::make_warp_lane_consumer(b, o, 2, 3);
  std::ostringstream os;
  try {
    tm.print_and_verify(os);
    FAIL() << "expected S6.12.warp-lane-warps";
  } catch (ts::VerificationError const& e) {
    EXPECT_TRUE(contains(e.what(), "S6.12.warp-lane-warps")) << e.what();
    EXPECT_TRUE(contains(e.what(), "Expected 2 warps, got 3 warps")) << e.what();
  }
}

TEST(WarpLanePrintout, ShowsTheStagesOfEachWarp) {
  examples::patterns::PatternBuffers b(256);
  ts::Options o;
  o.verbose = true;
  auto tm = examples::patterns::make_warp_lane_consumer(b, o);
  std::ostringstream os;
  tm.print_and_verify(os);
  EXPECT_TRUE(contains(os.str(), "Warp lanes (S6.12)")) << os.str();
  EXPECT_TRUE(contains(os.str(), "ring wait/release in Lanes[1:3) stride 2: warp 1 -> stages 0, 2; warp 2 -> stages 1, 3"))
      << os.str();
  // The table steps a lane op as one stage op per warp, as the checker counts it: the
  // balanced ring shows no unconsumed commit and no unreleased acquire.
  EXPECT_FALSE(contains(os.str(), "not consumed")) << os.str();
  EXPECT_FALSE(contains(os.str(), "not released")) << os.str();
  // The checker's step list marks the lane ops it counts as two stage ops.
  EXPECT_TRUE(contains(os.str(), "[0] ring.wait() loop (warp-lane: 2 stages, one per warp);")) << os.str();
  EXPECT_TRUE(contains(os.str(), "[3] ring.release() loop (warp-lane: 2 stages, one per warp);")) << os.str();
}
