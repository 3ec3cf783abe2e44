// S6.10 arrival counts and bytes, S6.11 leader-routed bytes, S6.12 interleaving,
// S6.13 cluster layouts, S6.19 ping-pong, S6.20 split-consumer override.
#include "ring_loops.hpp"

using namespace vt;

namespace {

template <long long Start, long long Step>
using StridedProduce = ProduceLoop<Start, 8, Step>;
using TmaProduce = TmaFillLoop<8>;
using WaitOnly = ConsumeLoop<0, 8, 1, true>;
struct ReleaseOnly {
  template <class S, class B>
  void operator()(S& s, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) { b.release(); });
  }
};
// Both sides of a ping-pong resource in one task.
struct BothSides {
  template <class S, class In, class B, class Out>
  void operator()(S& s, In& in, B& b, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
      b.commit();
      b.wait();
      ts::work<&Dst::store>(out, ts::work<&Buf::take>(b));
      b.release();
    });
  }
};

struct Ring : ts::MemoryResource {
  ts::SmemArray<int> data;
  void declare_allocations(ts::Allocations& a) { a.smem("data", data, 2 * 256); }  // 1 KB per stage
  TS_HD void fill(ts::ProducerStage const&) const {}
  TS_HD int take(ts::ConsumerStage const&) const { return 0; }
};
struct Load {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      ts::work<&Src::touch_in>(in);
      b.acquire();
      ts::work<&Ring::fill>(b);
      b.commit();
    });
  }
};
struct Use {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.wait();
      ts::work<&Dst::store>(out, ts::work<&Ring::take>(b));
      b.release();
    });
  }
};

// Producer P (pwarps) and consumer C (cwarps) through `buf` with the given config.
template <class PS = Produce>
auto pair(ts::PipelineConfig cfg, int pwarps, int cwarps, PS ps = {}, bool ping_pong = false) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, cfg);
  auto p = ts::Task("P").warps(0, pwarps).reads(in).writes(buf).schedule(ps, in, buf);
  auto c = ts::Task("Epilogue").warps(pwarps, cwarps).reads(buf).writes(out).schedule(Consume{}, buf, out);
  ts::DependencyGraph g = ping_pong ? ts::DependencyGraph{{buf, {buf, in}}, {out, {buf}}}
                                    : ts::DependencyGraph{{buf, {in}}, {out, {buf}}};
  return ts::TaskManager(ts::tasks(p, c), g, quiet());
}

ts::PipelineConfig interleaved(ts::InterleaveStride st, int stages = 4, bool adv_acq = false) {
  return ts::PipelineConfig::async_async({.num_stages = stages,
                                          .producer_group = {ts::Agent::Thread, 32},
                                          .consumer_group = {ts::Agent::Thread, 32},
                                          .interleave_stride = st,
                                          .advance_on_acquire = adv_acq});
}

}  // namespace

// ---- S6.10 ----
TEST(VerifyArrivals, FourWarpEpilogueWithThirtyTwoThreadGroupRejected) {
  auto ds = diags(pair(async_cfg(2, {ts::Agent::Thread, 32}, {ts::Agent::Thread, 32}), 1, 4));
  auto d = find(ds, "S6.10.empty-arrivals");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Epilogue");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->expected, "128");
  EXPECT_EQ(d->actual, "32");
  EXPECT_EQ(d->step_text, "buf.release()");
  EXPECT_NE(d->hint.find("{ts::Agent::Thread, 128}"), std::string::npos);
}

TEST(VerifyArrivals, NearMissFourWarpEpilogueWithMatchingGroupsPasses) {
  auto ds = diags(pair(async_cfg(2, {ts::Agent::Thread, 32}, {ts::Agent::Thread, 128}), 1, 4));
  EXPECT_TRUE(ds.empty()) << all(ds);
  auto leader = ts::PipelineConfig::async_async({.num_stages = 2,
                                                 .producer_group = {ts::Agent::Thread, 32},
                                                 .consumer_group = {ts::Agent::Warp, 4},
                                                 .consumer_signal = ts::Signal::TaskWarpLeader});
  ds = diags(pair(leader, 1, 4));
  EXPECT_TRUE(ds.empty()) << all(ds);
}

