// S6.1 domain validity, S6.2 resource roles, S6.3-S6.5 graph/resource usage,
// S6.15 work dispatch, S6.25 capture-time structure errors.
#include "verify_fixtures.hpp"

using namespace vt;

namespace {

struct SingleCopy {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      auto v = ts::work<&Src::load>(in);
      ts::work<&Dst::store>(out, v);
    });
  }
};
struct ZeroStep {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(0LL, 8LL, 0LL, [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); });
  }
};
struct GuardOutsideLoop {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    // The loop handle escapes its loop only in this deliberately wrong capture.
    std::optional<ts::rec::DomainLoopHandle> saved;
    s.domain_loop(0LL, 8LL, 1LL, [&](auto& d) { saved.emplace(d); });
    (void)in, (void)out;
    saved->first_iter([&] {});
  }
};
struct TwoDomainLoops {
  template <class S, class In, class Out>
  void operator()(S& s, In& in, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); });
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {});
  }
};
struct TwoTileLoops {
  template <class S, class Q, class In, class Out>
  void operator()(S& s, Q& q, In& in, Out& out) const {
    s.work_tile_loop(q, [&](auto&) { ts::work<&Dst::store>(out, ts::work<&Src::load>(in)); });
    s.work_tile_loop(q, [&](auto&) {});
  }
};

template <class Sched>
auto copy_manager(Sched s) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(s, in, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
}

}  // namespace

// ---- S6.1 ----
TEST(VerifyDomain, ZeroStepRejectedAtCapture) {
  try {
    copy_manager(ZeroStep{});
    FAIL() << "expected a CaptureError";
  } catch (ts::CaptureError const& e) {
    note(e.diagnostic());
    EXPECT_EQ(e.diagnostic().check, "capture.zero-step");
    EXPECT_EQ(e.diagnostic().task, "Copy");
    EXPECT_EQ(e.diagnostic().actual, "0");
  }
}

TEST(VerifyDomain, ZeroStepRejectedInEditedModel) {
  auto tm = copy_manager(SingleCopy{});
  auto m = editable(tm);
  auto& loop = m.tasks[0].schedule.blocks[m.tasks[0].schedule.domain_loop];
  loop.step = ts::rec::to_bound(0LL);
  auto ds = diags(m);
  auto d = find(ds, "S6.1.zero-step");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->expected, "a non-zero step");
}

TEST(VerifyDomain, StepAwayFromEndRejected) {
  auto tm = copy_manager(SingleCopy{});
  auto m = editable(tm);
  m.tasks[0].schedule.blocks[m.tasks[0].schedule.domain_loop].step = ts::rec::to_bound(-1LL);
  auto d = find(diags(m), "S6.1.step-direction");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->expected, "a positive step");
}

TEST(VerifyDomain, DynamicBoundWithoutProviderRejected) {
  auto tm = copy_manager(SingleCopy{});
  auto m = editable(tm);
  auto& end = m.tasks[0].schedule.blocks[m.tasks[0].schedule.domain_loop].end;
  end.kind = ts::ir::Bound::Kind::PerTile;
  end.expr = "Offsets::domain_size(tile)";
  end.provider_resource = -1;
  auto d = find(diags(m), "S6.1.dynamic-bound-provider");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_NE(d->message.find("Offsets::domain_size"), std::string::npos);
}

TEST(VerifyDomain, NearMissStaticLoopPasses) { EXPECT_TRUE(diags(copy_manager(SingleCopy{})).empty()); }

// ---- S6.25 (capture) ----
TEST(VerifyCapture, GuardOutsideItsLoopRejected) {
  try {
    copy_manager(GuardOutsideLoop{});
    FAIL();
  } catch (ts::CaptureError const& e) {
    note(e.diagnostic());
    EXPECT_EQ(e.diagnostic().check, "capture.guard-outside-loop");
    EXPECT_EQ(e.diagnostic().task, "Copy");
    EXPECT_EQ(e.diagnostic().section, "tail");
  }
}

TEST(VerifyCapture, SecondDomainLoopRejected) {
  try {
    copy_manager(TwoDomainLoops{});
    FAIL();
  } catch (ts::CaptureError const& e) {
    note(e.diagnostic());
    EXPECT_EQ(e.diagnostic().check, "capture.second-domain-loop");
  }
}

TEST(VerifyCapture, SecondWorkTileLoopRejected) {
  auto q = ts::resource("queue", Queue{});
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  try {
    auto t = ts::Task("Copy").warps(0, 1).reads(in, q).writes(out).schedule(TwoTileLoops{}, q, in, out);
    ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
    FAIL();
  } catch (ts::CaptureError const& e) {
    note(e.diagnostic());
    EXPECT_EQ(e.diagnostic().check, "capture.second-work-tile-loop");
    EXPECT_EQ(e.diagnostic().resource, "queue");
  }
}

// ---- S6.2 ----
TEST(VerifyRoles, ProducerOpOnReadOnlyResourceRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in, out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
  auto ds = diags(tm);
  auto d = find(ds, "S6.2.producer-op-not-written");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "out");
  EXPECT_EQ(d->step, 1);
  EXPECT_EQ(d->section, "loop");
  EXPECT_EQ(d->step_text, "out.store()");
}

TEST(VerifyRoles, ConsumerOpOnWrittenResourceRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).writes(in, out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
  auto d = find(diags(tm), "S6.2.consumer-op-not-read");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "in");
  EXPECT_EQ(d->step_text, "in.load()");
}

// ---- S6.3 / S6.4 / S6.5 ----
TEST(VerifyGraph, UnusedGraphResourceAndEdgeWithoutReaderRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto extra = ts::resource("extra", Src{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in, extra}}}, quiet());
  auto ds = diags(tm);
  auto d = find(ds, "S6.3.unused-graph-resource");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "extra");
  auto e = find(ds, "S6.3.edge-without-reader");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->resource, "extra");
}

TEST(VerifyGraph, EdgeWithoutWriterRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}, {in, {out}}}, quiet());
  auto d = find(diags(tm), "S6.3.edge-without-writer");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->resource, "in");
}

TEST(VerifyGraph, UsedResourceMissingFromGraphRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet());
  auto d = find(diags(tm), "S6.4.resource-not-in-graph");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "in");
  EXPECT_EQ(d->step, 0);
}

TEST(VerifyGraph, DeclaredButUnusedResourceRejected) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto spare = ts::resource("spare", Src{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in, spare).writes(out).schedule(SingleCopy{}, in, out);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, quiet());
  auto d = find(diags(tm), "S6.5.declared-resource-unused");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->resource, "spare");
}

TEST(VerifyGraph, NearMissEveryResourceUsedPasses) {
  auto ds = diags(copy_manager(SingleCopy{}));
  EXPECT_FALSE(has(ds, "S6.3"));
  EXPECT_FALSE(has(ds, "S6.4"));
  EXPECT_FALSE(has(ds, "S6.5"));
}

// ---- S6.15 ----
TEST(VerifyDispatch, WorkStepWithoutMethodRejected) {
  auto tm = copy_manager(SingleCopy{});
  auto m = editable(tm);
  m.tasks[0].schedule.steps[1].method.clear();
  auto d = find(diags(m), "S6.15.unresolved-work");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->task, "Copy");
  EXPECT_EQ(d->step, 1);
}

TEST(VerifyDispatch, NearMissCapturedWorkResolves) {
  EXPECT_FALSE(has(diags(copy_manager(SingleCopy{})), "S6.15"));
}
