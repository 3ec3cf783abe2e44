// S6.7 WorkQueue placement and S6.21 skip_if ownership.
#include "verify_fixtures.hpp"

using namespace vt;

namespace {

enum class Where { Tail, DomainLoop, Skippable, Head, Missing };

template <Where W>
struct TileCopy {
  template <class S, class Q, class In, class Out>
  void operator()(S& s, Q& q, In& in, Out& out) const {
    auto epilogue = [&] {
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    };
    s.work_tile_loop(q, [&](auto& wt) {
      if constexpr (W == Where::Head) epilogue();
      wt.skippable([&] {
        s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
          ts::work<&Dst::store>(out, ts::work<&Src::load>(in));
          if constexpr (W == Where::DomainLoop) epilogue();
        });
        if constexpr (W == Where::Skippable) epilogue();
      });
      if constexpr (W == Where::Tail) epilogue();
    });
  }
};
template <class Skip>
struct SkippingCopy {
  template <class S, class Q, class In, class Out>
  void operator()(S& s, Q& q, In& in, Out& out) const {
    s.work_tile_loop(q, Skip{}, [&](auto& wt) {
      wt.skippable([&] {
        s.domain_loop(0LL, 8LL, 1LL, [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); });
      });
      q.get_and_advance_work_tile();
    });
  }
};
struct PlainCopy {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); });
  }
};
// Dynamic queue scheduler: fetch sequence then the epilogue; `Order` false swaps fetch and acquire.
template <bool Ordered>
struct Scheduler {
  template <class S, class Q>
  void operator()(S& s, Q& q) const {
    s.work_tile_loop(q, [&](auto&) {
      if constexpr (Ordered) {
        q.try_acquire();
        q.acquire();
        q.fetch_work_tile();
      } else {
        q.fetch_work_tile();
        q.acquire();
      }
      q.commit();
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    });
  }
};

template <Where W>
auto static_queue() {
  auto q = ts::resource("queue", Queue{{8, 0}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(TileCopy<W>{}, q, in, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
}

struct DynQueue : Queue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 1, .consumer_group = {ts::Agent::Thread, 64}});
};
template <bool Ordered, bool WithScheduler = true>
auto dynamic_queue() {
  auto q = ts::resource("queue", DynQueue{Queue{{8, 0}}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto data = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(TileCopy<Where::Tail>{}, q, in, out);
  if constexpr (WithScheduler) {
    auto sched = ts::Task("Sched").warps(1, 1).reads(q).writes(q).schedule(Scheduler<Ordered>{}, q);
    return ts::TaskManager(ts::tasks(data, sched), ts::DependencyGraph{{out, {in}}}, quiet());
  } else {
    return ts::TaskManager(ts::tasks(data), ts::DependencyGraph{{out, {in}}}, quiet());
  }
}

// A response ring one stage deeper than the per-CTA staging slots (ts::kQueueMaxStages),
// and the deepest one allowed.
template <int Stages>
struct DeepQueue : Queue {
  static constexpr auto pipeline =
      ts::clc_fetch_async({.num_stages = Stages, .consumer_group = {ts::Agent::Thread, 64}});
};
template <int Stages>
auto deep_queue() {
  auto q = ts::resource("queue", DeepQueue<Stages>{Queue{{8, 0}}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto data = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(TileCopy<Where::Tail>{}, q, in, out);
  auto sched = ts::Task("Sched").warps(1, 1).reads(q).writes(q).schedule(Scheduler<true>{}, q);
  return ts::TaskManager(ts::tasks(data, sched), ts::DependencyGraph{{out, {in}}}, quiet());
}

// A queue type whose declared ring is not a CLC response ring.
struct AsyncRingQueue : Queue {
  static constexpr auto pipeline = ts::async_async({.num_stages = 1});
};
auto async_ring_queue() {
  auto q = ts::resource("queue", AsyncRingQueue{Queue{{8, 0}}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(TileCopy<Where::Tail>{}, q, in, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
}

}  // namespace

TEST(VerifyQueue, QueueWithANonClcRingRejected) {
  auto ds = diags(async_ring_queue());
  auto d = find(ds, "S6.7.queue-pipeline-type");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "queue");
  EXPECT_EQ(d->expected, "ClcFetchAsync");
  EXPECT_EQ(d->actual, "AsyncAsync");
}

TEST(VerifyQueue, QueueRingDeeperThanTheStagingSlotsRejected) {
  auto ds = diags(deep_queue<ts::kQueueMaxStages + 1>());
  auto d = find(ds, "S6.7.queue-stages");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "queue");
  EXPECT_EQ(d->expected, "at most 8 stages");
  EXPECT_EQ(d->actual, "9");
}

TEST(VerifyQueue, NearMissQueueRingAtTheStagingBoundPasses) {
  auto ds = diags(deep_queue<ts::kQueueMaxStages>());
  EXPECT_FALSE(find(ds, "S6.7.queue-stages")) << all(ds);
}

TEST(VerifyQueue, NearMissEpilogueInTileTailPasses) {
  auto ds = diags(static_queue<Where::Tail>());
  EXPECT_TRUE(ds.empty()) << all(ds);
}

TEST(VerifyQueue, EpilogueInsideDomainLoopRejected) {
  auto ds = diags(static_queue<Where::DomainLoop>());
  auto d = find(ds, "S6.7.queue-epilogue-placement");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "queue");
  EXPECT_EQ(d->section, "loop");
  EXPECT_EQ(d->step_text, "queue.try_wait()");
  EXPECT_NE(d->message.find("domain loop"), std::string::npos);
}

TEST(VerifyQueue, EpilogueInsideSkippableRejected) {
  auto d = find(diags(static_queue<Where::Skippable>()), "S6.7.queue-epilogue-placement");
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("skippable"), std::string::npos);
  EXPECT_EQ(d->section, "tail");
}

TEST(VerifyQueue, EpilogueInHeadRejected) {
  auto d = find(diags(static_queue<Where::Head>()), "S6.7.queue-epilogue-placement");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->section, "head");
}

TEST(VerifyQueue, MissingEpilogueRejected) {
  auto d = find(diags(static_queue<Where::Missing>()), "S6.7.missing-queue-epilogue");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "queue");
}

