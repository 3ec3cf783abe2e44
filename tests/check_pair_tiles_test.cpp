// Two library extensions the ping-pong GEMM's "pair of tiles per work-queue tile" needs
// (examples/gemm/gemm_pingpong.hpp):
//  * inside a work_tile_loop a schedule may run domain loops one after another when their
//    bounds are provably equal (capture; SPEC S4.2's one loop otherwise);
//  * a shared-key condition outside the domain loop is one outcome per tile, whether a
//    task asks before, between or after its loops (checker).
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

struct Flags : ts::MemoryResource {
  TS_HD bool more(ts::ConsumerStage const&) const { return true; }
};

// Per tile: N stages, then (when the tile's flag holds) N more, in a second loop.
struct TwoHalvesProducer {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F& f, X& x, Q& q) const {
    s.work_tile_loop(q, [&] {
      s.domain_loop(0, N(), 1, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      auto c = ts::work<&Flags::more>(f);
      s.when_true(c, ts::Key{"second"}, [&] {
        s.domain_loop(0, N(), 1, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      });
      ts::queue_epilogue(q);
    });
  }
};
// The matching consumer of TwoHalvesProducer: its condition sits *before* its loops.
struct HalvesConsumer {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F& f, X& x, Q& q) const {
    s.work_tile_loop(q, [&] {
      auto c = ts::work<&Flags::more>(f);
      s.when_true(c, ts::Key{"second"}, [&] { x.wait(); ts::work<&Buf::take>(x); x.release(); });
      s.domain_loop(0, N(), 1, [&] { x.wait(); ts::work<&Buf::take>(x); x.release(); });
      ts::queue_epilogue(q);
    });
  }
};

template <class P, class C>
ts::Model halves(ts::Options o = opts()) {
  auto f = ts::resource("flags", Flags{});
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto q = ts::resource("tiles", Queue{});
  auto p = ts::Task("P").warps(0, 1).reads(f, q).writes(x).schedule(P{}, f, x, q);
  auto c = ts::Task("C").warps(1, 1).reads(f, x, q).schedule(C{}, f, x, q);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {f}}}, o).model();
}

// Two loops of one bound in a tile: captured, both run the task's one length. The
// consumer takes (flag ? 1 : 0) + N stages per tile where the producer commits
// N + (flag ? N : 0): they agree at N = 1 only, and the checker finds N = 2.
TEST(CheckPairTiles, SequentialEqualLoopsInATileAreCapturedAndRunTheOneLength) {
  auto r = check(halves<TwoHalvesProducer, HalvesConsumer>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.report.find("domain length 2"), std::string::npos) << r.report;
}

// The condition asked between the producer's loops and before the consumer's is one
// value per tile: with the same key the optional stages match (N = 1, the only length
// at which the stage counts agree, keeps the proof to the key correlation).
TEST(CheckPairTiles, AConditionOutsideTheLoopIsOneValuePerTile) {
  auto o = opts({1});
  auto r = check(halves<TwoHalvesProducer, HalvesConsumer>(o));
  EXPECT_NE(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.report.find("for every number of work tiles"), std::string::npos) << r.report;
}

