// Programmatic Dependent Launch order (S12): no path may launch before a wait.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

template <bool kFixed>
struct Straight {
  template <class S, class W, class L, class X>
  TS_HD void operator()(S& s, W& w, L& l, X& x) const {
    if constexpr (kFixed) w.wait();
    s.domain_loop(0, N(), 1, [&](auto&) { ts::work<&Buf::put>(x); });
    l.commit();
    if constexpr (!kFixed) w.wait();
  }
};
template <bool kFixed>
ts::Model straight(bool assume = false) {
  auto w = ts::resource("pdl_wait", PdlIn{});
  auto l = ts::resource("pdl_launch", PdlOut{});
  auto x = ts::resource("out", Buf{});
  auto t = ts::Task("Main").warps(0, 4).reads(w).writes(l, x).schedule(Straight<kFixed>{}, w, l, x);
  auto o = opts();
  o.assume_pdl_wait_completed = assume;
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{x, {w}}, {l, {x}}}, o).model();
}

TEST(CheckPdl, LaunchBeforeWait) {
  auto r = check(straight<false>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_EQ(r.failure->kind, "pdl");
  EXPECT_NE(r.report.find("Main runs pdl_launch.commit()"), std::string::npos) << r.report;
  EXPECT_NE(r.failure_json.find("\"text\": \"pdl_launch.commit()\", \"section\": \"tail\""), std::string::npos)
      << r.failure_json;
}

TEST(CheckPdl, WaitThenLaunchIsSafe) {
  auto r = check(straight<true>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

TEST(CheckPdl, AssumedWaitIsSafe) {
  auto r = check(straight<false>(true));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// The wait sits in the skippable region: on a skipped tile the launch runs first.
template <bool kFixed>
struct Tiled {
  template <class S, class Q, class W, class L, class X>
  TS_HD void operator()(S& s, Q& q, W& w, L& l, X& x) const {
    if constexpr (kFixed) w.wait();
    s.work_tile_loop(q, ts::skip_if<&Queue::empty_tile>, [&](auto& wt) {
      wt.skippable([&] {
        if constexpr (!kFixed) w.wait();
        ts::work<&Buf::put>(x);
      });
      q.get_and_advance_work_tile();
    });
    l.commit();
  }
};
template <bool kFixed>
ts::Model tiled() {
  auto q = ts::resource("queue", Queue{{2, 0}});
  auto w = ts::resource("pdl_wait", PdlIn{});
  auto l = ts::resource("pdl_launch", PdlOut{});
  auto x = ts::resource("out", Buf{});
  auto t = ts::Task("Main").warps(0, 4).reads(q, w).writes(l, x).schedule(Tiled<kFixed>{}, q, w, l, x);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{x, {w, q}}, {l, {x}}}, opts()).model();
}

// Every tile count: the shortest failing run is a CTA with no tile at all (a skipped
// tile runs only local steps here, so it is a tile fewer).
TEST(CheckPdl, LaunchBeforeWaitWithNoTile) {
  for (bool red : {true, false}) {
    auto r = check(tiled<false>(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "pdl");
    EXPECT_EQ(r.failure->tiles, 0);
    EXPECT_NE(r.failure_json.find("\"tiles\": 0"), std::string::npos);
    EXPECT_NE(r.report.find("Shortest failing run (pdl), static loop lengths, 0 work tiles"), std::string::npos) << r.report;
  }
}

// A fixed tile count finds it through a skipped tile.
TEST(CheckPdl, LaunchBeforeWaitThroughSkippedTile) {
  for (bool red : {true, false}) {
    auto m = tiled<false>();
    m.options.check_every_tile_count = false;
    auto r = check(m, red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "pdl");
    EXPECT_TRUE(r.failure->skipped_tiles);
    EXPECT_NE(r.failure_json.find("\"skipped_tiles\": true"), std::string::npos);
  }
}

TEST(CheckPdl, WaitBeforeTileLoopIsSafe) {
  auto r = check(tiled<true>());
  EXPECT_TRUE(r.verdict == ts::Verdict::Safe || r.verdict == ts::Verdict::SafeAllK) << r.report;
}

}  // namespace
