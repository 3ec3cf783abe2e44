// Forward attention under the dynamic tile schedulers (docs/attention.md, "Dynamic
// scheduler"): the same three schedules (pair, shared-K/V, overlapped) with the queue's
// scheduler changed from static to the global counter of sm_90a or to Cluster Launch
// Control. The checker proves each SAFE for every K/V length and every number of work
// tiles; the one mistake the dynamic queue adds (a group that never gives its tile response
// back) is safe on a static queue and a race on a dynamic one; the emulator runs the
// dynamic variants against the double-precision reference.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "attention/attention_host.hpp"
#include "attention/attention_shared.hpp"
#include "attention_model_problem.hpp"
#include "attention/schedule_choice.hpp"
#include "cpu_test_util.hpp"
#include "ts/check/checker.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace {

namespace sh = attn::shared;

// The three schedules by number, as the device bench's `mode` (0 pair, 1 shared, 2 overlap).
enum Schedule { kPair = 0, kShared = 1, kOverlap = 2 };

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  return o;
}

template <int D, Schedule K, sh::Variant V = sh::Variant::kCorrect, class S>
auto make(attn::Problem const& p, S const& sched, ts::Options o) {
  if constexpr (K == kPair) return attn::make_attention<D>(p, sched, o);
  else return sh::make_attention_shared<D, V, K == kOverlap>(p, sched, o);
}

using attn_test::model_problem;

int task_named(ts::Model const& m, std::string const& name) {
  for (size_t t = 0; t < m.tasks.size(); ++t)
    if (m.tasks[t].name == name) return int(t);
  return -1;
}

template <int D, Schedule K, class S>
void expect_proved(S const& sched) {
  std::vector<attn::QBlock> blocks;
  auto p = model_problem<D>(blocks, K != kPair);
  std::ostringstream out;
  ts::Options o = quiet();
  o.verbose = true;
  auto tm = make<D, K>(p, sched, o);
  auto rep = tm.print_and_verify(out);
  std::string const where = "D=" + std::to_string(D) + " schedule " + std::to_string(K) + " " + S::name;
  // No diagnostic (the overlapped schedule's block-0 prologue is a peeled first iteration,
  // which S6.14 recognises, as in the static proof, attention_shared_test).
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << where << ": " << d.format();
  std::string const s = out.str();
  ASSERT_EQ(rep.verdict, ts::Verdict::SafeAllK) << where << "\n" << s;
  char const* result = K == kOverlap ? "Result: SAFE (for all k >= 0), for every number of work tiles"
                                     : "Result: SAFE (for all k >= 1), for every number of work tiles";
  EXPECT_NE(s.find(result), std::string::npos) << where << "\n" << s;
  // The scheduler brings one task on warp 1 (the load warp group's idle warps); the data
  // tasks' schedules are the static kernel's, step for step.
  auto const& m = tm.model();
  ASSERT_EQ(m.tasks.size(), 4u) << where;
  int sched_task = task_named(m, "Scheduler");
  ASSERT_EQ(sched_task, 1) << where;
  EXPECT_EQ(m.tasks[sched_task].num_warps, 1) << where;
  auto stat = make<D, K>(p, ts::StaticScheduler{}, quiet());
  ASSERT_EQ(stat.model().tasks.size(), 3u) << where;
  for (auto [dyn, st] : {std::pair{0, 0}, std::pair{2, 1}, std::pair{3, 2}}) {
    EXPECT_EQ(m.tasks[dyn].name, stat.model().tasks[st].name) << where;
    EXPECT_EQ(m.tasks[dyn].schedule.steps.size(), stat.model().tasks[st].schedule.steps.size())
        << where << " " << m.tasks[dyn].name;
  }
  // The response ring: two stages, released by every warp that runs the queue epilogue
  // (Load 1 + Scheduler 1 + two groups of 4), derived, not typed.
  int q = m.find_resource(K == kPair ? "pairs" : "tiles");
  ASSERT_GE(q, 0) << where;
  EXPECT_EQ(tm.layout().pipes[q].num_stages, 2) << where;
  EXPECT_EQ(tm.layout().pipes[q].empty_arrivals, 10) << where;
  EXPECT_LE(tm.layout().smem_bytes, ts::kSm90SmemCapacity) << where;
  EXPECT_EQ(tm.layout().block_threads, 384) << where;
  EXPECT_NO_THROW(ts::make_kernel_params(tm, tm.layout())) << where;
}

}  // namespace

