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

// Every field a factory's parameter struct holds reaches the config, and the fields the
// type fixes are fixed: the seven factories share one building path that copies fields by
// name (PipelineConfig::build), so a field it missed would be dropped without a word.
using ts::Signal;
constexpr ts::CooperativeGroup kW3{ts::Agent::Warp, 3}, kT64{ts::Agent::Thread, 64};
constexpr ts::CtaLayoutVMNK kL{1, 2, 3, 1};
constexpr auto kAA = ts::async_async({.num_stages = 5, .producer_group = kW3, .consumer_group = kT64,
                                      .producer_signal = Signal::TaskWarpLeader, .consumer_signal = Signal::CtaLeader,
                                      .wait_signal_override = Signal::TaskWarpLeader,
                                      .interleave_stride = ts::InterleaveStride(2, 3, 4, 5), .advance_on_wait = true,
                                      .advance_on_acquire = true, .async_flavor = ts::AsyncFlavor::AsyncLoad,
                                      .cta_layout_vmnk = kL});
static_assert(kAA.type == ts::PipelineType::AsyncAsync && kAA.num_stages == 5 && kAA.producer_group == kW3 &&
              kAA.consumer_group == kT64 && kAA.producer_signal == Signal::TaskWarpLeader &&
              kAA.consumer_signal == Signal::CtaLeader && kAA.wait_signal_override == Signal::TaskWarpLeader &&
              kAA.interleave_stride == ts::InterleaveStride(2, 3, 4, 5) && kAA.advance_on_wait &&
              kAA.advance_on_acquire && kAA.async_flavor == ts::AsyncFlavor::AsyncLoad && kAA.cta_layout_vmnk == kL &&
              kAA.num_bytes == 0);
constexpr auto kTA = ts::tma_async({.num_stages = 4, .num_bytes = 256, .producer_group = kW3, .consumer_group = kT64,
                                    .consumer_signal = Signal::TaskWarpLeader, .wait_signal_override = Signal::All,
                                    .num_bytes_per_warp_per_cta = 32, .interleave_stride = 2, .advance_on_wait = true,
                                    .advance_on_acquire = true, .cta_layout_vmnk = kL});
static_assert(kTA.type == ts::PipelineType::TmaAsync && kTA.num_stages == 4 && kTA.num_bytes == 256 &&
              kTA.producer_group == kW3 && kTA.consumer_group == kT64 && kTA.producer_signal == Signal::CtaLeader &&
              kTA.consumer_signal == Signal::TaskWarpLeader && kTA.wait_signal_override == Signal::All &&
              kTA.num_bytes_per_warp_per_cta == 32 && kTA.interleave_stride == ts::InterleaveStride(2) &&
              kTA.advance_on_wait && kTA.advance_on_acquire && kTA.cta_layout_vmnk == kL);
constexpr auto kTU = ts::tma_umma({.num_stages = 3, .num_bytes = 512, .producer_group = kW3,
                                   .num_bytes_per_warp_per_cta = 64, .cta_layout_vmnk = kL});
static_assert(kTU.type == ts::PipelineType::TmaUmma && kTU.num_stages == 3 && kTU.num_bytes == 512 &&
              kTU.producer_group == kW3 && kTU.num_bytes_per_warp_per_cta == 64 && kTU.cta_layout_vmnk == kL &&
              kTU.producer_signal == Signal::CtaLeader && kTU.consumer_signal == Signal::CtaLeader);
constexpr auto kUA = ts::umma_async({.num_stages = 2, .consumer_group = kT64, .consumer_signal = Signal::TaskWarpLeader,
                                     .wait_signal_override = Signal::All,
                                     .consumer_interleave_stride = ts::InterleaveStride(1, 1, 2, 3),
                                     .advance_on_wait = true, .cta_layout_vmnk = kL});
static_assert(kUA.type == ts::PipelineType::UmmaAsync && kUA.num_stages == 2 && kUA.consumer_group == kT64 &&
              kUA.consumer_signal == Signal::TaskWarpLeader && kUA.wait_signal_override == Signal::All &&
              kUA.interleave_stride == ts::InterleaveStride(1, 1, 2, 3) && kUA.advance_on_wait &&
              kUA.cta_layout_vmnk == kL && kUA.producer_signal == Signal::CtaLeader);
constexpr auto kAU = ts::async_umma({.num_stages = 2, .producer_group = kW3, .producer_signal = Signal::TaskWarpLeader,
                                     .producer_interleave_stride = ts::InterleaveStride(2, 3, 1, 1),
                                     .advance_on_acquire = true, .async_flavor = ts::AsyncFlavor::AsyncLoad,
                                     .cta_layout_vmnk = kL});
static_assert(kAU.type == ts::PipelineType::AsyncUmma && kAU.num_stages == 2 && kAU.producer_group == kW3 &&
              kAU.producer_signal == Signal::TaskWarpLeader && kAU.interleave_stride == ts::InterleaveStride(2, 3, 1, 1) &&
              kAU.advance_on_acquire && kAU.async_flavor == ts::AsyncFlavor::AsyncLoad && kAU.cta_layout_vmnk == kL &&
              kAU.consumer_signal == Signal::CtaLeader);
constexpr auto kUU = ts::umma_umma({.num_stages = 3, .cta_layout_vmnk = kL});
static_assert(kUU.type == ts::PipelineType::UmmaUmma && kUU.num_stages == 3 && kUU.cta_layout_vmnk == kL &&
              kUU.producer_signal == Signal::CtaLeader && kUU.consumer_signal == Signal::CtaLeader);
constexpr auto kCF = ts::clc_fetch_async({.num_stages = 2, .consumer_group = kT64,
                                          .consumer_signal = Signal::TaskWarpLeader, .cta_layout_vmnk = kL});
static_assert(kCF.type == ts::PipelineType::ClcFetchAsync && kCF.num_stages == 2 && kCF.consumer_group == kT64 &&
              kCF.consumer_signal == Signal::TaskWarpLeader && kCF.cta_layout_vmnk == kL &&
              kCF.producer_signal == Signal::CtaLeader && kCF.num_bytes == ts::kQueueResponseBytes);

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
