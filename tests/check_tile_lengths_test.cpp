// Domain lengths across work tiles (docs/checker.md, "Every tile count"): the parametric
// proof gives each tile's loop a length of its own. That is every real run for a bound
// that may differ per tile (a per-tile provider), and a superset for a kernel-wide one
// (ts::runtime), whose tiles all run one length. A failure the proof finds only with
// lengths that differ between tiles is real for the first and not for the second.
//
// The schedule (found by Emulator.CounterexamplesReplayToTheSameFailure): T1 releases the
// ring stage and then writes the scratch buffer that aliases it. T0 can rewrite the stage
// in its next tile before that write only if its next tile starts with the ring, i.e. has
// one iteration (last == first), while this tile had two or more (T0's first iteration
// waits for T1's m2 fill, which T1 issues only after the scratch write in the same
// iteration when the tile has one). Equal lengths never race; a long tile then a short
// one does.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace tile_lengths_test {  // named, so the provider prints the same with every compiler
struct Blocks : ts::MemoryResource {
  TS_HD long long blocks(ts::WorkTile const& t) const { return 2 - t.tile_idx % 2; }
};
}  // namespace tile_lengths_test

namespace {
using namespace chk;
using tile_lengths_test::Blocks;

template <bool kPerTile, class B>
TS_HD auto bound(B& b) {
  if constexpr (kPerTile) {
    return ts::at_least(1, ts::per_tile<&Blocks::blocks>(b));
  } else {
    (void)b;
    return N();
  }
}

template <bool kPerTile>
struct RingFirstWaitsLater {
  template <class S, class Q, class B, class R, class M>
  TS_HD void operator()(S& s, Q& q, B& b, R& r, M& m) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, bound<kPerTile>(b), 1, [&](auto& d) {
        d.last_iter([&] { r.acquire(); ts::work<&Ring::put>(r); r.commit(); });
        d.first_iter([&] { m.wait(); ts::work<&Buf::take>(m); m.release(); });
      });
      q.get_and_advance_work_tile();
    });
  }
};
template <bool kPerTile>
struct ScratchAfterRelease {
  template <class S, class Q, class B, class R, class X, class M>
  TS_HD void operator()(S& s, Q& q, B& b, R& r, X& x, M& m) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, bound<kPerTile>(b), 1, [&](auto& d) {
        d.last_iter([&] { r.wait(); ts::work<&Ring::take>(r); r.release(); ts::work<&Scratch::scribble>(x); });
        d.first_iter([&] { m.acquire(); ts::work<&Buf::put>(m); m.commit(); });
      });
      q.get_and_advance_work_tile();
    });
  }
};

template <bool kPerTile>
ts::Model long_tile_then_short_tile() {
  auto q = ts::resource("queue", Queue{{2, 0}});
  auto b = ts::resource("blocks", Blocks{});
  auto r = ts::resource("ring", Ring{}, async1());
  auto x = ts::resource("scratch", Scratch{});
  auto m = ts::resource("m", Buf{}, async1());
  auto t0 = ts::Task("T0").warps(0, 1).reads(q, b, m).writes(r).schedule(RingFirstWaitsLater<kPerTile>{}, q, b, r, m);
  auto t1 = ts::Task("T1")
                .warps(1, 1)
                .reads(q, b, r)
                .writes(x, m)
                .schedule(ScratchAfterRelease<kPerTile>{}, q, b, r, x, m);
  return ts::TaskManager(ts::tasks(t0, t1), ts::DependencyGraph{{r, {q, b, m}}, {x, {r}}, {m, {q, b}}}, opts())
      .model();
}

// Bug (CI of stop 39, seed 7346186456070229060): the proof's failure, which needs a long
// tile and then a short one, was reported as UNSAFE for a ts::runtime bound, with the
// parametric run as the counterexample (domain length -1); no concrete length fails, and
// the emulator's replay of it diverged. Expected: the verdict of one length in every
// tile, SAFE for the lengths tried, saying why.
TEST(CheckTileLengths, AFailureThatNeedsTwoLengthsIsNotOneOfAKernelWideBound) {
  auto m = long_tile_then_short_tile<false>();
  for (bool reduction : {true, false}) {
    auto r = check(m, reduction);
    ASSERT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
    EXPECT_FALSE(r.failure) << r.report;
    EXPECT_NE(r.report.find("its failure does not show with one length in every tile"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("k = 1..256"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("Summary (k=1..256, 256 runs"), std::string::npos) << r.report;
  }
  for (long long k : {1, 2, 3, 5}) {
    auto one = m;
    one.options.check_lengths = {k};
    EXPECT_EQ(ts::check::run_exhaustive(one).verdict, ts::Verdict::Safe) << "k = " << k;
  }
}

// The near miss: a per-tile provider can give two tiles different lengths, so the same
// failure is a real run and stays UNSAFE (the parametric run is the counterexample: no
// single length shows it).
TEST(CheckTileLengths, AFailureThatNeedsTwoLengthsIsRealForAPerTileBound) {
  auto r = check(long_tile_then_short_tile<true>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->kind, "race") << r.report;
  EXPECT_NE(r.report.find("scratch written by T1"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("ring written by T0"), std::string::npos) << r.report;
}

// Concrete lengths give every tile the same length; for a per-tile bound that misses the
// failure above, so the scope must say what the SAFE does not cover.
TEST(CheckTileLengths, ConcreteLengthsOfAPerTileBoundSayWhatTheyLeaveOut) {
  auto m = long_tile_then_short_tile<true>();
  m.options.check_lengths = {1, 2, 3};
  auto r = ts::check::run_exhaustive(m);
  EXPECT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
  EXPECT_NE(r.report.find("runs whose tiles differ in length are not covered"), std::string::npos) << r.report;
  m = long_tile_then_short_tile<false>();
  m.options.check_lengths = {1, 2, 3};
  r = ts::check::run_exhaustive(m);
  EXPECT_EQ(r.report.find("differ in length"), std::string::npos) << r.report;
}

}  // namespace
