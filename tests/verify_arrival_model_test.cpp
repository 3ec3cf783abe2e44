// The written arrival model (docs/pipeline-arrivals.md) as executable statements.
#include "verify_fixtures.hpp"
#include "ts/verify/arrival_model.hpp"

using ts::verify::expected_arrivals;

TEST(ArrivalModel, AsyncSidesFollowSignalMode) {
  auto cfg = vt::async_cfg();
  auto x = expected_arrivals(cfg, {1, 2}, {1, 4});
  EXPECT_EQ(x.full_arrivals, 64);    // 2 warps x 32 threads
  EXPECT_EQ(x.empty_arrivals, 128);  // 4 warps x 32 threads
  EXPECT_EQ(x.tx_bytes, 0);
  auto leaders = ts::PipelineConfig::async_async({.producer_signal = ts::Signal::TaskWarpLeader,
                                                  .consumer_signal = ts::Signal::CtaLeader});
  auto y = expected_arrivals(leaders, {1, 2}, {2, 8});
  EXPECT_EQ(y.full_arrivals, 2);   // one lane per warp
  EXPECT_EQ(y.empty_arrivals, 2);  // one leader per releasing task
}

TEST(ArrivalModel, ElectedProducersAndStrides) {
  auto tma = ts::PipelineConfig::tma_umma({.num_stages = 4, .num_bytes = 8192});
  auto x = expected_arrivals(tma, {1, 1}, {1, 1});
  EXPECT_EQ(x.full_arrivals, 1);
  EXPECT_EQ(x.empty_arrivals, 1);
  EXPECT_EQ(x.tx_bytes, 8192);
  auto clc = ts::PipelineConfig::clc_fetch_async({.consumer_group = {ts::Agent::Thread, 96}});
  auto c = expected_arrivals(clc, {1, 1}, {3, 3});
  EXPECT_EQ(c.tx_bytes, 16);
  EXPECT_EQ(c.empty_arrivals, 96);
  auto inter = ts::PipelineConfig::async_async({.num_stages = 4, .interleave_stride = 2});
  EXPECT_EQ(expected_arrivals(inter, {1, 2}, {1, 2}).full_arrivals, 32);  // one warp per stage
}

TEST(ArrivalModel, MulticastFanInAndBackends) {
  auto mc = ts::PipelineConfig::tma_async({.num_bytes = 64, .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 2, 1}});
  auto x = expected_arrivals(mc, {1, 1}, {1, 1});
  EXPECT_EQ(x.empty_fan_in, 3);  // M + N - 1 CTAs read each multicast stage
  auto leader = ts::PipelineConfig::tma_async({.num_bytes = 64, .consumer_signal = ts::Signal::CtaLeader,
                                               .cta_layout_vmnk = ts::CtaLayoutVMNK{1, 2, 2, 1}});
  EXPECT_EQ(expected_arrivals(leader, {1, 1}, {1, 1}).empty_fan_in, 1);
  auto umma = ts::PipelineConfig::umma_async({});
  EXPECT_FALSE(expected_arrivals(umma, {1, 1}, {1, 4}, ts::verify::Backend::Sm90a).supported);
  EXPECT_TRUE(expected_arrivals(umma, {1, 1}, {1, 4}, ts::verify::Backend::Cpu).supported);
  EXPECT_EQ(ts::verify::expected_leader_routed_bytes(mc, 2), 0);  // not leader-routed
}