TEST(VerifyQueue, PersistentAndNonPersistentTasksMixedRejected) {
  auto q = ts::resource("queue", Queue{{8, 0}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto in2 = ts::resource("in2", Src{});
  auto out2 = ts::resource("out2", Dst{});
  auto a = ts::Task("Tiles").warps(0, 1).reads(in, q).writes(out).schedule(TileCopy<Where::Tail>{}, q, in, out);
  auto b = ts::Task("Flat").warps(1, 1).reads(in2).writes(out2).schedule(PlainCopy{}, in2, out2);
  auto tm = ts::TaskManager(ts::tasks(a, b), ts::DependencyGraph{{out, {in}}, {out2, {in2}}}, quiet());
  auto d = find(diags(tm), "S6.7.all-or-none-persistent");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Flat");
}

TEST(VerifyQueue, NearMissDynamicQueueWithOrderedSchedulerPasses) {
  auto ds = diags(dynamic_queue<true>());
  EXPECT_TRUE(ds.empty()) << all(ds);
}

TEST(VerifyQueue, SchedulerFetchBeforeAcquireRejected) {
  auto d = find(diags(dynamic_queue<false>()), "S6.7.scheduler-fetch-order");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Sched");
  EXPECT_EQ(d->resource, "queue");
}

TEST(VerifyQueue, DynamicQueueWithoutSchedulerRejected) {
  auto d = find(diags(dynamic_queue<true, false>()), "S6.7.dynamic-queue-without-scheduler");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "queue");
}

// ---- S6.21 ----
TEST(VerifySkipIf, ForeignMethodRejected) {
  auto q = ts::resource("queue", Queue{{8, 0}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  using Foreign = decltype(ts::skip_if<&Buf::skip_tile>);
  auto t = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(SkippingCopy<Foreign>{}, q, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
  auto ds = diags(tm);
  auto d = find(ds, "S6.21.skip-if-not-queue-method");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "queue");
  EXPECT_NE(d->actual.find("Buf::skip_tile"), std::string::npos);
}

TEST(VerifySkipIf, NearMissQueueMethodPasses) {
  auto q = ts::resource("queue", Queue{{8, 0}});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  using Own = decltype(ts::skip_if<&Queue::skip_tile>);
  auto t = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(SkippingCopy<Own>{}, q, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
  auto ds = diags(tm);
  EXPECT_TRUE(ds.empty()) << all(ds);
}