TEST(VerifyArrivals, ProducerGroupTooLargeRejected) {
  auto d = find(diags(pair(async_cfg(2, {ts::Agent::Warp, 2}, {ts::Agent::Thread, 32}), 1, 1)), "S6.10.full-arrivals");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->expected, "32");
  EXPECT_EQ(d->actual, "64");
  EXPECT_EQ(d->step_text, "buf.commit()");
}

TEST(VerifyArrivals, DeclaredCountsFollowTheContract) {
  auto a = ts::PipelineConfig::async_async({.producer_group = {ts::Agent::Thread, 100},
                                            .consumer_group = {ts::Agent::Warp, 3},
                                            .producer_signal = ts::Signal::CtaLeader | ts::Signal::TaskWarpLeader,
                                            .consumer_signal = ts::Signal::All});
  EXPECT_EQ(a.declared_full_arrivals(), 4);
  EXPECT_EQ(a.declared_empty_arrivals(), 96);
  auto t = ts::PipelineConfig::tma_async({.num_bytes = 64, .consumer_group = {ts::Agent::Thread, 64},
                                          .consumer_signal = ts::Signal::CtaLeader});
  EXPECT_EQ(t.declared_full_arrivals(), 1);
  EXPECT_EQ(t.declared_empty_arrivals(), 1);
  EXPECT_EQ(ts::PipelineConfig::umma_umma({}).declared_empty_arrivals(), 1);
}

TEST(VerifyArrivals, TmaBytesBeyondStageStorageRejected) {
  auto make = [](int bytes) {
    auto in = ts::resource("in", Src{});
    auto out = ts::resource("out", Dst{});
    auto ring = ts::resource("ring", Ring{}, ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = bytes,
                                                                            .consumer_group = {ts::Agent::Thread, 32}}));
    auto p = ts::Task("Load").warps(0, 1).reads(in).writes(ring).schedule(Load{}, in, ring);
    auto c = ts::Task("Use").warps(1, 1).reads(ring).writes(out).schedule(Use{}, ring, out);
    return diags(ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, quiet()));
  };
  auto d = find(make(4096), "S6.10.tx-bytes-exceed-stage");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "ring");
  EXPECT_EQ(d->expected, "<= 1024");
  EXPECT_EQ(d->actual, "4096");
  auto ok = make(1024);
  EXPECT_TRUE(ok.empty()) << all(ok);
}

// ---- S6.11 ----
TEST(VerifyLeaderRouted, BytesNotPerWarpTimesWarpsTimesCtasRejected) {
  auto cfg = ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 8192,
                                            .consumer_group = {ts::Agent::Thread, 32},
                                            .num_bytes_per_warp_per_cta = 1024,
                                            .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 1, 1}});
  auto ds = diags(pair(cfg, 2, 1, TmaProduce{}));
  auto d = find(ds, "S6.11.leader-routed-bytes");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->expected, "4096");  // 1024 B x 2 warps x 2 CTAs
  EXPECT_EQ(d->actual, "8192");
}

TEST(VerifyLeaderRouted, NearMissMatchingBytesPasses) {
  auto cfg = ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 4096,
                                            .consumer_group = {ts::Agent::Thread, 32},
                                            .num_bytes_per_warp_per_cta = 1024,
                                            .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 1, 1}});
  auto ds = diags(pair(cfg, 2, 1, TmaProduce{}));
  EXPECT_TRUE(ds.empty()) << all(ds);
}

// ---- S6.12 ----
TEST(VerifyInterleave, StrideNotDividingStagesRejected) {
  auto ds = diags(pair(interleaved(3), 3, 3));
  auto d = find(ds, "S6.12.stride-divides-stages");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->expected, "a divisor of 4");
  EXPECT_EQ(d->actual, "3");
}

