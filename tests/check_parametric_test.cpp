// The parametric proof (every domain length at once) against concrete lengths.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"
#include "ts/check/explore.hpp"

namespace {
using namespace chk;

struct Feeder {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
  }
};
// Waits once per iteration, plus (the bug) once more on iteration 5, 11, ...: only
// lengths k >= 6 deadlock, so checking k = 1..4 alone would miss it.
template <bool kBug>
struct Eater {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      x.wait(); ts::work<&Buf::take>(x); x.release();
      if constexpr (kBug) d.every(6, 5, [&] { x.wait(); x.release(); });
    });
  }
};
template <bool kBug>
ts::Model late_bug() {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 3}));
  auto in = ts::resource("in", Buf{});
  auto p = ts::Task("Feeder").warps(0, 1).reads(in).writes(x).schedule(Feeder{}, x);
  auto c = ts::Task("Eater").warps(1, 1).reads(x).writes(in).schedule(Eater<kBug>{}, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {in}}, {in, {x}}}, opts()).model();
}

TEST(CheckParametric, FindsAFailureOnlyLongLoopsHave) {
  // The parametric search meets the deadlock (at k = 6) before the tasks drift apart
  // far, and a concrete search then gives the shortest failing length.
  auto r = check(late_bug<true>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.report.find("the shortest failing length is k=6"), std::string::npos) << r.report;
  EXPECT_EQ(r.failure->length, 6);
  EXPECT_NE(r.report.find("Eater at x.wait() (step 3, loop, iteration 5)"), std::string::npos) << r.report;
  // The small fixed lengths alone say SAFE for those lengths only.
  auto m = late_bug<true>();
  m.options.check_lengths = {1, 2, 3, 4, 5};
  auto small = ts::check::run_exhaustive(m);
  EXPECT_EQ(small.verdict, ts::Verdict::Safe);
  EXPECT_NE(small.report.find("other lengths are not covered"), std::string::npos);
}

TEST(CheckParametric, FixedVersionIsSafeForEveryK) {
  auto r = check(late_bug<false>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// A failure the parametric proof finds itself (bounded distance): a last-iteration
// extra wait on lengths k = 3 (mod 4) only.
struct LastEater {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      x.wait(); ts::work<&Buf::take>(x); x.release();
      d.last_iter([&] { d.every(4, 2, [&] { x.wait(); x.release(); }); });
    });
  }
};
ts::Model last_bug() {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto in = ts::resource("in", Buf{});
  auto p = ts::Task("Feeder").warps(0, 1).reads(in).writes(x).schedule(Feeder{}, x);
  auto c = ts::Task("Eater").warps(1, 1).reads(x).writes(in).schedule(LastEater{}, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {in}}, {in, {x}}}, opts()).model();
}

TEST(CheckParametric, ParametricFailureGetsAConcreteWitness) {
  auto r = check(last_bug());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_NE(r.report.find("parametric proof: UNSAFE for some domain length; the shortest failing length is k=3"),
            std::string::npos)
      << r.report;
  EXPECT_EQ(r.failure->length, 3);
  EXPECT_NE(r.failure_json.find("\"domain_length\": 3"), std::string::npos);
}

// Property: where the parametric proof concludes, every concrete length agrees.
TEST(CheckParametric, AgreesWithConcreteLengths) {
  for (auto make : {last_bug, late_bug<false>}) {
    auto m = make();
    auto ps = ts::check::compile(m);
    ts::check::Config c;
    c.parametric = true;
    auto par = ts::check::explore(m, ps, c);
    ASSERT_NE(par.verdict, ts::Verdict::Incomplete);
    bool any_unsafe = false;
    for (long long k = 1; k <= 20; ++k) {
      c.parametric = false;
      c.length = k;
      auto v = ts::check::explore(m, ps, c).verdict;
      any_unsafe |= v == ts::Verdict::Unsafe;
      if (par.verdict == ts::Verdict::SafeAllK) {
        EXPECT_EQ(v, ts::Verdict::Safe) << k;
      }
    }
    EXPECT_EQ(any_unsafe, par.verdict == ts::Verdict::Unsafe);
  }
}

}  // namespace
