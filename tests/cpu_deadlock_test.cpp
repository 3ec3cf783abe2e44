// The emulator never hangs: when every unfinished thread is blocked it stops with a
// report naming, per blocked warp, the task, resource, operation, stage and phase.
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {
struct Src : ts::MemoryResource {
  int32_t value(ts::ConsumerStage const& si) const { return int32_t(si.loop_offset); }
};
struct Sink : ts::MemoryResource {
  void put(ts::ProducerStage const&, int32_t) const {}
};
struct Ring : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, 64, 128); }
  void write(ts::ProducerStage const& si, int32_t v) const {
    ts::arch::smem_store(buf.ptr(si.context) + si.stage_idx * 32 + si.thread.lane(), v);
  }
  int32_t read(ts::ConsumerStage const& si) const {
    return ts::arch::smem_load(buf.ptr(si.context) + si.stage_idx * 32 + si.thread.lane());
  }
};
}  // namespace
TS_WORK_SLOTS(&Src::value, ts::Slot<int32_t>{"v", 0, "value"});
TS_WORK_SLOTS(&Ring::read, ts::Slot<int32_t>{"v", 0, "value"});
namespace {

struct Fill {
  template <class S, class In, class R>
  void operator()(S& s, In& in, R& ring) const {
    s.domain_loop(0, 6, 1, [&](auto&) {
      ring.acquire();
      auto v = ts::work<&Src::value>(in);
      ts::work<&Ring::write>(ring, v);
      ring.commit();
    });
  }
};
template <bool kTwice>
struct Drain {
  template <class S, class R, class Out>
  void operator()(S& s, R& ring, Out& out) const {
    s.domain_loop(0, 6, 1, [&](auto&) {
      ring.wait();
      if constexpr (kTwice) ring.wait();  // the bug: a second wait on the next stage
      auto v = ts::work<&Ring::read>(ring);
      ts::work<&Sink::put>(out, v);
      ring.release();
      if constexpr (kTwice) ring.release();
    });
  }
};

template <bool kTwice>
auto make(int consumer_threads, ts::Options options = quiet()) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Sink{});
  auto ring = ts::resource("ring", Ring{},
                           ts::PipelineConfig::async_async({.num_stages = 2,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, consumer_threads}}));
  auto p = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(Fill{}, in, ring);
  auto c = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(Drain<kTwice>{}, ring, out);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, options);
}

ts::cpu::BlockedWarp const* find(ts::cpu::DeadlockError const& e, std::string const& task) {
  for (auto const& b : e.blocked())
    if (b.task == task) return &b;
  return nullptr;
}
}  // namespace

TEST(CpuDeadlock, WrongArrivalCountIsReported) {
  // The empty barriers expect 64 arrivals but only one 32-thread warp releases. The
  // static arrival check (S6.10) catches the declared count; warning_mode keeps the
  // mistake runnable so the emulator's own detection (a reported deadlock) is shown too.
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto tm = make<false>(64, warnings_only());
    std::ostringstream warnings;
    auto rep = tm.print_and_verify(warnings);
    ASSERT_TRUE(has_warning(rep, "S6.10.empty-arrivals")) << check_ids(rep);
    ASSERT_TRUE(tm.verified());  // warning_mode: run() accepts it with require_verified on
    try {
      ts::cpu::run(tm, {.seed = seed});
      ADD_FAILURE() << "expected a deadlock";
    } catch (ts::cpu::DeadlockError const& e) {
      auto const* p = find(e, "Producer");
      ASSERT_NE(p, nullptr) << e.what();
      EXPECT_EQ(p->resource, "ring");
      EXPECT_EQ(p->op, "acquire");
      EXPECT_EQ(p->stage, 0);
      EXPECT_EQ(p->phase, 1u);
      std::string msg = e.what();
      EXPECT_NE(msg.find("task 'Producer'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("ring.acquire() at stage 0 phase 1"), std::string::npos) << msg;
      EXPECT_NE(msg.find("ring.empty[0]"), std::string::npos) << msg;
      EXPECT_NE(msg.find("32 of 64 arrivals"), std::string::npos) << msg;
    }
  }
}

TEST(CpuDeadlock, ConsumerWaitingTwiceIsReported) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto tm = make<true>(32);
    // The checker finds the deadlock too (UNSAFE throws by default); the emulator runs it anyway.
    EXPECT_THROW(tm.print_and_verify(), ts::VerificationError);
    try {
      ts::cpu::run(tm, {.seed = seed, .require_verified = false});
      ADD_FAILURE() << "expected a deadlock";
    } catch (ts::cpu::DeadlockError const& e) {
      auto const* c = find(e, "Consumer");
      ASSERT_NE(c, nullptr) << e.what();
      EXPECT_EQ(c->resource, "ring");
      EXPECT_EQ(c->op, "wait");
      EXPECT_EQ(c->stage, 0);
      EXPECT_EQ(c->phase, 1u);
      EXPECT_NE(std::string(e.what()).find("ring.wait() at stage 0 phase 1"), std::string::npos) << e.what();
    }
  }
}

namespace {
struct TmaStage : ts::MemoryResource {
  ts::SmemArray<int32_t> buf;
  int32_t const* src = nullptr;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, 32, 128); }
  void fill(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task == 0) ts::arch::bulk_copy_g2s(buf.ptr(si.context), src, 128, si.barrier);
  }
};
struct TmaFill1 {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 6, 1, [&](auto&) {
      r.acquire();
      ts::work<&TmaStage::fill>(r);
      r.commit();
    });
  }
};
struct Drain1 {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 6, 1, [&](auto&) {
      r.wait();
      r.release();
    });
  }
};
}  // namespace

TEST(CpuDeadlock, TmaCommitKeepsIndependentLanesInStep) {
  // Without lane reconvergence a non-signalling lane of a CtaLeader (TMA) producer could
  // fall two phases behind its empty barrier, and some seeds hung (this test counted
  // those deadlocks while the TMA commit signalled nothing). The commit now converges the
  // task before its leader's arrival, so even independently scheduled lanes stay within
  // a phase of each other: every seed runs clean.
  std::vector<int32_t> g(32, 1);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto ring = ts::resource("ring", TmaStage{{}, {}, g.data()},
                             ts::PipelineConfig::tma_async({.num_stages = 1,
                                                            .num_bytes = 128,
                                                            .producer_group = {ts::Agent::Thread, 1},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
    auto p = ts::Task("Producer").warps(0, 1).writes(ring).schedule(TmaFill1{}, ring);
    auto c = ts::Task("Consumer").warps(1, 1).reads(ring).schedule(Drain1{}, ring);
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {}}}, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.seed = seed});
    EXPECT_NO_THROW(ts::cpu::run(tm, {.seed = seed, .converged_warps = false})) << "seed " << seed;
  }
}
