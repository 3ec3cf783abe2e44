// Runtime conditions, iteration guards and break_loop in the checker (S7.2).
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

struct Flags : ts::MemoryResource {
  TS_HD bool more(ts::ConsumerStage const&) const { return true; }
};

// Producer and consumer branch on one runtime value; with a shared key they see the
// same outcome per iteration (S4.4), so the optional stage is always matched.
template <bool kShared>
struct CondProducer {
  template <class S, class F, class X>
  TS_HD void operator()(S& s, F& f, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      auto c = ts::work<&Flags::more>(f);
      s.when_true(c, ts::Key{"extra"}, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
    });
  }
};
template <bool kShared>
struct CondConsumer {
  template <class S, class F, class X>
  TS_HD void operator()(S& s, F& f, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      auto c = ts::work<&Flags::more>(f);
      s.when_true(c, ts::Key{kShared ? "extra" : "other"}, [&] { x.wait(); ts::work<&Buf::take>(x); x.release(); });
    });
  }
};
template <bool kShared>
ts::Model conditional() {
  auto f = ts::resource("flags", Flags{});
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("P").warps(0, 1).reads(f).writes(x).schedule(CondProducer<kShared>{}, f, x);
  auto c = ts::Task("C").warps(1, 1).reads(f, x).schedule(CondConsumer<kShared>{}, f, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {f}}}, opts()).model();
}

TEST(CheckConditions, SharedKeyCorrelatesOutcomes) {
  auto r = check(conditional<true>());
  // When the condition is false the two tasks never synchronise, so they can drift
  // apart without bound and the parametric argument does not apply: the report says
  // so and the verdict is for the concrete lengths checked.
  EXPECT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
  EXPECT_NE(r.report.find("drift apart"), std::string::npos) << r.report;
  // Every length up to the drift bound + 4, on one summary line.
  EXPECT_NE(r.report.find("Summary (k=1..20, 20 runs, reduced)"), std::string::npos) << r.report;
}

TEST(CheckConditions, UncorrelatedOutcomesAreExplored) {
  auto r = check(conditional<false>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  // Shortest: one iteration, the consumer waits for a stage the producer skipped.
  EXPECT_EQ(r.failure->kind, "deadlock");
  EXPECT_NE(r.report.find("C at x.wait()"), std::string::npos) << r.report;
}

// An accumulator acquired on the first iteration and committed on the last: a
// one-iteration loop runs both guards (S4.3), so the epilogue always gets its stage.
struct Accumulate {
  template <class S, class In, class Acc>
  TS_HD void operator()(S& s, In& in, Acc& acc) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      in.wait();
      d.first_iter([&] { acc.acquire(); });
      ts::work<&Buf::take>(in);
      ts::work<&Buf::put>(acc);
      in.release();
      d.last_iter([&] { acc.commit(); });
    });
  }
};
template <bool kBreak>
struct Feed {
  template <class S, class In, class F>
  TS_HD void operator()(S& s, In& in, F& f) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      in.acquire(); ts::work<&Buf::put>(in); in.commit();
      if constexpr (kBreak) {
        auto c = ts::work<&Flags::more>(f);
        s.when_false(c, [&] { d.break_loop(); });
      }
    });
  }
};
struct Drain {
  template <class S, class Acc>
  TS_HD void operator()(S& s, Acc& acc) const {
    acc.wait(); ts::work<&Buf::take>(acc); acc.release();
    (void)s;
  }
};
template <bool kBreak>
ts::Model accumulator() {
  auto f = ts::resource("flags", Flags{});
  auto in = ts::resource("in", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto acc = ts::resource("acc", Buf{}, ts::PipelineConfig::async_async({.num_stages = 1}));
  auto feed = ts::Task("Feed").warps(0, 1).reads(f).writes(in).schedule(Feed<kBreak>{}, in, f);
  auto mma = ts::Task("Mma").warps(1, 1).reads(in).writes(acc).schedule(Accumulate{}, in, acc);
  auto epi = ts::Task("Epi").warps(2, 1).reads(acc).schedule(Drain{}, acc);
  return ts::TaskManager(ts::tasks(feed, mma, epi), ts::DependencyGraph{{in, {f}}, {acc, {in}}}, opts()).model();
}

TEST(CheckConditions, FirstAndLastIterationGuards) {
  auto r = check(accumulator<false>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  // Concrete lengths agree, including the one-iteration loop.
  auto m = accumulator<false>();
  m.options.check_lengths = {1, 2, 7};
  auto c = ts::check::run_exhaustive(m);
  EXPECT_EQ(c.verdict, ts::Verdict::Safe) << c.report;
  EXPECT_NE(c.report.find("checked only the requested domain lengths"), std::string::npos);
}

TEST(CheckConditions, BreakLoopInOneTaskOnly) {
  auto r = check(accumulator<true>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_EQ(r.failure->kind, "deadlock");
  EXPECT_NE(r.report.find("Mma at in.wait()"), std::string::npos) << r.report;
}

}  // namespace
