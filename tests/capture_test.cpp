// The recorded IR of every schedule construct (SPEC S4), and capture-time errors.
#include <gtest/gtest.h>

#include <functional>

#include "test_resources.hpp"

using namespace tst;
using ts::ir::BlockKind;
using ts::ir::Section;
using ts::SyncOp;

namespace {

ts::ir::ScheduleIR const& sched(ts::Model const& m) { return m.tasks.at(0).schedule; }

std::vector<SyncOp> kinds(ts::ir::ScheduleIR const& s) {
  std::vector<SyncOp> k;
  for (auto const& st : s.steps) k.push_back(st.kind);
  return k;
}

}  // namespace

// ---- domain_loop bounds and unroll ----
struct StaticLoop {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 8, 2, [&](auto&) { ts::work<&Dst::put>(b, ts::work<&Src::get>(a)); });
  }
};
TEST(Capture, StaticDomainLoop) {
  auto m = record_src_dst(StaticLoop{});
  auto const& s = sched(m);
  ASSERT_EQ(s.domain_loop, 1);
  auto const& b = s.blocks[1];
  EXPECT_EQ(b.kind, BlockKind::DomainLoop);
  EXPECT_EQ(b.start.kind, ts::ir::Bound::Kind::Static);
  EXPECT_EQ(b.end.value, 8);
  EXPECT_EQ(b.step.value, 2);
  ASSERT_TRUE(b.unroll.has_value());
  EXPECT_EQ(*b.unroll, 1);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].method, "tst::Src::get");
  EXPECT_EQ(s.steps[0].role, ts::WorkRole::Consumer);
  EXPECT_EQ(s.steps[1].role, ts::WorkRole::Producer);
  EXPECT_EQ(s.steps[1].reads_slots, std::vector<int>{0});
  EXPECT_EQ(s.steps[0].writes_slots, std::vector<int>{0});
  EXPECT_EQ(s.steps[0].section, Section::Loop);
}

struct RuntimeLoop {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(s.global_thread(), a->n, s.grid_threads(), ts::unroll<4>,
                  [&](auto&) { ts::work<&Dst::put>(b, ts::work<&Src::get>(a)); });
  }
};
TEST(Capture, RuntimeBoundsAndUnroll) {
  auto m = record_src_dst(RuntimeLoop{});
  auto const& b = sched(m).blocks[1];
  EXPECT_EQ(b.start.kind, ts::ir::Bound::Kind::Runtime);
  EXPECT_FALSE(b.start.value_known);
  EXPECT_EQ(b.start.expr, "((block_idx*32)+thread)");
  EXPECT_EQ(b.end.kind, ts::ir::Bound::Kind::Static);  // a host-known resource field is baked in
  EXPECT_EQ(b.end.value, 8);
  EXPECT_EQ(b.step.expr, "(grid_blocks*32)");
  EXPECT_EQ(*b.unroll, 4);
}

struct CompilerChoiceUnroll {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    s.domain_loop(0, ts::runtime(100, "num_items"), 1, ts::unroll_compiler_choice,
                  [&](auto&) { ts::work<&Src::get>(a); });
  }
};
TEST(Capture, RuntimeValueAndCompilerChoiceUnroll) {
  auto m = record_src_dst(CompilerChoiceUnroll{});
  auto const& b = sched(m).blocks[1];
  EXPECT_EQ(b.end.kind, ts::ir::Bound::Kind::Runtime);
  EXPECT_TRUE(b.end.value_known);
  EXPECT_EQ(b.end.value, 100);
  EXPECT_EQ(b.end.expr, "num_items");
  EXPECT_FALSE(b.unroll.has_value());
}

