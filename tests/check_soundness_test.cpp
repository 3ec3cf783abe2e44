// Regression tests for wrong SAFE verdicts and false alarms of the checker (issue 13):
// each schedule here was once judged wrongly by at least one mode; check() runs both
// reduction and plain BFS and requires them to agree.
#include <gtest/gtest.h>

#include "check_fixtures.hpp"

namespace {
using namespace chk;

// A second ring in the other phase of alias group "g": rings a and b share memory.
struct RingB : ts::MemoryResource {
  ts::SmemArray<float> data;
  void declare_allocations(ts::Allocations& a) { a.smem("data", data, 1024).alias("g", 1); }
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};

// Producer work on an aliased ring with a credit op on an unaliased pipe inside the
// access window: acquire a, acquire c, write a, commit c, commit a.
template <auto kPut>
struct WriteWithInnerCommit {
  template <class S, class A, class C>
  TS_HD void operator()(S&, A& a, C& c) const {
    a.acquire(); c.acquire(); ts::work<kPut>(a); c.commit(); a.commit();
  }
};
struct DrainAll {
  template <class S, class A, class B, class C, class D>
  TS_HD void operator()(S&, A& a, B& b, C& c, D& d) const {
    a.wait(); a.release(); b.wait(); b.release(); c.wait(); c.release(); d.wait(); d.release();
  }
};

// Issue 13.1: the commit of c closes t1's window on a; a reduction that treats it as
// invisible runs t1 to that commit alone and never sees both rings written at once.
TEST(CheckSoundness, WindowClosedByUnaliasedCreditOpIsVisible) {
  auto a = ts::resource("a", Ring{}, async1());
  auto b = ts::resource("b", RingB{}, async1());
  auto c = ts::resource("c", Buf{}, async1());
  auto d = ts::resource("d", Buf{}, async1());
  auto t1 = ts::Task("T1").warps(0, 1).writes(a).writes(c).schedule(WriteWithInnerCommit<&Ring::put>{}, a, c);
  auto t2 = ts::Task("T2").warps(1, 1).writes(b).writes(d).schedule(WriteWithInnerCommit<&RingB::put>{}, b, d);
  auto t3 = ts::Task("T3").warps(2, 1).reads(a).reads(b).reads(c).reads(d).schedule(DrainAll{}, a, b, c, d);
  auto m = ts::TaskManager(ts::tasks(t1, t2, t3), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto r = check(m, red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "race");
    EXPECT_NE(r.report.find("a written by T1 while b written by T2"), std::string::npos) << r.report;
  }
}

// Issue 13.2: one acquire in the head, a commit every iteration of a 1-stage ring.
struct AcquireOnceCommitEach {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    r.acquire();
    s.domain_loop(0, N(), 1, [&](auto&) { ts::work<&Buf::put>(r); r.commit(); });
  }
};
struct WaitReleaseEach {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) { r.wait(); ts::work<&Buf::take>(r); r.release(); });
  }
};
ts::Model commit_without_acquire() {
  auto r = ts::resource("ring", Buf{}, async1());
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(AcquireOnceCommitEach{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).schedule(WaitReleaseEach{}, r);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model();
}

TEST(CheckSoundness, CommitWithoutAcquiredStageIsUnbalanced) {
  for (bool red : {true, false}) {
    auto r = check(commit_without_acquire(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "unbalanced");
    EXPECT_NE(r.report.find("commit without acquire: Producer runs ring.commit() while no stage of ring is acquired"),
              std::string::npos)
        << r.report;
    EXPECT_NE(r.report.find("shortest failing length is k=2"), std::string::npos) << r.report;
  }
  auto m = commit_without_acquire();
  m.options.check_lengths = {3};
  auto r = check(m);
  EXPECT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
}

// Issue 13.3: a domain loop whose body is only a guard block: most iterations execute no
// step, which once made the parametric search recurse without end (last_iter) or spin
// to the 16-bit wrap of the iteration counter (first_iter).
template <bool kLast>
struct GuardOnlyProducer {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      auto body = [&] { r.acquire(); ts::work<&Buf::put>(r); r.commit(); };
      if constexpr (kLast) d.last_iter(body);
      else d.first_iter(body);
    });
  }
};
struct WaitReleaseOnce {
  template <class S, class R>
  TS_HD void operator()(S&, R& r) const { r.wait(); ts::work<&Buf::take>(r); r.release(); }
};
template <bool kLast>
ts::Model guard_only_loop() {
  auto r = ts::resource("ring", Buf{}, async1());
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(GuardOnlyProducer<kLast>{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).schedule(WaitReleaseOnce{}, r);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model();
}

TEST(CheckSoundness, LastIterOnlyBodyTerminatesSafeForAllK) {
  auto m = guard_only_loop<true>();
  m.options.state_cap = 200'000;
  auto r = check(m);
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

TEST(CheckSoundness, FirstIterOnlyBodyTerminatesSafeForAllK) {
  auto m = guard_only_loop<false>();
  m.options.state_cap = 200'000;
  auto r = check(m);
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// Issue 13.6: a TMA pipeline committed without TMA work on the stage: the full barrier's
// transaction bytes never arrive, so the consumer's wait hangs on hardware.
struct TmaCommitWithoutCopy {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      r.acquire();
      d.first_iter([&] { ts::work<&Buf::put>(r); });
      r.commit();
    });
  }
};
TEST(CheckSoundness, TmaCommitWithoutCopyIsAHang) {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 4096}));
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(TmaCommitWithoutCopy{}, r);
  auto c = ts::Task("Consumer").warps(1, 1).reads(r).schedule(WaitReleaseEach{}, r);
  auto m = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto res = check(m, red);
    ASSERT_EQ(res.verdict, ts::Verdict::Unsafe) << res.report;
    EXPECT_EQ(res.failure->kind, "deadlock");
    EXPECT_NE(res.report.find("TMA commit without TMA work: a stage of ring was committed with no copy on it (Producer "
                              "runs ring.commit() (step 2, loop, iteration 1))"),
              std::string::npos)
        << res.report;
    EXPECT_NE(res.report.find("shortest failing length is k=2"), std::string::npos) << res.report;
  }
}

