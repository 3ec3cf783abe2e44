// Pipelines declared as compile-time values of the resource type
// (`static constexpr auto pipeline = ts::async_async({...})`): the factories run in
// constant expressions (a bad value fails to compile: tests/compile_fail/config_*.cpp),
// ts::resource takes the type's config, the handle dispatches at compile time, and the
// counts the verifier can compute (groups, TMA stage bytes) are derived.
#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"
#include "ts/arch/portable.hpp"

namespace {

// ---- constant evaluation ----
constexpr auto kTma = ts::tma_async({.num_stages = 3, .consumer_signal = ts::Signal::TaskWarpLeader,
                                     .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 1, 1}});
static_assert(kTma.type == ts::PipelineType::TmaAsync);
static_assert(kTma.producer_engine() == ts::Engine::Tma && kTma.consumer_engine() == ts::Engine::Async);
static_assert(kTma.producer_signal == ts::Signal::CtaLeader);
static_assert(kTma.multicast_fan_in() == 2);
static_assert(kTma.consumer_group.derived() && kTma.num_bytes == 0);
static_assert(ts::clc_fetch_async({}).num_bytes == ts::kQueueResponseBytes);
static_assert(ts::async_async({.num_stages = 2, .producer_group = {ts::Agent::Warp, 2}}).declared_full_arrivals() == 64);

// The runtime form is only for types that declare no pipeline.
template <class T>
concept TakesRuntimeConfig = requires(T v, ts::PipelineConfig c) { ts::resource("x", v, c); };

// example 02's ring with its pipeline in the type; groups left to the verifier.
template <int Stages>
struct DeclaredRing : examples::SmemRing {
  static constexpr auto pipeline = ts::async_async({.num_stages = Stages});
};
static_assert(ts::DeclaresPipeline<DeclaredRing<4>>);
static_assert(!TakesRuntimeConfig<DeclaredRing<4>>);
static_assert(TakesRuntimeConfig<examples::SmemRing>);

template <int Stages>
auto declared_copy(examples::CopyBuffers& b) {
  using namespace examples;
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", ChunkInput{{}, b.src.data(), n});
  auto out = ts::resource("out", ChunkOutput{{}, b.dst.data(), n});
  auto ring = ts::resource("ring", DeclaredRing<Stages>{});
  auto p = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(RingProducer{}, in, ring);
  auto c = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(RingConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, cpu_test::quiet());
}

TEST(ConstexprPipeline, TheTypesConfigRunsWithDerivedGroups) {
  examples::CopyBuffers b(1000 + 17);
  auto tm = declared_copy<examples::kRingStages>(b);
  auto const& cfg = *tm.model().resource(tm.model().find_resource("ring")).pipeline;
  EXPECT_EQ(cfg.num_stages, examples::kRingStages);
  // One warp on each side, every lane arrives (Signal::All): 32 threads.
  EXPECT_EQ(cfg.producer_group, (ts::CooperativeGroup{ts::Agent::Thread, 32}));
  EXPECT_EQ(cfg.consumer_group, (ts::CooperativeGroup{ts::Agent::Thread, 32}));
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = 5, .detect_races = true});
  EXPECT_TRUE(b.matches());
}

TEST(ConstexprPipeline, OneStageRingRunsToo) {
  examples::CopyBuffers b(300);
  auto tm = declared_copy<1>(b);
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = 2, .seed = 3, .detect_races = true});
  EXPECT_TRUE(b.matches());
}

// ---- TMA stage bytes from the declared allocation ----
struct TmaRing : ts::MemoryResource {
  static constexpr auto pipeline = ts::tma_async({.num_stages = 2, .consumer_signal = ts::Signal::TaskWarpLeader});
  ts::SmemArray<int32_t> buf;
  int32_t const* src = nullptr;
  int32_t* dst = nullptr;
  void declare_allocations(ts::Allocations& a) { a.smem("buf", buf, 2 * 32, 128); }
  void fill(ts::ProducerStage const& si) const {
    if (si.thread.thread_in_task == 0)
      ts::arch::bulk_copy_g2s(buf.ptr(si.context) + 32 * si.stage_idx, src + 32 * (si.loop_offset % 4), 128,
                              si.barrier);
  }
  void drain(ts::ConsumerStage const& si) const {
    int lane = si.thread.thread_in_task;
    dst[32 * si.loop_offset + lane] = buf.ptr(si.context)[32 * si.stage_idx + lane];
  }
};
struct Fill {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 8, 1, [&](auto&) {
      r.acquire();
      ts::work<&TmaRing::fill>(r);
      r.commit();
    });
  }
};
struct Drain {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 8, 1, [&](auto&) {
      r.wait();
      ts::work<&TmaRing::drain>(r);
      r.release();
    });
  }
};

TEST(ConstexprPipeline, TmaBytesAndConsumerGroupAreDerived) {
  std::vector<int32_t> src(4 * 32), dst(8 * 32, -1);
  for (size_t i = 0; i < src.size(); ++i) src[i] = int32_t(i * 7 + 1);
  auto ring = ts::resource("ring", TmaRing{{}, {}, src.data(), dst.data()});
  auto p = ts::Task("Producer").warps(0, 1).writes(ring).schedule(Fill{}, ring);
  auto c = ts::Task("Consumer").warps(1, 1).reads(ring).schedule(Drain{}, ring);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {}}}, cpu_test::quiet());
  auto const& cfg = *tm.model().resource(0).pipeline;
  EXPECT_EQ(cfg.num_bytes, 128);  // 2 x 32 int32 of SMEM over 2 stages
  EXPECT_EQ(cfg.consumer_group, (ts::CooperativeGroup{ts::Agent::Warp, 1}));
  EXPECT_FALSE(ring.decl()->declared_pipeline->consumer_group.size);  // as written: derived
  tm.print_and_verify();
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::fill(dst.begin(), dst.end(), -1);
    ts::cpu::run(tm, {.seed = seed, .detect_races = true});
    for (int i = 0; i < 8 * 32; ++i) ASSERT_EQ(dst[i], src[(i / 32) % 4 * 32 + i % 32]) << i;
  }
}

struct NoSmemTma : ts::MemoryResource {
  static constexpr auto pipeline = ts::tma_async({.num_stages = 2});
  void fill(ts::ProducerStage const&) const {}
};
struct FillNoSmem {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 2, 1, [&](auto&) {
      r.acquire();
      ts::work<&NoSmemTma::fill>(r);
      r.commit();
    });
  }
};
struct Wait {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, 2, 1, [&](auto&) {
      r.wait();
      r.release();
    });
  }
};

TEST(ConstexprPipeline, TmaBytesWithNothingToDeriveFromAreRefused) {
  auto ring = ts::resource("ring", NoSmemTma{});
  auto p = ts::Task("Producer").warps(0, 1).writes(ring).schedule(FillNoSmem{}, ring);
  auto c = ts::Task("Consumer").warps(1, 1).reads(ring).schedule(Wait{}, ring);
  try {
    auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {}}}, cpu_test::quiet());
    FAIL() << "expected a ConfigError";
  } catch (ts::ConfigError const& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'ring'"), std::string::npos) << what;
    EXPECT_NE(what.find("no SMEM"), std::string::npos) << what;
  }
}

}  // namespace
