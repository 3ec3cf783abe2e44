// S6.6 work bracketing, S6.8 DMA ordering, S6.14 head/loop producer overlap.
#include "verify_fixtures.hpp"

using namespace vt;

namespace {

struct WorkBeforeAcquire {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      auto v = ts::work<&Src::load>(in);
      ts::work<&Buf::put>(b, v);
      b.acquire();
      b.commit();
    });
  }
};
struct WaitOnlyOnFirstIter {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto& d) {
      d.first_iter([&] { b.wait(); });
      auto v = ts::work<&Buf::take>(b);
      ts::work<&Dst::store>(out, v);
      b.release();
    });
  }
};
struct TryNotFollowed {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.try_acquire();
      auto v = ts::work<&Src::load>(in);
      b.acquire();
      ts::work<&Buf::put>(b, v);
      b.commit();
    });
  }
};
struct TryThenAcquire {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      auto v = ts::work<&Src::load>(in);
      ts::work<&Buf::describe>(b);  // auxiliary work: exempt from bracketing
      b.try_acquire();
      b.acquire();
      ts::work<&Buf::put>(b, v);
      b.commit();
    });
  }
};
// Head prologue fill plus the same production in the loop.
struct PrologueAndLoop {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    b.acquire();
    ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
    b.commit();
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
      b.commit();
    });
  }
};

// S6.8: an MMA task waits on the SMEM operand (TmaUmma) and issues the UMMA that
// writes the accumulator (UmmaAsync); the operand may only be released after the issue.
struct Operand : ts::MemoryResource {
  TS_HD void tma_load(ts::ProducerStage const&) const {}
};
struct Accum : ts::MemoryResource {
  TS_HD void mma(ts::ProducerStage const&) const {}
  TS_HD int read_out(ts::ConsumerStage const&) const { return 0; }
};
struct TmaLoader {
  template <class S, class In, class A>
  void operator()(S& s, In& in, A& a) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      ts::work<&Src::touch_in>(in);
      a.acquire();
      ts::work<&Operand::tma_load>(a);
      a.commit();
    });
  }
};
template <bool ReleaseEarly>
struct MmaIssuer {
  template <class S, class A, class C>
  void operator()(S& s, A& a, C& c) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      a.wait();
      c.acquire();
      if constexpr (ReleaseEarly) {
        a.release();
        ts::work<&Accum::mma>(c);
      } else {
        ts::work<&Accum::mma>(c);
        a.release();
      }
      c.commit();
    });
  }
};
struct Epilogue {
  template <class S, class C, class Out>
  void operator()(S& s, C& c, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      c.wait();
      ts::work<&Dst::store>(out, ts::work<&Accum::read_out>(c));
      c.release();
    });
  }
};

template <class PS>
auto producer_only(PS ps) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg());
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(ps, in, buf);
  auto c = ts::Task("C").warps(1, 1).reads(buf).writes(out).schedule(Consume{}, buf, out);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, quiet());
}

template <bool ReleaseEarly>
auto mma_pipeline() {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto a = ts::resource("a_smem", Operand{}, ts::PipelineConfig::tma_umma({.num_stages = 2, .num_bytes = 4096}));
  auto c = ts::resource("acc", Accum{},
                        ts::PipelineConfig::umma_async({.num_stages = 1, .consumer_group = {ts::Agent::Thread, 128}}));
  auto load = ts::Task("Load").warps(0, 1).reads(in).writes(a).schedule(TmaLoader{}, in, a);
  auto mma = ts::Task("Mma").warps(1, 1).reads(a).writes(c).schedule(MmaIssuer<ReleaseEarly>{}, a, c);
  auto epi = ts::Task("Epi").warps(4, 4).reads(c).writes(out).schedule(Epilogue{}, c, out);
  return ts::TaskManager(ts::tasks(load, mma, epi), ts::DependencyGraph{{a, {in}}, {c, {a}}, {out, {c}}}, quiet());
}

}  // namespace