// Issue 13.5: split consumers. The proxy `done` tells the releasing task that a waiting
// task finished reading a ring stage.
struct RingProducer {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) { r.acquire(); ts::work<&Buf::put>(r); r.commit(); });
  }
};
enum class WaiterShape { ReadThenSignal, SignalThenRead, ReadSignalRelease };
template <WaiterShape kShape>
struct ProxyWaiter {
  template <class S, class R, class D>
  TS_HD void operator()(S& s, R& r, D& done) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      r.wait();
      if constexpr (kShape == WaiterShape::SignalThenRead) {
        done.acquire(); done.commit();  // tells the releaser too early: the read follows
        ts::work<&Buf::take>(r);
      } else {
        ts::work<&Buf::take>(r);
        done.acquire(); done.commit();
        if constexpr (kShape == WaiterShape::ReadSignalRelease) r.release();
      }
    });
  }
};
struct ProxyReleaser {
  template <class S, class R, class D>
  TS_HD void operator()(S& s, R& r, D& done) const {
    s.domain_loop(0, N(), 1, [&](auto&) { done.wait(); r.release(); done.release(); });
  }
};
struct TwoProxyReleaser {
  template <class S, class R, class D, class E>
  TS_HD void operator()(S& s, R& r, D& d1, E& d2) const {
    s.domain_loop(0, N(), 1, [&](auto&) { d1.wait(); d2.wait(); r.release(); d1.release(); d2.release(); });
  }
};

template <WaiterShape kShape>
ts::Model proxy_split(int stages) {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::async_async({.num_stages = stages}));
  auto done = ts::resource("done", Buf{}, async1());
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingProducer{}, r);
  auto w = ts::Task("Waiter").warps(1, 1).reads(r).writes(done).schedule(ProxyWaiter<kShape>{}, r, done);
  auto rel = ts::Task("Releaser").warps(2, 1).reads(done).reads(r).schedule(ProxyReleaser{}, r, done);
  return ts::TaskManager(ts::tasks(p, w, rel), ts::DependencyGraph{}, opts()).model();
}

TEST(CheckSoundness, ReleaserAfterProxyIsSafe) {
  for (int stages : {1, 2}) {
    auto r = check(proxy_split<WaiterShape::ReadThenSignal>(stages));
    EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  }
}

TEST(CheckSoundness, WaiterThatAlsoReleasesBesideProxyReleaserIsSafe) {
  for (int stages : {1, 2}) {
    auto r = check(proxy_split<WaiterShape::ReadSignalRelease>(stages));
    EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  }
}