TEST(AttentionDynamicModel, GlobalCounterIsProvedForEveryScheduleAndHeadDim) {
  ts::GlobalCounterScheduler g{};  // capture only: no counter needed
  expect_proved<64, kPair>(g);
  expect_proved<128, kPair>(g);
  expect_proved<256, kPair>(g);
  expect_proved<64, kShared>(g);
  expect_proved<128, kShared>(g);
  expect_proved<256, kShared>(g);
  expect_proved<64, kOverlap>(g);
  expect_proved<128, kOverlap>(g);
  expect_proved<256, kOverlap>(g);
}

// The library's mode -1 (bench/attention/schedule_choice.hpp) must land on a schedule this
// file proves: the overlapped one, under the scheduler the table names, at every head dim.
template <int D>
void expect_choice_proved(bool causal) {
  int const mode = bench_attn::choose_mode(D, causal);
  std::string const where = "D=" + std::to_string(D) + (causal ? " causal" : "") + " mode " + std::to_string(mode);
  ASSERT_TRUE(bench_attn::valid_mode(mode) && mode != bench_attn::kAuto) << where;
  ASSERT_EQ(mode & 7, bench_attn::kOverlap) << where;
  EXPECT_EQ(bench_attn::resolve_mode(bench_attn::kAuto, D, causal), mode) << where;
  if (mode & bench_attn::kDynamic) {
    expect_proved<D, kOverlap>(ts::GlobalCounterScheduler{});
  } else {
    std::vector<attn::QBlock> blocks;
    auto p = model_problem<D>(blocks, true);
    auto rep = make<D, kOverlap>(p, ts::StaticScheduler{}, quiet()).print_and_verify();
    EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << where;
  }
}

TEST(AttentionDynamicModel, TheLibrarysPerShapeChoiceIsAProvedSchedule) {
  // The measured table (bench/RESULTS.md, stop 38): dynamic for non-causal head dim 64 only.
  EXPECT_EQ(bench_attn::choose_mode(64, false), bench_attn::kOverlap + bench_attn::kDynamic);
  for (int d : {64, 128, 256}) EXPECT_EQ(bench_attn::choose_mode(d, true), bench_attn::kOverlap) << d;
  for (int d : {128, 256}) EXPECT_EQ(bench_attn::choose_mode(d, false), bench_attn::kOverlap) << d;
  for (bool causal : {false, true}) {
    expect_choice_proved<64>(causal);
    expect_choice_proved<128>(causal);
    expect_choice_proved<256>(causal);
  }
  // Explicit modes pass through; only 0-2 (+ 8) and -1 are modes.
  EXPECT_EQ(bench_attn::resolve_mode(9, 64, false), 9);
  for (int m : {-1, 0, 1, 2, 8, 9, 10}) EXPECT_TRUE(bench_attn::valid_mode(m)) << m;
  for (int m : {-2, 3, 7, 11, 16, 18}) EXPECT_FALSE(bench_attn::valid_mode(m)) << m;
}

TEST(AttentionDynamicModel, ClusterLaunchControlIsProvedForTheSharedSchedules) {
  expect_proved<128, kPair>(ts::ClcScheduler{});
  expect_proved<128, kShared>(ts::ClcScheduler{});
  expect_proved<128, kOverlap>(ts::ClcScheduler{});
}

// The near miss the dynamic queue brings: group 1 runs try_wait, wait and advance but never
// releases its tile response. On the static queue there is no response ring, and the
// schedule is proved; on the global counter's ring the scheduler refills the stage group 1
// still holds, and the checker names the race and the group.
TEST(AttentionDynamicModel, AGroupThatKeepsItsTileResponseIsARaceOnlyOnADynamicQueue) {
  std::vector<attn::QBlock> blocks;
  auto p = model_problem<128>(blocks, true);
  constexpr auto V = sh::Variant::kGroup1KeepsTileResponse;
  auto stat = ts::check::run_exhaustive(make<128, kShared, V>(p, ts::StaticScheduler{}, quiet()).model());
  EXPECT_EQ(stat.verdict, ts::Verdict::SafeAllK) << stat.report;
  auto dyn = ts::check::run_exhaustive(make<128, kShared, V>(p, ts::GlobalCounterScheduler{}, quiet()).model());
  ASSERT_EQ(dyn.verdict, ts::Verdict::Unsafe) << dyn.report;
  ASSERT_TRUE(dyn.failure.has_value()) << dyn.report;
  EXPECT_NE(dyn.failure->detail.find("Group1 (waits, never releases)"), std::string::npos) << dyn.failure->detail;
  EXPECT_NE(dyn.failure->detail.find("tiles"), std::string::npos) << dyn.failure->detail;
}

