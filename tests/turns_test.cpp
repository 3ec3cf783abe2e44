// Turn-taking consumers (docs/turns.md): two consumer tasks share one ring, each passing
// over the other's stages with ring.skip(n). Safe shapes, the hazards the checker must
// see (parity aliasing, a commit taken by both or by neither, a skip over held stages),
// the static rule S6.26 and the runs on the emulator.
#include <gtest/gtest.h>

#include <sstream>

#include "check_fixtures.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/runtime/cpu/run.hpp"
#include "ts/verify/static_checks.hpp"

namespace {
using namespace chk;

ts::PipelineConfig ring_of(int stages) {
  return ts::PipelineConfig::async_async({.num_stages = stages});
}

// Two commits per iteration: positions 2i (C0's) and 2i + 1 (C1's) in iteration turns.
struct TwoPerIteration {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      for (int k = 0; k < 2; ++k) { r.acquire(); ts::work<&Buf::put>(r); r.commit(); }
    });
  }
};
// kSkipFirst: skip the other's stage before taking one's own (C1), else after (C0).
template <bool kSkipFirst, int kSkip = 1>
struct IterationTurn {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      if (kSkipFirst) r.skip(kSkip);
      r.wait(); ts::work<&Buf::take>(r); r.release();
      if (!kSkipFirst) r.skip(kSkip);
    });
  }
};

template <class C0, class C1>
ts::Model turns(int stages, ts::Options o = opts()) {
  auto r = ts::resource("ring", Buf{}, ring_of(stages));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(TwoPerIteration{}, r);
  auto c0 = ts::Task("C0").warps(1, 1).reads(r).schedule(C0{}, r);
  auto c1 = ts::Task("C1").warps(2, 1).reads(r).schedule(C1{}, r);
  return ts::TaskManager(ts::tasks(p, c0, c1), ts::DependencyGraph{}, o).model();
}

TEST(Turns, IterationTurnsOnTwoStagesAreSafeForEveryLength) {
  for (bool red : {true, false}) {
    auto r = check(turns<IterationTurn<false>, IterationTurn<true>>(2), red);
    EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  }
}

// One stage: C1 skips to position 1, one full phase past the producer before its first
// commit: its wait is two phases ahead of the barrier and try_wait.parity passes at once.
TEST(Turns, SkipAheadByTheRingDepthIsParityAliasing) {
  for (bool red : {true, false}) {
    auto r = check(turns<IterationTurn<false>, IterationTurn<true>>(1), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "race");
    EXPECT_NE(r.failure->detail.find("parity aliasing: C1 runs ring.wait() (step 1, loop, iteration 0) waits on stage 0 "
                                     "of ring for phase 1 (commit 1) while the stage's full barrier has completed 0 "
                                     "phase(s) (0 commits so far): the wait is 2 phases ahead of the barrier"),
              std::string::npos)
        << r.failure->detail;
    EXPECT_NE(r.failure->detail.find("Expected phase reached = 1 or 2, got 0"), std::string::npos) << r.failure->detail;
  }
}