TEST(CheckSoundness, ProxyCommittedBeforeTheReadIsAStageReuseRace) {
  for (int stages : {1, 2}) {
    for (bool red : {true, false}) {
      auto r = check(proxy_split<WaiterShape::SignalThenRead>(stages), red);
      ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
      EXPECT_EQ(r.failure->kind, "race");
      EXPECT_NE(r.report.find("stage reuse race: Producer runs ring.acquire() on a stage of ring that Waiter (waits, "
                              "never releases) has not finished reading: Releaser gave it back first"),
                std::string::npos)
          << r.report;
    }
  }
}

TEST(CheckSoundness, OneReleaserServingTwoWaitersIsSafe) {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::async_async({.num_stages = 2}));
  auto d1 = ts::resource("done1", Buf{}, async1());
  auto d2 = ts::resource("done2", Buf{}, async1());
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingProducer{}, r);
  auto w1 = ts::Task("Waiter1").warps(1, 1).reads(r).writes(d1).schedule(ProxyWaiter<WaiterShape::ReadThenSignal>{}, r, d1);
  auto w2 = ts::Task("Waiter2").warps(2, 1).reads(r).writes(d2).schedule(ProxyWaiter<WaiterShape::ReadThenSignal>{}, r, d2);
  auto rel = ts::Task("Releaser").warps(3, 1).reads(d1).reads(d2).reads(r).schedule(TwoProxyReleaser{}, r, d1, d2);
  auto m = ts::TaskManager(ts::tasks(p, w1, w2, rel), ts::DependencyGraph{}, opts()).model();
  auto res = check(m);
  EXPECT_EQ(res.verdict, ts::Verdict::SafeAllK) << res.report;
}

// Issue 13.5 / SPEC S7.3: an MMA (UMMA) consumer's read of a ring stage may still be in
// flight after its release, until a paired accumulator wait: the MMA task commits the
// accumulator after the read, so a wait on that commit proves the read done. The epilogue
// then writes a scratch buffer aliasing the ring in its tail.
struct Acc : ts::MemoryResource {
  TS_HD void mma(ts::ProducerStage const&) const {}
};
struct MmaTask {
  template <class S, class R, class A>
  TS_HD void operator()(S& s, R& r, A& acc) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      r.wait(); ts::work<&Ring::take>(r); r.release();
      acc.acquire(); ts::work<&Acc::mma>(acc); acc.commit();
    });
  }
};
// kLate: the scratch write follows the last accumulator wait (paired: safe); otherwise it
// precedes the last wait, while the last MMA read may still be in flight.
template <bool kLate>
struct EpilogueTask {
  template <class S, class A, class X>
  TS_HD void operator()(S& s, A& acc, X& x) const {
    s.domain_loop(0, N(), 1, [&](auto& d) {
      if constexpr (!kLate) d.last_iter([&] { ts::work<&Scratch::scribble>(x); });
      acc.wait(); acc.release();
    });
    if constexpr (kLate) ts::work<&Scratch::scribble>(x);
  }
};
struct RingFill {
  template <class S, class R>
  TS_HD void operator()(S& s, R& r) const {
    s.domain_loop(0, N(), 1, [&](auto&) { r.acquire(); ts::work<&Ring::put>(r); r.commit(); });
  }
};
template <bool kLate>
ts::Model mma_then_scratch() {
  auto r = ts::resource("ring", Ring{}, ts::PipelineConfig::async_umma({.num_stages = 2}));
  auto acc = ts::resource("acc", Acc{}, ts::PipelineConfig::umma_async({.num_stages = 1}));
  auto x = ts::resource("scratch", Scratch{});
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingFill{}, r);
  auto mma = ts::Task("Mma").warps(1, 1).reads(r).writes(acc).schedule(MmaTask{}, r, acc);
  auto e = ts::Task("Epilogue").warps(2, 1).reads(acc).writes(x).schedule(EpilogueTask<kLate>{}, acc, x);
  return ts::TaskManager(ts::tasks(p, mma, e), ts::DependencyGraph{}, opts()).model();
}

