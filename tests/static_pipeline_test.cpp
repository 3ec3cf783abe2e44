// A resource may pin its pipeline protocol at compile time (ts::StaticPipeline): the
// executing context then takes those fields as constants. The pin is a promise about the
// config, checked when the kernel parameters are built: a mismatch is refused with the
// resource and the differing field, a match runs as before.
#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"

namespace {

// example 02's ring (AsyncAsync, 4 stages, 32-thread groups, All signalling), pinned.
template <int Stages>
struct PinnedRing : examples::SmemRing {
  static constexpr ts::StaticPipeline static_pipeline{ts::Engine::Async, ts::Engine::Async, Stages,
                                                      ts::Signal::All,   ts::Signal::All,   0, 1};
};

template <int Stages>
auto pinned_copy(examples::CopyBuffers& b) {
  using namespace examples;
  long long n = static_cast<long long>(b.src.size());
  auto in = ts::resource("in", ChunkInput{{}, b.src.data(), n});
  auto out = ts::resource("out", ChunkOutput{{}, b.dst.data(), n});
  auto ring = ts::resource("ring", PinnedRing<Stages>{},
                           ts::PipelineConfig::async_async({.num_stages = kRingStages,
                                                            .producer_group = {ts::Agent::Thread, 32},
                                                            .consumer_group = {ts::Agent::Thread, 32}}));
  auto p = ts::Task("Producer").warps(0, 1).reads(in).writes(ring).schedule(RingProducer{}, in, ring);
  auto c = ts::Task("Consumer").warps(1, 1).reads(ring).writes(out).schedule(RingConsumer{}, ring, out);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {in}}, {out, {ring}}}, cpu_test::quiet());
}

TEST(StaticPipeline, MatchingPinRunsAsTheConfigSays) {
  examples::CopyBuffers b(1000 + 17);
  auto tm = pinned_copy<examples::kRingStages>(b);
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = 5, .detect_races = true});
  EXPECT_TRUE(b.matches());
}

TEST(StaticPipeline, PinThatDisagreesWithTheConfigIsRefused) {
  examples::CopyBuffers b(256);
  auto tm = pinned_copy<examples::kRingStages * 2>(b);
  tm.print_and_verify();
  try {
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = 1});
    FAIL() << "expected the pin to be refused";
  } catch (std::invalid_argument const& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'ring'"), std::string::npos) << what;
    EXPECT_NE(what.find("num_stages"), std::string::npos) << what;
  }
}

}  // namespace