struct PerTileLoop {
  template <class S, class A, class B, class Q>
  void operator()(S& s, A& a, B& b, Q& q) const {
    s.work_tile_loop(q, [&](auto&) {
      s.domain_loop(0, ts::per_tile<&Src::length>(a), 1, [&](auto&) { ts::work<&Dst::put>(b, ts::work<&Src::get>(a)); });
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    });
  }
};
TEST(Capture, PerTileBoundAndQueueEpilogue) {
  auto src = ts::resource("src", Src{});
  auto dst = ts::resource("dst", Dst{});
  auto q = ts::resource("wq", Queue{{10}});
  auto t = ts::Task("T").warps(0, 1).reads(src, q).writes(dst).schedule(PerTileLoop{}, src, dst, q);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{dst, {src}}}, quiet());
  auto const& s = tm.model().tasks[0].schedule;
  ASSERT_EQ(s.work_tile_loop, 1);
  ASSERT_EQ(s.domain_loop, 2);
  EXPECT_EQ(s.blocks[1].queue_resource, tm.model().find_resource("wq"));
  EXPECT_EQ(s.blocks[1].skip_if.form, ts::ir::SkipIf::Form::None);
  auto const& end = s.blocks[2].end;
  EXPECT_EQ(end.kind, ts::ir::Bound::Kind::PerTile);
  EXPECT_EQ(end.expr, "tst::Src::length(tile)");
  EXPECT_EQ(end.provider_resource, tm.model().find_resource("src"));
  EXPECT_EQ(kinds(s), (std::vector<SyncOp>{SyncOp::Work, SyncOp::Work, SyncOp::TryWait, SyncOp::Wait,
                                             SyncOp::Advance, SyncOp::Release}));
  EXPECT_EQ(s.steps[2].section, Section::Tail);
  EXPECT_EQ(s.steps[4].block, 1);  // epilogue sits in the tile loop body
}

// ---- iteration guards ----
struct Guards {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 16, 1, [&](auto& d) {
      d.first_iter([&] { ts::work<&Dst::reset>(b); });
      d.every(4, 1, [&] { ts::work<&Src::count>(a); });
      d.every(2, [&] { ts::work<&Src::count>(a); });
      d.last_iter([&] { ts::work<&Dst::reset>(b); });
    });
  }
};
TEST(Capture, IterationGuards) {
  auto m = record_src_dst(Guards{});
  auto const& s = sched(m);
  ASSERT_EQ(s.blocks.size(), 6u);
  EXPECT_EQ(s.blocks[2].kind, BlockKind::FirstIter);
  EXPECT_EQ(s.blocks[3].kind, BlockKind::Every);
  EXPECT_EQ(s.blocks[3].period, 4);
  EXPECT_EQ(s.blocks[3].every_start, 1);
  EXPECT_EQ(s.blocks[4].period, 2);
  EXPECT_EQ(s.blocks[4].every_start, 0);
  EXPECT_EQ(s.blocks[5].kind, BlockKind::LastIter);
  for (int b = 2; b <= 5; ++b) EXPECT_EQ(s.blocks[b].loop_block, 1);
  EXPECT_EQ(s.steps[0].block, 2);
  EXPECT_EQ(s.steps[0].role, ts::WorkRole::Auxiliary);
}

// ---- runtime conditions ----
struct Conditions {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 4, 1, [&](auto&) {
      auto f = ts::work<&Src::flag>(a);
      auto c = ts::work<&Src::count>(a);
      auto [g1, g2] = ts::work<&Src::two>(a);
      s.when_true(f, [&] { ts::work<&Dst::reset>(b); });
      s.when_false(c, [&] { ts::work<&Dst::reset>(b); });
      s.when_true(g1, ts::Key{"shared_flag"}, [&] { ts::work<&Dst::put>(b, g2); });
    });
  }
};
TEST(Capture, WhenTrueWhenFalseKeysAndMultipleGuards) {
  auto m = record_src_dst(Conditions{});
  auto const& s = sched(m);
  ASSERT_EQ(s.slots.size(), 4u);
  EXPECT_EQ(s.slots[0].type, "bool");
  EXPECT_EQ(s.slots[1].type, "int");
  // One work step produced two guard values: two slots of the same step.
  EXPECT_EQ(s.slots[2].producer_step, 2);
  EXPECT_EQ(s.slots[3].producer_step, 2);
  EXPECT_EQ(s.slots[3].result_index, 1);
  EXPECT_EQ(s.steps[2].writes_slots, (std::vector<int>{2, 3}));
  auto const& wt = s.blocks[2];
  EXPECT_EQ(wt.kind, BlockKind::WhenTrue);
  EXPECT_EQ(wt.cond_slot, 0);
  EXPECT_EQ(wt.cond_key, "src.flag.0");
  EXPECT_FALSE(wt.key_explicit);
  auto const& wf = s.blocks[3];
  EXPECT_EQ(wf.kind, BlockKind::WhenFalse);
  EXPECT_EQ(wf.cond_slot, 1);
  auto const& keyed = s.blocks[4];
  EXPECT_EQ(keyed.cond_key, "shared_flag");
  EXPECT_TRUE(keyed.key_explicit);
  EXPECT_EQ(keyed.cond_slot, 2);
  EXPECT_EQ(s.steps.back().reads_slots, std::vector<int>{3});
}