TEST(CheckSoundness, PairedAccumulatorWaitEndsTheMmaRead) {
  auto r = check(mma_then_scratch<true>());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

TEST(CheckSoundness, ScratchBeforeTheAccumulatorWaitRacesTheMmaRead) {
  for (bool red : {true, false}) {
    auto r = check(mma_then_scratch<false>(), red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "race");
    EXPECT_NE(r.report.find("scratch written by Epilogue"), std::string::npos) << r.report;
  }
}

// Found in review (stop 28): the accumulator commit of the ring's one consumer fenced every
// MMA read of the ring, also one issued by another task, which on the GPU that commit does
// not track (a tcgen05.commit covers its own thread's MMAs). Here Reader runs the MMA on the
// stage Mma holds (between two tokens; outside a wait/release of its own, which S6.6
// refuses, so only warning mode reached it); Mma's accumulator commit and the epilogue's
// wait on it then ended Reader's read and the scratch write after them was SAFE. Now only
// the one issuing task's accumulator commit fences the reads: UNSAFE (race). The paired
// case (the consumer's own MMA, PairedAccumulatorWaitEndsTheMmaRead) stays SAFE.
struct MmaHandsTheStageOver {
  template <class S, class R, class A, class Go, class Back>
  TS_HD void operator()(S& s, R& r, A& acc, Go& go, Back& back) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      r.wait();
      go.acquire(); ts::work<&Buf::put>(go); go.commit();
      back.wait(); ts::work<&Buf::take>(back); back.release();
      r.release();
      acc.acquire(); ts::work<&Acc::mma>(acc); acc.commit();
    });
  }
};
struct ReaderOfAnotherSlot {
  template <class S, class R, class Go, class Back>
  TS_HD void operator()(S& s, R& r, Go& go, Back& back) const {
    s.domain_loop(0, N(), 1, [&](auto&) {
      go.wait(); ts::work<&Buf::take>(go); go.release();
      ts::work<&Ring::take>(r);
      back.acquire(); ts::work<&Buf::put>(back); back.commit();
    });
  }
};
TEST(CheckSoundness, AnAccumulatorCommitFencesOnlyItsOwnTasksMmaReads) {
  auto r = ts::resource("ring", Ring{}, ts::PipelineConfig::async_umma({.num_stages = 2}));
  auto acc = ts::resource("acc", Acc{}, ts::PipelineConfig::umma_async({.num_stages = 1}));
  auto x = ts::resource("scratch", Scratch{});
  auto go = ts::resource("go", Buf{}, async1());
  auto back = ts::resource("back", Buf{}, async1());
  auto p = ts::Task("Producer").warps(0, 1).writes(r).schedule(RingFill{}, r);
  auto mma = ts::Task("Mma").warps(1, 1).reads(r, back).writes(acc, go).schedule(MmaHandsTheStageOver{}, r, acc, go, back);
  auto rd = ts::Task("Reader").warps(2, 1).reads(r, go).writes(back).schedule(ReaderOfAnotherSlot{}, r, go, back);
  auto e = ts::Task("Epilogue").warps(3, 1).reads(acc).writes(x).schedule(EpilogueTask<true>{}, acc, x);
  auto m = ts::TaskManager(ts::tasks(p, mma, rd, e), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto res = check(m, red);
    ASSERT_EQ(res.verdict, ts::Verdict::Unsafe) << res.report;
    EXPECT_EQ(res.failure->kind, "race") << res.report;
  }
}

// Found in review: a commit's failure flag depends on another task's acquire (commit
// without acquire) or producer work (empty TMA commit) when the committing task is not the
// one acquirer, so such commits must be visible; the reduced search called both SAFE.
struct AcquireAndPut {
  template <class S, class R>
  TS_HD void operator()(S&, R& r) const { r.acquire(); ts::work<&Buf::put>(r); }
};
struct CommitOnlyOnce {
  template <class S, class R>
  TS_HD void operator()(S&, R& r) const { r.commit(); }
};
TEST(CheckSoundness, CommitByAnotherTaskBeforeTheAcquireIsUnbalanced) {
  auto r = ts::resource("ring", Buf{}, async1());
  auto c = ts::Task("Committer").warps(0, 1).writes(r).schedule(CommitOnlyOnce{}, r);
  auto p = ts::Task("Producer").warps(1, 1).writes(r).schedule(AcquireAndPut{}, r);
  auto w = ts::Task("Consumer").warps(2, 1).reads(r).schedule(WaitReleaseOnce{}, r);
  auto m = ts::TaskManager(ts::tasks(c, p, w), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto res = check(m, red);
    ASSERT_EQ(res.verdict, ts::Verdict::Unsafe) << res.report;
    EXPECT_EQ(res.failure->kind, "unbalanced");
    EXPECT_NE(res.report.find("commit without acquire: Committer runs ring.commit()"), std::string::npos) << res.report;
  }
}

