// Tile schedulers as types (runtime/scheduler/): the interface each one meets on which
// Arch, the task a dynamic one brings, its derived consumer count, and a hand-typed count
// that is wrong being rejected by name.
#include <gtest/gtest.h>

#include <string>

#include "gemm/gemm_manager.hpp"
#include "ts/runtime/cpu/cpu_arch.hpp"
#include "ts/runtime/scheduler/scheduler.hpp"

namespace {

// An Arch with the executing context's barrier primitives but neither CLC nor the
// global-counter ones (the shape of Sm90Arch without its atomics, or of a trace-only test Arch).
struct BareArch {
  ts::ThreadCoord coord{};
  ts::ThreadCoord const& thread() const { return coord; }
};

using StaticQ = gemm::Tiles<ts::StaticScheduler>;
using CounterQ = gemm::Tiles<ts::GlobalCounterScheduler>;
using ClcQ = gemm::Tiles<ts::ClcScheduler>;

// Which scheduler meets the interface on which Arch: the emulator has everything, an Arch
// without the primitives meets only the static scheduler.
static_assert(ts::TileScheduler<ts::StaticScheduler, ts::cpu::CpuArch, StaticQ>);
static_assert(ts::TileScheduler<ts::GlobalCounterScheduler, ts::cpu::CpuArch, CounterQ>);
static_assert(ts::TileScheduler<ts::ClcScheduler, ts::cpu::CpuArch, ClcQ>);
static_assert(ts::TileScheduler<ts::StaticScheduler, BareArch, StaticQ>);
static_assert(!ts::TileScheduler<ts::GlobalCounterScheduler, BareArch, CounterQ>);
static_assert(!ts::TileScheduler<ts::ClcScheduler, BareArch, ClcQ>);
// A static scheduler is not a dynamic one and vice versa.
static_assert(!ts::DynamicTileScheduler<ts::StaticScheduler, ts::cpu::CpuArch, StaticQ>);
static_assert(!ts::StaticTileScheduler<ts::ClcScheduler, ts::cpu::CpuArch, ClcQ>);

// The queue's scheduler: its own type, else CLC for a plain queue with a response ring
// (the queues written before schedulers were types), else static.
struct PlainQueue : ts::WorkQueue {};
struct PlainRingQueue : ts::WorkQueue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 1});
};
static_assert(std::is_same_v<ts::scheduler_of_t<PlainQueue>, ts::StaticScheduler>);
static_assert(std::is_same_v<ts::scheduler_of_t<PlainRingQueue>, ts::ClcScheduler>);
static_assert(std::is_same_v<ts::scheduler_of_t<CounterQ>, ts::GlobalCounterScheduler>);
static_assert(std::is_same_v<ts::scheduler_of_t<ts::GlobalCounterQueue>, ts::GlobalCounterScheduler>);

ts::Options quiet() { return ts::Options{.verbose = false, .exhaustive_check = false}; }

int task_named(ts::Model const& m, std::string const& name) {
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (m.tasks[t].name == name) return static_cast<int>(t);
  return -1;
}

}  // namespace

// Changing the scheduler is changing one type: the static GEMM has two tasks, a dynamic
// one three, the third brought by the scheduler (one warp, the producer budget).
TEST(Scheduler, ADynamicSchedulerBringsItsTask) {
  gemm::Problem p{1024, 1024, 512};
  auto stat = gemm::make_gemm(p, quiet());
  EXPECT_EQ(stat.model().tasks.size(), 2u);
  EXPECT_EQ(task_named(stat.model(), "Scheduler"), -1);
  for (auto const& m : {gemm::make_gemm(p, ts::GlobalCounterScheduler{}, quiet()).model(),
                        gemm::make_gemm(p, ts::ClcScheduler{}, quiet()).model()}) {
    ASSERT_EQ(m.tasks.size(), 3u);
    int s = task_named(m, "Scheduler");
    ASSERT_EQ(s, 1);
    EXPECT_EQ(m.tasks[s].num_warps, 1);
  }
}

// Nobody types the response ring's consumer count: the verifier derives it from the
// warps of the tasks that release it, the scheduler's own warp among them
// (Load 1 + Scheduler 1 + Math 8 = 10 warp-leader arrivals).
TEST(Scheduler, TheConsumerCountIsDerivedWithTheSchedulerWarp) {
  gemm::Problem p{1024, 1024, 512};
  auto tm = gemm::make_gemm(p, ts::GlobalCounterScheduler{}, quiet());
  auto rep = tm.print_and_verify();
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  int q = tm.model().find_resource("tiles");
  ASSERT_GE(q, 0);
  EXPECT_EQ(tm.layout().pipes[q].empty_arrivals, 10);
  EXPECT_EQ(tm.layout().pipes[q].num_stages, 2);
}

namespace {
// A scheduler whose author typed the consumer group by hand and forgot a warp.
struct MiscountedScheduler : ts::GlobalCounterScheduler {
  static constexpr auto pipeline = ts::clc_fetch_async(
      {.num_stages = 2, .consumer_group = {ts::Agent::Warp, 9}, .consumer_signal = ts::Signal::TaskWarpLeader});
  template <int Registers, class R>
  static auto task(R const& tiles, int warp) {
    return ts::dynamic_scheduler_task<Registers>(tiles, warp);
  }
};
}  // namespace

TEST(Scheduler, AWrongConsumerCountIsRejectedByName) {
  gemm::Problem p{1024, 1024, 512};
  auto tm = gemm::make_gemm(p, MiscountedScheduler{}, quiet());
  try {
    tm.print_and_verify();
    FAIL() << "a queue ring of 9 consumer warps where 10 release must be rejected";
  } catch (ts::VerificationError const& e) {
    ts::Diagnostic const* hit = nullptr;
    std::string all;
    for (auto const& d : e.diagnostics()) {
      all += d.format() + "\n";
      if (d.format().find("'tiles'") != std::string::npos && !hit) hit = &d;
    }
    ASSERT_NE(hit, nullptr) << all;
    EXPECT_EQ(hit->expected.find("10") != std::string::npos, true) << all;
    EXPECT_NE(hit->actual.find("9"), std::string::npos) << all;
    EXPECT_NE(all.find("Scheduler"), std::string::npos) << all;  // the task that brings the tenth warp
  }
}
