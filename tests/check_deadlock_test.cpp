// Deadlocks found by the exhaustive checker (S7.1, S7.2), and their fixed versions.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

// Each task acquires its own resource's stage and, before committing it, waits for the
// other task's stage: each holds back the commit the other waits for.
template <bool kFixed>
struct Ping {
  template <class S, class X, class Y>
  TS_HD void operator()(S& s, X& x, Y& y) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      x.acquire(); ts::work<&Buf::put>(x);
      if constexpr (kFixed) x.commit();
      y.wait(); ts::work<&Buf::take>(y); y.release();
      if constexpr (!kFixed) x.commit();
    });
  }
};
template <bool kFixed>
struct Pong {
  template <class S, class X, class Y>
  TS_HD void operator()(S& s, X& x, Y& y) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      y.acquire(); ts::work<&Buf::put>(y);
      if constexpr (kFixed) y.commit();
      x.wait(); ts::work<&Buf::take>(x); x.release();
      if constexpr (!kFixed) y.commit();
    });
  }
};
template <bool kFixed>
ts::Model inversion() {
  auto x = ts::resource("x", Buf{}, async1());
  auto y = ts::resource("y", Buf{}, async1());
  auto a = ts::Task("A").warps(0, 1).reads(y).writes(x).schedule(Ping<kFixed>{}, x, y);
  auto b = ts::Task("B").warps(1, 1).reads(x).writes(y).schedule(Pong<kFixed>{}, x, y);
  return ts::TaskManager(ts::tasks(a, b), ts::DependencyGraph{{x, {y}}, {y, {x}}}, opts()).model();
}

TEST(CheckDeadlock, AcquireOrderInversion) {
  for (bool red : {true, false}) {
    auto r = check(inversion<false>(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->kind, "deadlock");
    EXPECT_NE(r.report.find("A at y.wait() (step 2, loop, iteration 0) is blocked"), std::string::npos) << r.report;
    EXPECT_EQ(r.failure->events.size(), 4u);
    EXPECT_NE(r.report.find("B at x.wait()"), std::string::npos) << r.report;
    EXPECT_NE(r.report.find("Result: UNSAFE"), std::string::npos);
    EXPECT_NE(r.failure_json.find("\"kind\": \"deadlock\""), std::string::npos);
    EXPECT_NE(r.failure_json.find("\"section\": \"loop\""), std::string::npos) << r.failure_json;
  }
}

TEST(CheckDeadlock, AcquireOrderFixed) {
  auto r = check(inversion<true>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  EXPECT_NE(r.report.find("Result: SAFE (for all k >= 1)"), std::string::npos);
}

// The producer commits only every other iteration; the consumer waits every iteration.
struct HalfProducer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      d.every(2, [&] { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
    });
  }
};
template <bool kFixed>
struct EveryConsumer {
  template <class S, class X>
  TS_HD void operator()(S& s, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      if constexpr (kFixed) {
        d.every(2, [&] { x.wait(); ts::work<&Buf::take>(x); x.release(); });
      } else {
        x.wait(); ts::work<&Buf::take>(x); x.release();
      }
    });
  }
};
template <bool kFixed>
ts::Model never_committed() {
  auto x = ts::resource("x", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto in = ts::resource("in", Buf{});
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(x).schedule(HalfProducer{}, x);
  auto c = ts::Task("C").warps(1, 1).reads(x).writes(in).schedule(EveryConsumer<kFixed>{}, x);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{x, {in}}, {in, {x}}}, opts()).model();
}

TEST(CheckDeadlock, WaitOnStageNeverCommitted) {
  auto r = check(never_committed<false>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_EQ(r.failure->kind, "deadlock");
  EXPECT_NE(r.report.find("C at x.wait() (step 0, loop, iteration 1)"), std::string::npos) << r.report;
  // Shortest: k=2, P commits at iteration 0 only.
  EXPECT_EQ(r.failure->length, 2);
  EXPECT_NE(r.failure_json.find("\"task_name\": \"P\""), std::string::npos);
}

TEST(CheckDeadlock, WaitOnStageNeverCommittedFixed) {
  auto r = check(never_committed<true>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// Dynamic persistent queue (S4.6, S4.7): a scheduler task fetches each tile into a
// one-stage CLC pipeline; data tasks must run the queue epilogue on every tile.
struct Scheduler {
  template <class S, class Q>
  TS_HD void operator()(S& s, Q& q) const {
    s.work_tile_loop(q, [&](auto&) {
      q.try_acquire(); q.acquire(); q.fetch_work_tile(); q.commit();
      q.try_wait(); q.wait(); q.get_and_advance_work_tile(); q.release();
    });
  }
};
template <bool kFixed>
struct DataTask {
  template <class S, class Q, class X>
  TS_HD void operator()(S& s, Q& q, X& x) const {
    s.work_tile_loop(q, ts::skip_if<&Queue::empty_tile>, [&](auto& wt) {
      wt.skippable([&] {
        ts::work<&Buf::put>(x);
        if constexpr (!kFixed) { q.try_wait(); q.wait(); q.get_and_advance_work_tile(); q.release(); }
      });
      if constexpr (kFixed) { q.try_wait(); q.wait(); q.get_and_advance_work_tile(); q.release(); }
    });
  }
};
struct DynQueue : Queue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 1});
};
template <bool kFixed>
ts::Model queue_bookkeeping() {
  auto q = ts::resource("queue", DynQueue{Queue{{2, 0}}});
  auto x = ts::resource("out", Buf{});
  auto sch = ts::Task("Sched").warps(0, 1).reads(q).writes(q).schedule(Scheduler{}, q);
  auto dt = ts::Task("Data").warps(1, 1).reads(q).writes(x).schedule(DataTask<kFixed>{}, q, x);
  return ts::TaskManager(ts::tasks(sch, dt), ts::DependencyGraph{{x, {q}}}, opts()).model();
}

TEST(CheckDeadlock, QueueBookkeepingMissingOnSkippedTile) {
  auto r = check(queue_bookkeeping<false>());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  EXPECT_TRUE(r.failure->kind == "deadlock" || r.failure->kind == "unbalanced") << r.report;
  EXPECT_TRUE(r.failure->skipped_tiles);
  EXPECT_NE(r.report.find("with skipped tiles"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("queue"), std::string::npos);
  EXPECT_NE(r.failure_json.find("\"skipped_tiles\": true"), std::string::npos);
}

TEST(CheckDeadlock, QueueBookkeepingFixed) {
  auto r = check(queue_bookkeeping<true>());
  EXPECT_TRUE(r.verdict == ts::Verdict::Safe || r.verdict == ts::Verdict::SafeAllK) << r.report;
}

}  // namespace
