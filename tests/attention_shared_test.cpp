// The shared-K/V shape of forward attention (examples/attention/attention_shared.hpp): two
// groups split one 128-row Q block and consume every Q, K and V stage together. The
// checker proves it for every K/V length and tile count at every head dim and judges its
// near misses; the emulator runs it against the double-precision reference.
#include <gtest/gtest.h>

#include <sstream>

#include "attention/attention_host.hpp"
#include "attention/attention_shared.hpp"
#include "attention_model_problem.hpp"
#include "cpu_test_util.hpp"
#include "ts/check/checker.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace {

namespace sh = attn::shared;

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  return o;
}

template <int D>
attn::Problem model_problem(std::vector<attn::QBlock>& blocks) {
  return attn_test::model_problem<D>(blocks, true);
}

template <int D, bool kOverlap = false>
void expect_proved() {
  std::vector<attn::QBlock> blocks;
  std::ostringstream out;
  ts::Options o = quiet();
  o.verbose = true;
  auto tm = sh::make_attention_shared<D, sh::Variant::kCorrect, kOverlap>(model_problem<D>(blocks), o);
  auto rep = tm.print_and_verify(out);
  // No diagnostic. The overlapped schedule runs block 0 ahead of its K/V loop (the loop runs
  // blocks 1..): S6.14 recognises the peeled first iteration on the rings and the order.
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  std::string const s = out.str();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << s;
  // Its loop may run no iteration (a one-block tile), so its proof covers k >= 0.
  char const* result = kOverlap ? "Result: SAFE (for all k >= 0), for every number of work tiles"
                                : "Result: SAFE (for all k >= 1), for every number of work tiles";
  EXPECT_NE(s.find(result), std::string::npos) << s;
  EXPECT_EQ(s.find("ConsumerSkip"), std::string::npos) << s;  // no turns: both groups take every stage
  EXPECT_LE(tm.layout().smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_EQ(tm.layout().block_threads, 384);
  EXPECT_NO_THROW(ts::make_kernel_params(tm, tm.layout()));
}

TEST(AttentionSharedModel, HeadDim64IsProvedForEveryLengthAndTileCount) { expect_proved<64>(); }
TEST(AttentionSharedModel, HeadDim128IsProvedForEveryLengthAndTileCount) { expect_proved<128>(); }
TEST(AttentionSharedModel, HeadDim256IsProvedForEveryLengthAndTileCount) { expect_proved<256>(); }

// The overlapped schedule (P V of block j - 1 behind Q K^T of block j, V one iteration
// behind K) is proved the same way.
TEST(AttentionSharedModel, OverlappedScheduleIsProvedAtEveryHeadDim) {
  expect_proved<64, true>();
  expect_proved<128, true>();
  expect_proved<256, true>();
}

TEST(AttentionSharedModel, NearMisses) {
  std::vector<attn::QBlock> blocks;
  auto p = model_problem<128>(blocks);
  auto no_order = ts::check::run_exhaustive(sh::make_attention_shared<128, sh::Variant::kNoOrder>(p, quiet()).model());
  EXPECT_EQ(no_order.verdict, ts::Verdict::SafeAllK) << no_order.report;
  auto late = ts::check::run_exhaustive(
      sh::make_attention_shared<128, sh::Variant::kOrderReleasedAfterLoop>(p, quiet()).model());
  ASSERT_EQ(late.verdict, ts::Verdict::Unsafe) << late.report;
  EXPECT_EQ(late.failure->kind, "deadlock") << late.report;
  EXPECT_NE(late.report.find("the shortest failing length is k=2"), std::string::npos) << late.report;
  // Group 1 never releases V: the producer refills a V stage group 1 is still reading.
  auto nov = ts::check::run_exhaustive(
      sh::make_attention_shared<128, sh::Variant::kGroup1SkipsVRelease>(p, quiet()).model());
  ASSERT_EQ(nov.verdict, ts::Verdict::Unsafe) << nov.report;
  EXPECT_NE(nov.failure->detail.find("stage reuse race: Load runs v_smem.acquire()"), std::string::npos)
      << nov.failure->detail;
  EXPECT_NE(nov.failure->detail.find("Group1 (waits, never releases)"), std::string::npos) << nov.failure->detail;
}

// section_bytes >= 0: the queue walks attn::plan_tile_order's table (as the device runner
// does for causal plans) with sections of that many bytes, balanced for `grid` CTAs.
template <int D, bool kOverlap = false>
std::string run(attn::Shape s, int grid, uint64_t seed, bool races = false, long long section_bytes = -1) {
  attn::HostAttention<D> h(s, seed, /*shared_kv=*/true);
  auto problem = h.problem();
  std::vector<int> order;
  if (section_bytes >= 0) {
    order = attn::plan_tile_order<D>(h.shape, h.blocks, /*pairs=*/false, section_bytes, grid);
    problem.plan.tile_order = order.data();
  }
  auto tm = sh::make_attention_shared<D, sh::Variant::kCorrect, kOverlap>(problem, cpu_test::quiet());
  auto rep = tm.print_and_verify();
  if (rep.verdict != ts::Verdict::SafeAllK) return "not proved: " + ts::to_string(rep.verdict);
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = races});
  return h.check();
}

TEST(AttentionSharedEmulator, MatchesTheReference) {
  for (uint64_t seed : {1, 2}) {
    EXPECT_EQ(run<64>({{0, 150, 200, 328}, 4, 2, 64, true}, 2, seed, seed == 1), "") << "D=64 causal varlen gqa " << seed;
    EXPECT_EQ(run<128>({{0, 256}, 2, 2, 128, false}, 2, seed, seed == 1), "") << "D=128 " << seed;
  }
  EXPECT_EQ(run<256>({{0, 160}, 3, 1, 256, true}, 1, 3), "") << "D=256 causal mqa";
  EXPECT_EQ(run<64>({{0, 100, 100, 300}, 2, 1, 64, false}, 1, 4), "") << "D=64 empty sequence, one CTA";
}

TEST(AttentionSharedEmulator, OverlappedScheduleMatchesTheReference) {
  for (uint64_t seed : {1, 2}) {
    EXPECT_EQ((run<64, true>({{0, 150, 200, 328}, 4, 2, 64, true}, 2, seed, seed == 1)), "") << "D=64 " << seed;
    EXPECT_EQ((run<128, true>({{0, 300}, 2, 2, 128, false}, 2, seed, seed == 1)), "") << "D=128 " << seed;
  }
  EXPECT_EQ((run<256, true>({{0, 160}, 3, 1, 256, true}, 1, 3)), "") << "D=256 causal mqa";
}

// The causal queue order of the device runner (attn::plan_tile_order: K/V sections, rounds
// balanced over the CTAs) walks every tile once: sections of one head's K/V and of none
// (one section), varlen with an empty sequence and GQA, two and three CTAs.
TEST(AttentionSharedEmulator, TheCausalTileOrderTableMatchesTheReference) {
  attn::Shape s{{0, 150, 150, 328, 520}, 4, 2, 64, true};
  for (long long section : {0LL, 4LL * 64 * 150, 1LL << 24})
    for (int grid : {2, 3}) {
      EXPECT_EQ((run<64, true>(s, grid, 5, grid == 2, section)), "") << "section " << section << " grid " << grid;
      EXPECT_EQ((run<64, false>(s, grid, 6, false, section)), "") << "section " << section << " grid " << grid;
    }
}

}  // namespace
