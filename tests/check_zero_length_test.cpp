// Domain length 0 (issue 13, coverage): a runtime-length loop may run no iteration (an
// empty varlen segment, a grid-stride start past the end), and the proof covers it unless
// the bound is declared never below 1 (ts::runtime(v, "n").at_least(1), ts::at_least).
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

// The consumer releases each stage one iteration late and the last one after the loop
// (the GEMM's lagged release): with no iteration there is nothing to release.
template <bool kAtLeastOne>
struct LaggedConsumer {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    auto n = kAtLeastOne ? ts::runtime(4, "n").at_least(1) : ts::runtime(4, "n");
    s.domain_loop(0, n, 1, [&](auto& it) {
      r.wait();
      ts::work<&Buf::take>(r);
      it.every(1, 1, [&] { r.release(); });  // from the second iteration on
    });
    r.release();
  }
};
template <bool kAtLeastOne>
struct Filler {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    auto n = kAtLeastOne ? ts::runtime(4, "n").at_least(1) : ts::runtime(4, "n");
    s.domain_loop(0, n, 1, [&](auto&) { r.acquire(); ts::work<&Buf::put>(r); r.commit(); });
  }
};
template <bool kAtLeastOne>
ts::Model lagged() {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(Filler<kAtLeastOne>{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).schedule(LaggedConsumer<kAtLeastOne>{}, r);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model();
}

// Before zero-length coverage this answered SAFE (for all k >= 1) without saying that a
// loop of no iteration releases a stage never waited.
TEST(CheckZeroLength, LoopThatRunsNoIterationIsCovered) {
  for (bool red : {true, false}) {
    auto r = check(lagged<false>(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "unbalanced");
    EXPECT_EQ(r.failure->length, 0) << r.report;
    EXPECT_NE(r.report.find("the shortest failing length is k=0"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("release before wait: Consumer runs ring.release()"), std::string::npos) << r.report;
  }
}

TEST(CheckZeroLength, DeclaredMinimumProvesFromOne) {
  auto r = check(lagged<true>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  EXPECT_NE(r.report.find("Result: SAFE (for all k >= 1)"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("every runtime-length loop is declared to run at least once"), std::string::npos)
      << r.report;
}

struct Each {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, ts::runtime(4, "n"), 1, [&](auto&) { r.wait(); ts::work<&Buf::take>(r); r.release(); });
  }
};
TEST(CheckZeroLength, SafeScheduleIsProvedFromZero) {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(Filler<false>{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).schedule(Each{}, r);
  auto res = check(ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model());
  EXPECT_EQ(res.verdict, ts::Verdict::SafeAllK) << res.report;
  EXPECT_NE(res.report.find("Result: SAFE (for all k >= 0)"), std::string::npos) << res.report;
}

// The declaration is trusted by the proof, so capture refuses a value below it.
struct BelowMinimum {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, ts::runtime(0, "k_iters").at_least(1), 1, [&](auto&) { r.acquire(); r.commit(); });
  }
};
TEST(CheckZeroLength, CaptureRefusesAValueBelowItsDeclaredMinimum) {
  auto r = ts::resource("ring", Buf{}, async1());
  try {
    auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(BelowMinimum{}, r);
    (void)ts::TaskManager(ts::tasks(p), ts::DependencyGraph{}, opts());
    ADD_FAILURE() << "expected a capture error";
  } catch (ts::CaptureError const& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("capture.runtime-below-minimum"), std::string::npos) << what;
    EXPECT_NE(what.find("at_least(1) is 0"), std::string::npos) << what;
  }
}

}  // namespace
