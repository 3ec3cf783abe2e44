// Aliasing races (S7.3, S7.4, S9.4): a scratch buffer aliasing the ring is used after
// the ring stage is released, while the producer may already rewrite the ring.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

struct RingProducer {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      r.acquire(); ts::work<&Ring::put>(r); r.commit();
    });
  }
};
template <bool kFixed>
struct RingConsumer {
  template <class S, class R, class X>
  TS_HD void operator()(S& s, R& r, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      r.wait(); ts::work<&Ring::take>(r);
      if constexpr (kFixed) { ts::work<&Scratch::scribble>(x); r.release(); }
      else { r.release(); ts::work<&Scratch::scribble>(x); }
    });
  }
};
template <bool kFixed>
ts::Model scratch_after_release(ts::PipelineConfig cfg) {
  auto r = ts::resource("ring", Ring{}, cfg);
  auto x = ts::resource("scratch", Scratch{});
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingProducer{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).writes(x).schedule(RingConsumer<kFixed>{}, r, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {r}}}, opts()).model();
}

TEST(CheckRace, ScratchUseAfterReleaseWhileProducerRewrites) {
  for (bool red : {true, false}) {
    auto r = check(scratch_after_release<false>(async1()), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "race");
    EXPECT_NE(r.report.find("Watched alias pair: group g: ring.data (phase 0) / scratch.tmp (phase 1)"), std::string::npos)
        << r.report;
    EXPECT_NE(r.report.find("aliasing race"), std::string::npos);
    EXPECT_NE(r.report.find("scratch written by Consumer"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("ring written by Producer"), std::string::npos) << r.report;
    EXPECT_NE(r.failure_json.find("\"text\": \"scratch.scribble()\""), std::string::npos) << r.failure_json;
    EXPECT_NE(r.failure_json.find("\"text\": \"ring.put()\""), std::string::npos) << r.failure_json;
  }
}

TEST(CheckRace, ScratchUseBeforeReleaseIsSafe) {
  auto r = check(scratch_after_release<true>(async1()));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// An asynchronous (TMA) producer keeps writing until the consumer's wait: even with
// the scratch used before release, the next stage's TMA write lands on the alias.
TEST(CheckRace, AsyncProducerStillWritingUntilWait) {
  auto r = check(scratch_after_release<true>(ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 4096})));
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_EQ(r.failure->kind, "race");
  EXPECT_NE(r.report.find("ring written by"), std::string::npos) << r.report;
  EXPECT_NE(r.failure_json.find("\"text\": \"scratch.scribble()\""), std::string::npos) << r.failure_json;
}

// With one stage the TMA write of the next stage cannot start before the release.
TEST(CheckRace, AsyncProducerOneStageIsSafe) {
  auto r = check(scratch_after_release<true>(ts::PipelineConfig::tma_async({.num_stages = 1, .num_bytes = 4096})));
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

}  // namespace