struct UnequalLoops {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F&, X& x, Q& q) const {
    s.work_tile_loop(q, [&] {
      s.domain_loop(0, N(), 1, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      s.domain_loop(0, ts::runtime(3, "m"), 1, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      ts::queue_epilogue(q);
    });
  }
};
TEST(CheckPairTiles, SequentialLoopsOfOtherBoundsAreRefused) {
  try {
    halves<UnequalLoops, HalvesConsumer>();
    FAIL() << "expected capture.second-domain-loop";
  } catch (ts::CaptureError const& e) {
    EXPECT_EQ(e.diagnostic().check, "capture.second-domain-loop");
    EXPECT_EQ(e.diagnostic().task, "P");
  }
}

// One automatic key asked in both loops of a tile: the first loop fills a stage when the
// method says yes, the second when it says no. Balanced only if both answers agree, which
// nothing promises (the loops cover different data). The consumer shares the key, so an
// outcome per (tile, iteration) alone made the producer's second loop reuse the first's
// answer and the schedule looked balanced (SAFE for every tile count, stop 38's open gap).
template <class X>
TS_HD void fill_one(X& x) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); }
template <class X>
TS_HD void take_one(X& x) { x.wait(); ts::work<&Buf::take>(x); x.release(); }
// The first loop fills (kFill) or takes a stage when the method says yes, the second when
// it says no.
template <bool kFill>
struct YesThenNoInTwoLoops {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F& f, X& x, Q& q) const {
    auto one = [&] {
      if constexpr (kFill) fill_one(x);
      else take_one(x);
    };
    s.work_tile_loop(q, [&] {
      s.domain_loop(0, N(), 1, [&] { s.when_true(ts::work<&Flags::more>(f), one); });
      s.domain_loop(0, N(), 1, [&] { s.when_false(ts::work<&Flags::more>(f), one); });
      ts::queue_epilogue(q);
    });
  }
};
using OppositeAnswersInTwoLoops = YesThenNoInTwoLoops<true>;
// Takes one stage per iteration whatever the answer (asking the same automatic key).
struct OnePerIteration {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F& f, X& x, Q& q) const {
    s.work_tile_loop(q, [&] {
      s.domain_loop(0, N(), 1, [&] {
        auto c = ts::work<&Flags::more>(f);
        s.when_true(c, [&] { take_one(x); });
        s.when_false(c, [&] { take_one(x); });
      });
      ts::queue_epilogue(q);
    });
  }
};
TEST(CheckPairTiles, AKeyAskedInTwoLoopsOfATileIsTwoOutcomes) {
  auto r = check(halves<OppositeAnswersInTwoLoops, OnePerIteration>(opts({1})));
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  // Both answers yes: two stages, one taken; both no: none, the consumer waits forever.
  EXPECT_TRUE(r.failure->kind == "deadlock" || r.failure->kind == "unbalanced") << r.report;
  // Every length: the parametric proof must not find it SAFE either.
  auto all = check(halves<OppositeAnswersInTwoLoops, OnePerIteration>());
  EXPECT_EQ(all.verdict, ts::Verdict::Unsafe) << all.report;
}
// The near miss: a consumer with the same two loops, taking under the same answers. The
// second loops of both tasks still share one outcome per (tile, iteration), so the
// schedule is balanced whatever each loop's method answers. (Where both loops skip, the
// tasks never meet, so neither the parametric nor the every-tile-count proof applies:
// concrete lengths over two tiles.)
using SameAnswersInTwoLoops = YesThenNoInTwoLoops<false>;
TEST(CheckPairTiles, TheSameLoopOfTwoTasksStillSharesItsKey) {
  // At two iterations a task runs its first loop's iteration 1 before the second loop's
  // iteration 0: positions must order the loops, or the second loop's outcome for
  // iteration 0 is dropped as passed and asked anew (UNSAFE, a deadlock that cannot be).
  auto r = check(halves<OppositeAnswersInTwoLoops, SameAnswersInTwoLoops>(opts({1, 2})));
  EXPECT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
}

// Positions keep a tile's loop progress in 8 bits: more than 127 loops in a tile are
// refused by name before any state is explored, never wrapped around.
struct ManyLoops {
  template <class S, class F, class X, class Q>
  TS_HD void operator()(S& s, F&, X& x, Q& q) const {
    s.work_tile_loop(q, [&] {
      for (int i = 0; i < 128; ++i)
        s.domain_loop(0, N(), 1, [&] { fill_one(x); });
      ts::queue_epilogue(q);
    });
  }
};
TEST(CheckPairTiles, MoreLoopsInATileThanPositionsHoldAreRefused) {
  try {
    (void)ts::check::run_exhaustive(halves<ManyLoops, HalvesConsumer>());
    FAIL() << "expected check.loops-per-tile";
  } catch (ts::ModelError const& e) {
    EXPECT_EQ(e.diagnostic().check, "check.loops-per-tile");
    EXPECT_EQ(e.diagnostic().task, "P");
    EXPECT_EQ(e.diagnostic().expected, "at most 127");
    std::printf("%s\n", e.diagnostic().format().c_str());
  }
}

}  // namespace
