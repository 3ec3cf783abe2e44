// Forward attention on the CPU emulator (examples/attention): the verified schedules and
// their work bodies (TMA boxes into the Q/K/V rings, the groups' turns, the per-thread
// score rows and O fragments, online softmax, O staged in the Q stage) against a
// double-precision host reference, at every head dim, causal and not, varlen, GQA and an
// odd head count, under several seeds; and a reference of the other masking must fail.
#include <gtest/gtest.h>

#include <chrono>

#include "attention/attention_host.hpp"
#include "cpu_test_util.hpp"

namespace {

// section_bytes >= 0: the pair queue walks attn::plan_tile_order's table (as the device
// runner does for causal plans), sections of that many bytes, balanced for `grid` CTAs.
template <int D, attn::Variant V = attn::Variant::kCorrect>
std::string run(attn::Shape s, int grid, uint64_t seed, bool races = false, long long section_bytes = -1) {
  attn::HostAttention<D> h(s, seed);
  auto problem = h.problem();
  std::vector<int> order;
  if (section_bytes >= 0) {
    order = attn::plan_tile_order<D>(h.shape, h.blocks, /*pairs=*/true, section_bytes, grid);
    problem.plan.tile_order = order.data();
  }
  auto tm = attn::make_attention<D, V>(problem, cpu_test::quiet());
  auto rep = tm.print_and_verify();
  if (rep.verdict != ts::Verdict::SafeAllK) return "not proved: " + ts::to_string(rep.verdict);
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = races});
  return h.check();
}

std::string name(attn::Shape const& s, int grid, uint64_t seed) {
  std::string n = "hq=" + std::to_string(s.hq) + " hkv=" + std::to_string(s.hkv) + " D=" +
                  std::to_string(s.head_dim) + (s.causal ? " causal" : "") + " cu_seqlens=";
  for (int c : s.cu_seqlens) n += std::to_string(c) + ",";
  return n + " grid=" + std::to_string(grid) + " seed=" + std::to_string(seed);
}

TEST(AttentionEmulator, HeadDim64CausalAndNot) {
  for (bool causal : {false, true})
    for (uint64_t seed : {1, 2, 3}) {
      attn::Shape s{{0, 256}, 2, 2, 64, causal};
      EXPECT_EQ(run<64>(s, 2, seed, seed == 1), "") << name(s, 2, seed);
    }
}

TEST(AttentionEmulator, HeadDim128VarlenWithGqa) {
  // Three sequences (one ragged in both blocks, one shorter than a block), 4 Q heads on
  // 2 K/V heads; causal and not.
  for (bool causal : {false, true})
    for (uint64_t seed : {1, 2}) {
      attn::Shape s{{0, 200, 237, 365}, 4, 2, 128, causal};
      EXPECT_EQ(run<128>(s, 3, seed, seed == 1), "") << name(s, 3, seed);
    }
}

TEST(AttentionEmulator, HeadDim256CausalOddHeadCountMqa) {
  // Three Q heads on one K/V head (MQA): the last pair's second half is a duplicate that
  // stores nothing; K/V blocks of 64 keys.
  for (uint64_t seed : {1, 2}) {
    attn::Shape s{{0, 160}, 3, 1, 256, true};
    EXPECT_EQ(run<256>(s, 2, seed, seed == 1), "") << name(s, 2, seed);
  }
}

TEST(AttentionEmulator, ManyPairsPerCtaAndAnEmptySequence) {
  // One CTA walks all 8 pairs (the rings wrap many times); a zero-length sequence has no
  // Q blocks.
  attn::Shape s{{0, 128, 128, 256}, 4, 4, 64, true};
  for (uint64_t seed : {4, 5}) EXPECT_EQ(run<64>(s, 1, seed), "") << name(s, 1, seed);
}

// The pair queue under the device runner's causal order table (attn::plan_tile_order):
// every pair once, with an odd head count (a duplicate second half) and GQA.
TEST(AttentionEmulator, TheCausalTileOrderTableMatchesTheReference) {
  for (long long section : {0LL, 4LL * 64 * 200, 1LL << 24}) {
    attn::Shape s{{0, 200, 237, 365}, 6, 2, 64, true};
    EXPECT_EQ(run<64>(s, 3, 7, section == 0, section), "") << name(s, 3, 7) << " section " << section;
    attn::Shape odd{{0, 160}, 3, 1, 64, true};
    EXPECT_EQ(run<64>(odd, 2, 8, false, section), "") << name(odd, 2, 8) << " section " << section;
  }
}

// The check can fail: the non-causal result against the causal reference (and back).
TEST(AttentionEmulator, TheReferenceCheckSeesTheWrongMask) {
  attn::Shape s{{0, 192}, 2, 1, 64, false};
  attn::HostAttention<64> h(s, 9);
  auto tm = attn::make_attention<64>(h.problem(), cpu_test::quiet());
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = 1, .seed = 9});
  EXPECT_EQ(h.check(false), "");
  EXPECT_NE(h.check(true), "");
  // An element never written (NaN) is a mismatch too.
  h.clear();
  EXPECT_NE(h.check(false).find("mismatches"), std::string::npos);
}

// Releasing a K stage before the Q K^T that reads it retired: the schedule is still SAFE
// for the checker (the MMA's asynchronous read is inside the work bodies, SPEC S6's known
// gap), but the emulated MMA reads the stage at its retire, after the producer may have
// refilled it: the race detector names it.
TEST(AttentionEmulator, ReleasingKBeforeItsMmaRetiredIsARace) {
  attn::Shape s{{0, 512}, 2, 2, 64, false};
  int races = 0;
  for (uint64_t seed : {1, 2, 3, 4}) {
    try {
      std::string r = run<64, attn::Variant::kReleaseKBeforeRetire>(s, 1, seed, true);
      EXPECT_EQ(r.rfind("not proved", 0), std::string::npos) << r;
    } catch (ts::cpu::RaceError const& e) {
      ++races;
      EXPECT_NE(std::string(e.what()).find("k_smem"), std::string::npos) << e.what();
    }
  }
  std::cout << races << " of 4 seeds raced\n";
  EXPECT_GT(races, 0);
}

}  // namespace
