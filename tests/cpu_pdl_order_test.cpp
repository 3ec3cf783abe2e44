// PDL order on the emulator (SPEC S12): a kernel with a PdlWait resource that triggers
// its dependents before waiting is stopped with PdlOrderError naming the task and the
// step; the checker's counterexample for the same schedule replays to the same error,
// including the path through a skipped tile.
#include "cpu_test_util.hpp"
// after gtest: the fixtures use its macros
#include "check_fixtures.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"

namespace {

using chk::Buf;
using chk::PdlIn;
using chk::PdlOut;

template <bool kWaitFirst>
struct Straight {
  template <class S, class W, class L, class X>
  void operator()(S& s, W& w, L& l, X& x) const {
    if constexpr (kWaitFirst) w.wait();
    s.domain_loop(0, 4, 1, [&] { ts::work<&Buf::put>(x); });
    l.commit();
    if constexpr (!kWaitFirst) w.wait();
  }
};

template <bool kWaitFirst>
auto straight(bool assume = false) {
  auto w = ts::resource("pdl_wait", PdlIn{});
  auto l = ts::resource("pdl_launch", PdlOut{});
  auto x = ts::resource("out", Buf{});
  auto t = ts::Task("Main").warps(0, 1).reads(w).writes(l, x).schedule(Straight<kWaitFirst>{}, w, l, x);
  auto o = cpu_test::warnings_only();
  o.assume_pdl_wait_completed = assume;
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{x, {w}}, {l, {x}}}, o);
}

TEST(CpuPdlOrder, LaunchBeforeWaitIsReportedWithTaskAndStep) {
  auto tm = straight<false>();
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  ASSERT_TRUE(tm.last_counterexample());
  EXPECT_EQ(tm.last_counterexample()->kind, "pdl");
  for (int replayed = 0; replayed < 2; ++replayed) {
    try {
      if (replayed) ts::cpu::replay_counterexample(tm, {.seed = 3});
      else ts::cpu::run(tm, {.grid_blocks = 2, .seed = 3});
      ADD_FAILURE() << "expected PdlOrderError";
    } catch (ts::cpu::PdlOrderError const& e) {
      std::string what = e.what();
      EXPECT_NE(what.find("task 'Main'"), std::string::npos) << what;
      EXPECT_NE(what.find("pdl_launch.commit()"), std::string::npos) << what;
    }
  }
}

TEST(CpuPdlOrder, NearMissWaitFirstOrAssumedWaitRuns) {
  auto tm = straight<true>();
  EXPECT_EQ(tm.print_and_verify().verdict, ts::Verdict::Safe);
  EXPECT_NO_THROW(ts::cpu::run(tm, {.grid_blocks = 2, .seed = 3}));
  auto assumed = straight<false>(/*assume=*/true);
  EXPECT_EQ(assumed.print_and_verify().verdict, ts::Verdict::Safe);
  EXPECT_NO_THROW(ts::cpu::run(assumed, {.grid_blocks = 2, .seed = 3}));
}

// The wait sits in the skippable region: only a CTA whose tile is skipped launches first.
struct SkipAll : ts::WorkQueue {
  TS_HD bool skipped(ts::WorkTile const& t) const { return t.tile_idx % 2 == 1; }
};
struct Tiled {
  template <class S, class Q, class W, class L, class X>
  void operator()(S& s, Q& q, W& w, L& l, X& x) const {
    s.work_tile_loop(q, ts::skip_if<&SkipAll::skipped>, [&](auto& wt) {
      wt.skippable([&] {
        w.wait();
        ts::work<&Buf::put>(x);
      });
      q.get_and_advance_work_tile();
    });
    l.commit();
  }
};

TEST(CpuPdlOrder, SkippedTilePathIsCaught) {
  SkipAll q;
  q.num_tiles = 2;
  auto qr = ts::resource("queue", q);
  auto w = ts::resource("pdl_wait", PdlIn{});
  auto l = ts::resource("pdl_launch", PdlOut{});
  auto x = ts::resource("out", Buf{});
  auto t = ts::Task("Main").warps(0, 1).reads(qr, w).writes(l, x).schedule(Tiled{}, qr, w, l, x);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{x, {w, qr}}, {l, {x}}}, cpu_test::warnings_only());
  auto rep = tm.print_and_verify();
  ASSERT_EQ(rep.verdict, ts::Verdict::Unsafe) << rep.checker_text;
  // The checker's shortest run: a CTA with no tile (or, over a fixed tile count, a
  // skipped one) launches without waiting.
  EXPECT_TRUE(tm.last_counterexample()->skipped_tiles || tm.last_counterexample()->tiles == 0);
  // Two CTAs, one tile each: CTA 1's tile is skipped, so CTA 1 launches without waiting.
  try {
    ts::cpu::run(tm, {.grid_blocks = 2, .seed = 1});
    ADD_FAILURE() << "expected PdlOrderError";
  } catch (ts::cpu::PdlOrderError const& e) {
    EXPECT_NE(std::string(e.what()).find("CTA 1"), std::string::npos) << e.what();
  }
}

}  // namespace
