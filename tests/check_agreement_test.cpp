// Partial-order reduction must not change any verdict: every benchmark schedule is
// checked with and without it (the test schedules do the same in chk::check).
#include <gtest/gtest.h>

#include "checker/schedules.hpp"
#include "ts/check/explore.hpp"
#include "ts/check/checker.hpp"

TEST(CheckAgreement, BenchmarkSchedulesPorMatchesBfs) {
  for (auto const& s : bench::all_schedules()) {
    auto m = s.make();
    auto ps = ts::check::compile(m);
    for (int tiles : {1, 2}) {
      for (long long k : {-1ll, 1ll, 2ll, 3ll}) {
        ts::check::Config c;
        c.tiles = tiles;
        c.parametric = k < 0;
        c.length = k;
        c.state_cap = 300'000;
        c.reduction = true;
        auto por = ts::check::explore(m, ps, c);
        c.reduction = false;
        auto bfs = ts::check::explore(m, ps, c);
        if (bfs.verdict == ts::Verdict::Incomplete) continue;  // too big for plain BFS here
        EXPECT_EQ(por.verdict, bfs.verdict) << s.name << " k=" << k << " tiles=" << tiles;
        EXPECT_LE(por.stats.states, bfs.stats.states) << s.name;
        EXPECT_EQ(por.stats.complete > 0, bfs.stats.complete > 0) << s.name;
      }
    }
  }
}

TEST(CheckAgreement, BenchmarkSchedulesAreSafeForEveryK) {
  for (auto const& s : bench::all_schedules()) {
    auto m = s.make();
    auto r = ts::check::run_exhaustive(m);
    EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << s.name << "\n" << r.report;
  }
}