TEST(VerifyInterleave, WarpLaneNeedsStrideWarps) {
  auto ds = diags(pair(interleaved(2), 1, 2));
  auto d = find(ds, "S6.12.warp-lane-warps");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->expected, "2 warps");
  EXPECT_EQ(d->actual, "1 warps");
}

// Warp-lane mode with stride warps on both sides: each warp is one lane (the backends
// start warp w's counters at stage w; tests/warp_lane_test.cpp has the mode's rules).
TEST(VerifyInterleave, NearMissWarpLaneWithStrideWarpsPasses) {
  auto ds = diags(pair(interleaved(2), 2, 2));
  EXPECT_FALSE(has(ds, "S6.12")) << all(ds);
}

TEST(VerifyInterleave, DomainLaneStepMustEqualStride) {
  auto ds = diags(pair(interleaved(ts::InterleaveStride(2, 2, 1, 1)), 1, 1, StridedProduce<0, 4>{}));
  auto d = find(ds, "S6.12.domain-lane-step");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "P");
  EXPECT_EQ(d->expected, "step 2");
  EXPECT_EQ(d->actual, "step 4");
  auto s = find(diags(pair(interleaved(ts::InterleaveStride(2, 2, 1, 1)), 1, 1, StridedProduce<3, 2>{})),
                "S6.12.domain-lane-start");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->expected, "start in [0, 2)");
}

TEST(VerifyInterleave, NearMissDomainLanePasses) {
  auto ds = diags(pair(interleaved(ts::InterleaveStride(2, 2, 1, 1)), 1, 1, StridedProduce<1, 2>{}));
  EXPECT_FALSE(has(ds, "S6.12")) << all(ds);
}

TEST(VerifyInterleave, AsymmetricStridesNeedAdvanceAndSeparateTasks) {
  auto ds = diags(pair(interleaved(ts::InterleaveStride(2, 1, 1, 1)), 2, 1));
  auto d = find(ds, "S6.12.asymmetric-needs-advance");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->expected, "advance_on_acquire = true");
  auto t = find(ds, "S6.12.asymmetric-same-task");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->task, "P");
}

TEST(VerifyInterleave, TypeAndSideRestrictions) {
  auto umma = ts::PipelineConfig::umma_umma({.num_stages = 2});
  umma.interleave_stride = 2;
  auto clustered = ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = 64,
                                                  .consumer_group = {ts::Agent::Thread, 64},
                                                  .interleave_stride = 2,
                                                  .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 1, 1}});
  auto async_umma = ts::PipelineConfig::async_umma({.num_stages = 2});
  async_umma.interleave_stride = ts::InterleaveStride(1, 1, 2, 2);
  EXPECT_TRUE(has(diags(pair(umma, 2, 2)), "S6.12.type-forbids-interleave"));
  EXPECT_TRUE(has(diags(pair(clustered, 2, 2, TmaProduce{})), "S6.12.tma-interleave-clustered"));
  auto side = find(diags(pair(async_umma, 2, 2)), "S6.12.side-forbids-interleave");
  ASSERT_TRUE(side);
  EXPECT_EQ(side->actual, "2/2");
}

// ---- S6.13 ----
TEST(VerifyClusterLayout, MismatchedLayoutsRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto a = ts::resource("a", Buf{}, ts::PipelineConfig::tma_umma({.num_bytes = 64, .cta_layout_vmnk = {2, 1, 1, 1}}));
  auto b = ts::resource("b", Buf{}, ts::PipelineConfig::tma_umma({.num_bytes = 64, .cta_layout_vmnk = {1, 2, 1, 1}}));
  auto t = ts::Task("T").warps(0, 1).reads(in).writes(out).schedule(Produce{}, in, a);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{a, {in}}, {b, {in}}}, quiet());
  auto d = find(diags(tm), "S6.13.cta-layout-mismatch");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "b");
  EXPECT_EQ(d->expected, "{2,1,1,1}");
  EXPECT_EQ(d->actual, "{1,2,1,1}");
}