// C1 forgets its skip: both take position 0, and the second release frees a free stage
// (or the producer refills it under the other's read).
TEST(Turns, ACommitTakenByBothTurnTakersIsFlagged) {
  for (bool red : {true, false}) {
    auto r = check(turns<IterationTurn<false>, IterationTurn<false, 0>>(2), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    bool reuse = r.failure->detail.find("stage reuse race: Producer runs ring.acquire()") != std::string::npos &&
                 r.failure->detail.find("while C0 still holds an earlier commit of that stage") != std::string::npos;
    bool twice = r.failure->detail.find("release of a free stage: C") != std::string::npos;
    bool phase = r.failure->detail.find("the stage was refilled past that phase") != std::string::npos;
    EXPECT_TRUE(reuse || twice || phase) << r.failure->detail;
  }
}

// Both skip first: position 0 is nobody's; its stage is never given back.
TEST(Turns, ACommitTakenByNeitherIsADeadlock) {
  for (bool red : {true, false}) {
    auto r = check(turns<IterationTurn<true>, IterationTurn<true>>(2), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    // Both then take position 1: the first failure BFS meets is its second release, or
    // the producer stuck on stage 0, or stage 0 never given back.
    EXPECT_TRUE(r.failure->kind == "deadlock" || r.failure->kind == "unbalanced") << r.report;
    if (r.failure->kind == "unbalanced")
      EXPECT_TRUE(r.failure->detail.find("committed but never released: no turn-taker (C0, C1)") != std::string::npos ||
                  r.failure->detail.find("release of a free stage: C") != std::string::npos)
          << r.failure->detail;
    else
      EXPECT_NE(r.report.find("Producer at ring.acquire()"), std::string::npos) << r.report;
  }
}

// A skip between a wait and its release: S6.26.skip-while-holding, and the checker.
struct SkipWhileHolding {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) { r.wait(); r.skip(1); ts::work<&Buf::take>(r); r.release(); });
  }
};
TEST(Turns, SkipWhileHoldingIsRejected) {
  auto m = turns<SkipWhileHolding, IterationTurn<true>>(2);
  auto ds = ts::verify::run_static_checks(m);
  bool found = false;
  for (auto const& d : ds)
    if (d.check == "S6.26.skip-while-holding") {
      found = true;
      EXPECT_EQ(d.task, "C0");
      EXPECT_EQ(d.expected, "ring.release() before ring.skip()");
      EXPECT_EQ(d.actual, "an open wait (step 0)");
    }
  EXPECT_TRUE(found);
  auto r = check(m);
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.failure->detail.find("skip over held stages: C0 runs ring.skip() (step 1, loop, iteration 0)"),
            std::string::npos)
      << r.failure->detail;
}

// Turns by loop: C0 takes its whole loop of N stages, then skips N; C1 the other way.
template <bool kOrder>
struct TurnFirst {
  template <class S, class R, class O>
  TS_HD void operator()(S& s, R& r, O& order) const {
    if (kOrder) order.acquire();
    s.domain_loop(0, N(), 1, [&](auto&) { r.wait(); ts::work<&Buf::take>(r); r.release(); });
    if (kOrder) order.commit();
    r.skip(N());
  }
};
template <bool kOrder, bool kRightCount = true>
struct TurnSecond {
  template <class S, class R, class O>
  TS_HD void operator()(S& s, R& r, O& order) const {
    if constexpr (kRightCount) r.skip(N());
    else r.skip(ts::runtime(4, "m"));
    if (kOrder) order.wait();
    s.domain_loop(0, N(), 1, [&](auto&) { r.wait(); ts::work<&Buf::take>(r); r.release(); });
    if (kOrder) order.release();
  }
};
struct Produce2N {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      for (int k = 0; k < 2; ++k) { r.acquire(); ts::work<&Buf::put>(r); r.commit(); }
    });
  }
};
ts::PipelineConfig warp_ring(int stages) {
  return ts::PipelineConfig::async_async(
      {.num_stages = stages, .producer_group = {ts::Agent::Thread, 32}, .consumer_group = {ts::Agent::Thread, 32}});
}
template <bool kOrder, bool kRightCount = true>
auto loop_turns(ts::Options o = opts()) {
  auto r = ts::resource("ring", Buf{}, warp_ring(2));
  auto order = ts::resource("order", Buf{}, warp_ring(1));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(Produce2N{}, r);
  auto c0 = ts::Task("C0").warps(1, 1).reads(r).writes(order).schedule(TurnFirst<kOrder>{}, r, order);
  auto c1 = kOrder ? ts::Task("C1").warps(2, 1).reads(r).reads(order).schedule(TurnSecond<kOrder, kRightCount>{}, r, order)
                   : ts::Task("C1").warps(2, 1).reads(r).schedule(TurnSecond<kOrder, kRightCount>{}, r, order);
  auto c0b = kOrder ? c0 : ts::Task("C0").warps(1, 1).reads(r).schedule(TurnFirst<kOrder>{}, r, order);
  if (!kOrder) return ts::TaskManager(ts::tasks(p, c0b, c1), ts::DependencyGraph{{r, {}}}, o);
  return ts::TaskManager(ts::tasks(p, c0b, c1), ts::DependencyGraph{{r, {}}, {order, {r}}}, o);
}