// ---- work-tile loop, skip_if forms, skippable, scheduler sequence ----
template <class Skip>
struct SkipSchedule {
  Skip skip;
  template <class S, class A, class Q>
  void operator()(S& s, A& a, Q& q) const {
    s.work_tile_loop(q, skip, [&](auto& wt) {
      wt.skippable([&] { s.domain_loop(0, 2, 1, [&](auto&) { ts::work<&Src::get>(a); }); });
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    });
  }
};
template <class Skip>
ts::Model record_skip(Skip skip) {
  auto src = ts::resource("src", Src{});
  auto q = ts::resource("wq", Queue{{4}});
  auto t = ts::Task("T").warps(0, 1).reads(src, q).schedule(SkipSchedule<Skip>{skip}, src, q);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet()).model();
}
TEST(Capture, SkipIfForms) {
  auto m1 = record_skip(ts::skip_if<&Queue::skip_tile>);
  auto const& b1 = sched(m1).blocks[1];
  EXPECT_EQ(b1.skip_if.form, ts::ir::SkipIf::Form::QueueMethod);
  EXPECT_EQ(b1.skip_if.name, "tst::Queue::skip_tile");
  auto m2 = record_skip(ts::skip_if<&skip_fn_queue_tile>);
  EXPECT_EQ(sched(m2).blocks[1].skip_if.form, ts::ir::SkipIf::Form::FunctionQueueTile);
  auto m3 = record_skip(ts::skip_if<&skip_fn_tile>);
  EXPECT_EQ(sched(m3).blocks[1].skip_if.form, ts::ir::SkipIf::Form::FunctionTile);
  auto m4 = record_skip(ts::skip_if<&Src::length_is_zero_tile>);
  EXPECT_EQ(sched(m4).blocks[1].skip_if.form, ts::ir::SkipIf::Form::ForeignMethod);
  // skippable holds the domain loop; the epilogue stays outside.
  auto const& s = sched(m1);
  EXPECT_EQ(s.blocks[2].kind, BlockKind::Skippable);
  EXPECT_EQ(s.blocks[3].kind, BlockKind::DomainLoop);
  EXPECT_EQ(s.blocks[3].parent, 2);
  EXPECT_EQ(s.steps[1].block, 1);
}

struct Scheduler {
  template <class S, class Q>
  void operator()(S& s, Q& q) const {
    s.work_tile_loop(q, [&](auto&) {
      q.try_acquire();
      q.acquire();
      q.fetch_work_tile();
      q.commit();
      q.try_wait();
      q.wait();
      q.get_and_advance_work_tile();
      q.release();
    });
  }
};
struct DynQueue : Queue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 2});
};
TEST(Capture, SchedulerTaskSequence) {
  auto q = ts::resource("wq", DynQueue{Queue{{4}}});
  auto t = ts::Task("Sched").warps(0, 1).reads(q).writes(q).schedule(Scheduler{}, q);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet());
  auto const& s = tm.model().tasks[0].schedule;
  EXPECT_EQ(kinds(s), (std::vector<SyncOp>{SyncOp::TryAcquire, SyncOp::Acquire, SyncOp::Fetch,
                                             SyncOp::Commit, SyncOp::TryWait, SyncOp::Wait,
                                             SyncOp::Advance, SyncOp::Release}));
  EXPECT_EQ(tm.model().resource(0).pipeline->num_bytes, 16);
}