struct TmaProducerSignals {
  template <class S, class R, class G>
  TS_HD void operator()(S&, R& r, G& g) const {
    r.acquire(); ts::work<&Buf::put>(r); g.acquire(); g.commit(); ts::work<&Buf::put>(r);
    r.acquire(); g.acquire(); g.commit();
  }
};
struct TmaCommitter {
  template <class S, class R, class G>
  TS_HD void operator()(S&, R& r, G& g) const { g.wait(); r.commit(); g.release(); g.wait(); r.commit(); g.release(); }
};
struct WaitReleaseTwice {
  template <class S, class R>
  TS_HD void operator()(S&, R& r) const {
    r.wait(); ts::work<&Buf::take>(r); r.release(); r.wait(); ts::work<&Buf::take>(r); r.release();
  }
};
TEST(CheckSoundness, EmptyTmaCommitByAnotherTaskIsNotHiddenByTheReduction) {
  auto r = ts::resource("ring", Buf{}, ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 4096}));
  auto g = ts::resource("sig", Buf{}, async1());
  auto c = ts::Task("Committer").warps(0, 1).writes(r).reads(g).schedule(TmaCommitter{}, r, g);
  auto p = ts::Task("Producer").warps(1, 1).writes(r).writes(g).schedule(TmaProducerSignals{}, r, g);
  auto w = ts::Task("Consumer").warps(2, 1).reads(r).schedule(WaitReleaseTwice{}, r);
  auto m = ts::TaskManager(ts::tasks(c, p, w), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto res = check(m, red);
    EXPECT_EQ(res.verdict, ts::Verdict::Unsafe) << res.report;
  }
}

}  // namespace

namespace {
using namespace chk;

// Two domain loops in one tile (loops one after another with equal bounds, as the ping-pong
// GEMM's producer has). Writer: loop A fills x; waits on y; loop B writes `a` (alias group g,
// phase 0); releases y. Other: drains x in its loop; commits y; writes `s` (g, phase 1).
// The writer's loop B starts only after the other task left its loop, and then the two
// writes have no order: a race for every length k >= 1 (the emulator sees it too).
struct TwoLoopWriter {
  template <class S, class Q, class X, class Y, class A>
  TS_HD void operator()(S& s, Q& q, X& x, Y& y, A& a) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, N(), 1, [&](auto&) { x.acquire(); ts::work<&Buf::put>(x); x.commit(); });
      y.wait();
      s.domain_loop(0, N(), 1, [&](auto&) { ts::work<&Ring::put>(a); });
      y.release();
      q.get_and_advance_work_tile();
    });
  }
};
struct OneLoopThenScribble {
  template <class S, class Q, class X, class Y, class C>
  TS_HD void operator()(S& s, Q& q, X& x, Y& y, C& c) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, N(), 1, [&](auto&) { x.wait(); ts::work<&Buf::take>(x); x.release(); });
      y.acquire();
      y.commit();
      ts::work<&Scratch::scribble>(c);
      q.get_and_advance_work_tile();
    });
  }
};

TEST(CheckSoundness, ASecondDomainLoopInATileRunsItsFullLength) {
  auto q = ts::resource("queue", Queue{{2, 0}});
  auto x = ts::resource("x", Buf{}, async1());
  auto y = ts::resource("y", Buf{}, async1());
  auto a = ts::resource("a", Ring{});
  auto c = ts::resource("c", Scratch{});
  auto w = ts::Task("Writer").warps(0, 1).reads(q, y).writes(x, a).schedule(TwoLoopWriter{}, q, x, y, a);
  auto o = ts::Task("Other").warps(1, 1).reads(q, x).writes(y, c).schedule(OneLoopThenScribble{}, q, x, y, c);
  auto m = ts::TaskManager(ts::tasks(w, o), ts::DependencyGraph{}, opts()).model();
  for (bool red : {true, false}) {
    auto r = check(m, red);
    ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
    EXPECT_EQ(r.failure->kind, "race") << r.report;
  }
}

}  // namespace