// Without an order between the turns, C1 skips N = 2 stages ahead on a 2-stage ring and
// its first wait passes at once on parity: the hazard CUTLASS's order barrier prevents.
TEST(Turns, LoopTurnsWithoutAnOrderBarrierAliasParity) {
  for (bool red : {true, false}) {
    auto r = check(loop_turns<false>().model(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_NE(r.failure->detail.find("parity aliasing: C1 runs ring.wait() (step 1, loop, iteration 0) waits on stage 0 "
                                     "of ring for phase 1 (commit 2)"),
              std::string::npos)
        << r.failure->detail;
    EXPECT_NE(r.report.find("fails") == std::string::npos ? r.report.find("k = 1..6") : 0, std::string::npos) << r.report;
  }
}

TEST(Turns, LoopTurnsWithAnOrderBarrierAreSafe) {
  for (bool red : {true, false}) {
    auto r = check(loop_turns<true>().model(), red);
    EXPECT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
    EXPECT_NE(r.report.find("the parametric proof does not apply to a skip by a runtime length"), std::string::npos)
        << r.report;
    EXPECT_NE(r.report.find("k = 1..6"), std::string::npos) << r.report;
  }
}

TEST(Turns, SkipCountOfAnotherLengthIsRejected) {
  auto ds = ts::verify::run_static_checks(loop_turns<true, false>().model());
  bool found = false;
  for (auto const& d : ds)
    if (d.check == "S6.26.skip-count") {
      found = true;
      EXPECT_EQ(d.task, "C1");
      EXPECT_EQ(d.expected, "the trip count of 'C0's domain loop (n)");
      EXPECT_EQ(d.actual, "m (form m)");
    }
  EXPECT_TRUE(found);
  for (auto const& d : ts::verify::run_static_checks(loop_turns<true, true>().model()))
    EXPECT_NE(d.check.rfind("S6.26", 0), 0u) << d.message;  // near miss: the right count passes
}

// One consumer that skips: not a turn ring.
struct LoneSkipper {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) { r.wait(); ts::work<&Buf::take>(r); r.release(); r.skip(1); });
  }
};
TEST(Turns, OneTurnTakerIsRejected) {
  auto r = ts::resource("ring", Buf{}, ring_of(2));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(TwoPerIteration{}, r);
  auto c = ts::Task("C0").warps(1, 1).reads(r).schedule(LoneSkipper{}, r);
  auto ds = ts::verify::run_static_checks(ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model());
  bool found = false;
  for (auto const& d : ds)
    if (d.check == "S6.26.turn-ring-shape" && d.expected == ">= 2 tasks waiting on ring") {
      found = true;
      EXPECT_EQ(d.actual, "1 (C0)");
    }
  EXPECT_TRUE(found);
}

// The emulator: the safe shape runs under several seeds, the printout shows the skips.
TEST(Turns, SafeTurnsRunOnTheEmulatorAndPrint) {
  auto tm = loop_turns<true>(ts::Options{.verbose = true});
  std::ostringstream out;
  tm.print_and_verify(out);
  for (uint64_t seed : {1u, 2u, 3u, 4u}) {
    ts::cpu::RunOptions ro;
    ro.seed = seed;
    ro.detect_races = true;
    EXPECT_NO_THROW(ts::cpu::run(tm, ro)) << seed;
  }
  EXPECT_NE(out.str().find("ring ConsumerSkip[0]"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("not consumed"), std::string::npos) << out.str();
}

// The parity-aliasing counterexample replays on the emulator, whose mbarriers pass a
// wait on parity as the hardware does: the run does not finish cleanly.
TEST(Turns, ParityAliasingReplaysOnTheEmulator) {
  auto o = opts();
  o.throw_on_unsafe = false;
  auto tm = loop_turns<false>(o);
  std::ostringstream out;
  tm.print_and_verify(out);
  ASSERT_FALSE(tm.last_counterexample_json().empty());
  EXPECT_ANY_THROW(ts::cpu::replay_counterexample(tm, {.require_verified = false}));
}

}  // namespace