namespace {

// One emulated run of schedule K under the global counter, against the reference. The
// grid is the device's (min(tiles, grid_cap) CTAs, all resident, as on 132 SMs) or one CTA
// per tile with fewer resident (CTAs that start late find the counter spent and leave):
// either way the counter ends at tiles + grid (every tile claimed once, then one failed
// claim per CTA, the one that ends its loop).
template <int D, Schedule K>
std::string run_counter(attn::Shape s, int grid_cap, int resident, uint64_t seed) {
  attn::HostAttention<D> h(s, seed, /*shared_kv=*/K != kPair);
  int const tiles = K == kPair ? int(h.blocks.size()) * ((s.hq + 1) / 2) : int(h.blocks.size()) * s.hq;
  int const grid = tiles < grid_cap ? tiles : grid_cap;
  unsigned counter = 0;
  std::vector<ts::QueueResponse> scratch(size_t(grid) * ts::kQueueMaxStages);
  auto tm = make<D, K>(h.problem(), ts::GlobalCounterScheduler{&counter, scratch.data()}, cpu_test::quiet());
  auto rep = tm.print_and_verify();
  if (rep.verdict != ts::Verdict::SafeAllK) return "not proved: " + ts::to_string(rep.verdict);
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = resident < grid ? resident : grid, .seed = seed,
                    .detect_races = seed == 1});
  std::string err = h.check();
  if (counter != unsigned(tiles + grid))
    err += "counter " + std::to_string(counter) + ", expected tiles + grid = " + std::to_string(tiles + grid) + "\n";
  return err;
}

// Under CLC (the emulator's engine): one CTA per tile; running CTAs cancel the ones that
// have not started and take their tiles.
template <int D, Schedule K>
std::string run_clc(attn::Shape s, int resident, uint64_t seed) {
  attn::HostAttention<D> h(s, seed, K != kPair);
  int const tiles = K == kPair ? int(h.blocks.size()) * ((s.hq + 1) / 2) : int(h.blocks.size()) * s.hq;
  auto tm = make<D, K>(h.problem(), ts::ClcScheduler{}, cpu_test::quiet());
  auto rep = tm.print_and_verify();
  if (rep.verdict != ts::Verdict::SafeAllK) return "not proved: " + ts::to_string(rep.verdict);
  auto st = ts::cpu::run(tm, {.grid_blocks = tiles, .resident_blocks = resident, .seed = seed, .detect_races = false});
  std::string err = h.check();
  if (st.ctas_started + st.ctas_canceled != tiles) err += "started + canceled CTAs != tiles\n";
  return err;
}

}  // namespace

// Causal varlen GQA at D = 64 (seqs 150, 50, 128: uneven tiles, longest first), a
// non-causal D = 128 MHA and a causal MQA at D = 256 with an odd head count (the pair
// shape's last pair recomputes its missing half).
TEST(AttentionDynamicEmulator, SharedScheduleMatchesTheReference) {
  for (uint64_t seed : {1, 2})
    EXPECT_EQ((run_counter<64, kShared>({{0, 150, 200, 328}, 4, 2, 64, true}, 3, 3, seed)), "") << "D=64 " << seed;
  EXPECT_EQ((run_counter<128, kShared>({{0, 256}, 2, 2, 128, false}, 4, 2, 2)), "") << "D=128";
  EXPECT_EQ((run_counter<256, kShared>({{0, 160}, 3, 1, 256, true}, 99, 1, 3)), "") << "D=256 one resident CTA";
}

TEST(AttentionDynamicEmulator, OverlappedScheduleMatchesTheReference) {
  for (uint64_t seed : {1, 2})
    EXPECT_EQ((run_counter<64, kOverlap>({{0, 150, 200, 328}, 4, 2, 64, true}, 2, 2, seed)), "") << "D=64 " << seed;
  EXPECT_EQ((run_counter<128, kOverlap>({{0, 100, 100, 300}, 2, 1, 128, false}, 99, 2, 3)), "")
      << "D=128 empty sequence, a CTA per tile";
}

TEST(AttentionDynamicEmulator, PairScheduleMatchesTheReference) {
  EXPECT_EQ((run_counter<64, kPair>({{0, 150, 200, 328}, 4, 2, 64, true}, 3, 3, 1)), "") << "D=64";
  EXPECT_EQ((run_counter<128, kPair>({{0, 130}, 3, 1, 128, true}, 99, 1, 2)), "") << "D=128 odd heads";
}

TEST(AttentionDynamicEmulator, ClusterLaunchControlMatchesTheReference) {
  EXPECT_EQ((run_clc<64, kShared>({{0, 150, 200, 328}, 4, 2, 64, true}, 1, 4)), "") << "shared";
  EXPECT_EQ((run_clc<64, kOverlap>({{0, 150, 200, 328}, 4, 2, 64, true}, 2, 5)), "") << "overlap";
}