// ---- S6.6 ----
TEST(VerifyBracketing, WorkBeforeAcquireRejected) {
  auto ds = diags(producer_only(WorkBeforeAcquire{}));
  auto d = find(ds, "S6.6.work-bracketing");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->step, 1);
  EXPECT_EQ(d->section, "loop");
  EXPECT_EQ(d->step_text, "buf.put()");
}

TEST(VerifyBracketing, WaitInsideFirstIterDoesNotCoverLoopWork) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg());
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(Produce{}, in, buf);
  auto c = ts::Task("C").warps(1, 1).reads(buf).writes(out).schedule(WaitOnlyOnFirstIter{}, buf, out);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, quiet());
  auto d = find(diags(tm), "S6.6.work-bracketing");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "C");
  EXPECT_EQ(d->step_text, "buf.take()");
}

TEST(VerifyBracketing, TryNotImmediatelyFollowedRejected) {
  auto d = find(diags(producer_only(TryNotFollowed{})), "S6.6.try-before-blocking");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->step_text, "buf.try_acquire()");
  EXPECT_EQ(d->expected, "acquire() as the next step");
}

TEST(VerifyBracketing, NearMissTryThenAcquireAndAuxWorkPass) {
  auto ds = diags(producer_only(TryThenAcquire{}));
  EXPECT_TRUE(ds.empty()) << all(ds);
}

// ---- S6.8 ----
TEST(VerifyDmaOrdering, ReleaseBeforeMmaIssueRejected) {
  auto ds = diags(mma_pipeline<true>());
  auto d = find(ds, "S6.8.release-before-async-read");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Mma");
  EXPECT_EQ(d->resource, "a_smem");
  EXPECT_EQ(d->step_text, "a_smem.release()");
  EXPECT_NE(d->message.find("acc.mma()"), std::string::npos);
}

TEST(VerifyDmaOrdering, NearMissReleaseAfterMmaIssuePasses) {
  auto ds = diags(mma_pipeline<false>());
  EXPECT_TRUE(ds.empty()) << all(ds);
}

// ---- S6.14 ----
TEST(VerifyHeadLoop, ProducerInHeadAndLoopWarns) {
  auto ds = diags(producer_only(PrologueAndLoop{}));
  auto d = find(ds, "S6.14.head-loop-producer-overlap");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->severity, ts::Severity::Warning);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->section, "loop");
}

namespace {
// The loop's first iteration peeled into the head: the loop starts at 1 (Peel = 1), so the
// head's stage and the loop's stages differ. Peel = 2 heads two iterations before a loop
// that still starts at 1: the second head stage is produced again by the loop.
template <int Heads>
struct PeeledFirstIteration {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    for (int i = 0; i < Heads; ++i) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
      b.commit();
    }
    s.domain_loop(1LL, 8LL, 1LL, [&](auto&) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
      b.commit();
    });
  }
};
}  // namespace

TEST(VerifyHeadLoop, PeeledFirstIterationDoesNotWarn) {
  auto ds = diags(producer_only(PeeledFirstIteration<1>{}));
  EXPECT_FALSE(has(ds, "S6.14")) << all(ds);
}

TEST(VerifyHeadLoop, NearMissHeadBeyondThePeeledIterationsWarns) {
  auto ds = diags(producer_only(PeeledFirstIteration<2>{}));
  auto d = find(ds, "S6.14.head-loop-producer-overlap");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "buf");
}

TEST(VerifyHeadLoop, NearMissLoopOnlyProducerDoesNotWarn) {
  EXPECT_FALSE(has(diags(producer_only(Produce{})), "S6.14"));
}

namespace {
// Per-tile accumulator pattern: acquire in the head, producer work in the loop, commit in
// the tail. Not an overlap.
struct AccumulateAcrossLoop {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    b.acquire();
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) { ts::work<&Buf::put>(b, ts::work<&Src::load>(in)); });
    b.commit();
  }
};
}  // namespace

TEST(VerifyHeadLoop, NearMissHeadAcquireWithLoopWorkDoesNotWarn) {
  auto ds = diags(producer_only(AccumulateAcrossLoop{}));
  EXPECT_FALSE(has(ds, "S6.14")) << all(ds);
  EXPECT_FALSE(has(ds, "S6.6")) << all(ds);
}