TEST(VerifyClusterLayout, NearMissSameLayoutAndLocalOnesPass) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto a = ts::resource("a", Buf{}, ts::PipelineConfig::tma_umma({.num_bytes = 64, .cta_layout_vmnk = {2, 1, 1, 1}}));
  auto b = ts::resource("b", Buf{}, ts::PipelineConfig::tma_umma({.num_bytes = 64, .cta_layout_vmnk = {2, 1, 1, 1}}));
  auto c = ts::resource("c", Buf{}, ts::PipelineConfig::umma_umma({}));
  auto t = ts::Task("T").warps(0, 1).reads(in).writes(out).schedule(Produce{}, in, a);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{a, {in}}, {b, {in}}, {c, {in}}}, quiet());
  EXPECT_FALSE(has(diags(tm), "S6.13"));
}

// ---- S6.19 ----
TEST(VerifyPingPong, NeedsPipelineAsyncConsumerAndTwoSides) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto plain = ts::resource("plain", Buf{});
  auto t = ts::Task("T").warps(0, 1).reads(in, plain).writes(out, plain).schedule(BothSides{}, in, plain, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{plain, {plain, in}}, {out, {plain}}}, quiet());
  auto d = find(diags(tm), "S6.19.ping-pong-needs-pipeline");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "plain");

  auto umma_consumer = ts::PipelineConfig::async_umma({.num_stages = 2, .producer_group = {ts::Agent::Thread, 32}});
  auto a = find(diags(pair(umma_consumer, 1, 1, Produce{}, true)), "S6.19.ping-pong-async-consumer");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->actual, "AsyncUmma");

  auto in2 = ts::resource("in", Src{});
  auto out2 = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg());
  auto one = ts::Task("Solo").warps(0, 1).reads(in2, buf).writes(out2, buf).schedule(BothSides{}, in2, buf, out2);
  auto tm2 = ts::TaskManager(ts::tasks(one), ts::DependencyGraph{{buf, {buf, in2}}, {out2, {buf}}}, quiet());
  auto s = find(diags(tm2), "S6.19.ping-pong-two-sides");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->resource, "buf");
}

TEST(VerifyPingPong, NearMissTwoTaskPingPongPasses) {
  auto ds = diags(pair(async_cfg(), 1, 1, Produce{}, true));
  EXPECT_TRUE(ds.empty()) << all(ds);
}

// ---- S6.20 ----
TEST(VerifySplitConsumer, OverrideWithoutSplitRejected) {
  auto cfg = ts::PipelineConfig::async_async({.producer_group = {ts::Agent::Thread, 32},
                                              .consumer_group = {ts::Agent::Thread, 32},
                                              .wait_signal_override = ts::Signal::CtaLeader});
  auto d = find(diags(pair(cfg, 1, 1)), "S6.20.override-without-split");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Epilogue");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->step_text, "buf.wait()");
}

TEST(VerifySplitConsumer, NearMissSplitConsumerPasses) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, ts::PipelineConfig::async_async({.producer_group = {ts::Agent::Thread, 32},
                                                                         .consumer_group = {ts::Agent::Thread, 32},
                                                                         .wait_signal_override = ts::Signal::CtaLeader}));
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(Produce{}, in, buf);
  auto w = ts::Task("Waiter").warps(1, 1).reads(buf).writes(out).schedule(WaitOnly{}, buf, out);
  auto r = ts::Task("Releaser").warps(2, 1).reads(buf).schedule(ReleaseOnly{}, buf);
  auto tm = ts::TaskManager(ts::tasks(p, w, r), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, quiet());
  auto ds = diags(tm);
  EXPECT_TRUE(ds.empty()) << all(ds);
}