// ---- sections, trace-time unrolling with compile-time arguments, break ----
struct Sections {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    ts::work<&Dst::reset>(b);  // head
    s.domain_loop(0, 4, 1, [&](auto& d) {
      auto v = ts::work<&Src::flag>(a);
      s.when_true(v, [&] { d.break_loop(); });
      ts::work<&Src::get>(a);
    });
    // Trace-time C++ loop: one step per call, each with its compile-time argument.
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((ts::work<&Dst::template store<I>>(b, ts::work<&Src::template load<I>>(a))), ...);
    }(std::make_integer_sequence<int, 3>{});
  }
};
TEST(Capture, SectionsCompileTimeArgsAndBreak) {
  auto m = record_src_dst(Sections{});
  auto const& s = sched(m);
  EXPECT_EQ(s.steps[0].section, Section::Head);
  EXPECT_EQ(s.steps[1].section, Section::Loop);
  EXPECT_EQ(s.steps[2].kind, SyncOp::BreakLoop);
  EXPECT_EQ(s.blocks[s.steps[2].block].kind, BlockKind::WhenTrue);
  EXPECT_EQ(s.steps[3].section, Section::Loop);
  ASSERT_EQ(s.steps.size(), 10u);
  for (int i = 0; i < 3; ++i) {
    auto const& load = s.steps[4 + 2 * i];
    auto const& store = s.steps[5 + 2 * i];
    EXPECT_EQ(load.section, Section::Tail);
    EXPECT_EQ(load.method, "tst::Src::load");
    EXPECT_EQ(load.ct_args, std::vector<std::string>{std::to_string(i)});
    EXPECT_EQ(store.ct_args, std::vector<std::string>{std::to_string(i)});
    EXPECT_EQ(store.reads_slots, load.writes_slots);
  }
}

TEST(Capture, SlotMetadataFromTsWorkSlots) {
  auto m = record_src_dst(StaticLoop{});
  auto const& slot = sched(m).slots.at(0);
  EXPECT_EQ(slot.name, "src.value");
  EXPECT_EQ(slot.type, "int");
  EXPECT_EQ(slot.default_value, "7");
  EXPECT_EQ(slot.doc, "the value read");
}

// ---- structural misuse rejected at capture ----
template <class Sched>
ts::Diagnostic capture_error(Sched s) {
  try {
    record_src_dst(s);
  } catch (ts::CaptureError const& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "expected a ts::CaptureError";
  return {};
}

struct TwoDomainLoops {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    s.domain_loop(0, 4, 1, [&](auto&) { ts::work<&Src::get>(a); });
    s.domain_loop(0, 4, 1, [&](auto&) { ts::work<&Src::get>(a); });
  }
};
TEST(CaptureErrors, SecondDomainLoop) {
  auto d = capture_error(TwoDomainLoops{});
  EXPECT_EQ(d.check, "capture.second-domain-loop");
  EXPECT_EQ(d.task, "T");
  EXPECT_NE(d.message.find("TwoDomainLoops"), std::string::npos);
  EXPECT_EQ(d.expected, "1 domain_loop");
}

struct ZeroStep {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    s.domain_loop(0, 4, 0, [&](auto&) { ts::work<&Src::get>(a); });
  }
};
TEST(CaptureErrors, ZeroStaticStep) {
  auto d = capture_error(ZeroStep{});
  EXPECT_EQ(d.check, "capture.zero-step");
  EXPECT_EQ(d.actual, "0");
}

struct GuardEscapes {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    std::function<void()> later;
    s.domain_loop(0, 4, 1, [&](auto& d) {
      ts::work<&Src::get>(a);
      later = [d]() mutable { d.first_iter([] {}); };
    });
    later();  // the loop has closed: its guard is no longer legal
  }
};
TEST(CaptureErrors, GuardOutsideItsLoop) {
  auto d = capture_error(GuardEscapes{});
  EXPECT_EQ(d.check, "capture.guard-outside-loop");
  EXPECT_EQ(d.section, "tail");
}

struct TwoTileLoops {
  template <class S, class A, class Q>
  void operator()(S& s, A&, Q& q) const {
    s.work_tile_loop(q, [&](auto&) { q.get_and_advance_work_tile(); });
    s.work_tile_loop(q, [&](auto&) { q.get_and_advance_work_tile(); });
  }
};
TEST(CaptureErrors, SecondWorkTileLoop) {
  auto src = ts::resource("src", Src{});
  auto q = ts::resource("wq", Queue{{4}});
  auto t = ts::Task("T").warps(0, 1).reads(src, q).schedule(TwoTileLoops{}, src, q);
  try {
    ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet());
    FAIL() << "expected a CaptureError";
  } catch (ts::CaptureError const& e) {
    EXPECT_EQ(e.diagnostic().check, "capture.second-work-tile-loop");
    EXPECT_EQ(e.diagnostic().resource, "wq");
  }
}

struct EveryZero {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    s.domain_loop(0, 4, 1, [&](auto& d) { d.every(0, [&] { ts::work<&Src::get>(a); }); });
  }
};
TEST(CaptureErrors, EveryPeriodZero) {
  auto d = capture_error(EveryZero{});
  EXPECT_EQ(d.check, "capture.every-period");
  EXPECT_EQ(d.expected, ">= 1");
}

struct UnwrittenToken {
  template <class S, class A, class B>
  void operator()(S& s, A&, B& b) const {
    s.domain_loop(0, 4, 1, [&](auto&) { ts::work<&Dst::put>(b, ts::Token<int>{}); });
  }
};
TEST(CaptureErrors, UnwrittenTokenArgument) {
  auto d = capture_error(UnwrittenToken{});
  EXPECT_EQ(d.check, "capture.unwritten-token");
  EXPECT_EQ(d.resource, "dst");
}

TEST(CaptureErrors, DuplicateResourceNames) {
  auto a = ts::resource("x", Src{});
  auto b = ts::resource("x", Dst{});
  auto t = ts::Task("T").warps(0, 1).reads(a).writes(b).schedule(StaticLoop{}, a, b);
  EXPECT_THROW(ts::TaskManager(ts::tasks(t), ts::DependencyGraph{}, quiet()), ts::ModelError);
}

TEST(Config, FactoriesRejectImpossibleValues) {
  EXPECT_THROW(ts::PipelineConfig::tma_async({.num_stages = 2, .num_bytes = -1}), ts::ConfigError);
  EXPECT_THROW(ts::PipelineConfig::async_async({.num_stages = 0}), ts::ConfigError);
  auto c = ts::PipelineConfig::tma_async({.num_stages = 3, .num_bytes = 4096});
  EXPECT_EQ(c.type, ts::PipelineType::TmaAsync);
  EXPECT_EQ(c.declared_full_arrivals(), 1);
  auto clc = ts::PipelineConfig::clc_fetch_async({});
  EXPECT_EQ(clc.num_bytes, 16);
  auto u = ts::PipelineConfig::umma_async({.num_stages = 2, .consumer_group = {ts::Agent::Warp, 4},
                                           .consumer_signal = ts::Signal::TaskWarpLeader});
  EXPECT_EQ(u.declared_empty_arrivals(), 4);
  EXPECT_EQ(u.declared_full_arrivals(), 1);
}

struct ContextGuardBeforeLoop {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B&) const {
    s.last_iter([&] { ts::work<&Src::get>(a); });
    s.domain_loop(0, 4, 1, [&] { ts::work<&Src::get>(a); });
  }
};
TEST(CaptureErrors, ContextFormGuardBeforeAnyLoop) {
  auto d = capture_error(ContextGuardBeforeLoop{});
  EXPECT_EQ(d.check, "capture.guard-outside-loop");
  EXPECT_EQ(d.section, "head");
}

struct ContextFormGuards {
  template <class S, class A, class B>
  void operator()(S& s, A& a, B& b) const {
    s.domain_loop(0, 4, 1, [&] {
      s.first_iter([&] { ts::work<&Dst::reset>(b); });
      s.every(2, 1, [&] { ts::work<&Src::get>(a); });
      s.last_iter([&] { s.break_loop(); });
    });
  }
};
TEST(Capture, ContextFormGuardsRecordTheSameBlocks) {
  auto m = record_src_dst(ContextFormGuards{});
  auto const& s = sched(m);
  EXPECT_EQ(s.blocks[2].kind, BlockKind::FirstIter);
  EXPECT_EQ(s.blocks[3].kind, BlockKind::Every);
  EXPECT_EQ(s.blocks[3].every_start, 1);
  EXPECT_EQ(s.blocks[4].kind, BlockKind::LastIter);
  for (int b = 2; b <= 4; ++b) EXPECT_EQ(s.blocks[b].loop_block, 1);
  EXPECT_EQ(s.steps.back().kind, SyncOp::BreakLoop);
}
