// Forward attention (examples/attention): the checker proves the three schedules safe for
// every K/V loop length and every number of pairs a CTA takes, at every head dim; the near
// misses are judged (no order barrier: still safe; the order released once per pair: a
// deadlock; group 1 taking its Q turn after its wait: both groups on one commit); the
// layout fits; bad shapes are refused with a message naming the culprit.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "attention/attention_host.hpp"
#include "attention_model_problem.hpp"
#include "ts/check/checker.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace {

using attn::Variant;

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  return o;
}

template <int D>
attn::Problem model_problem(std::vector<attn::QBlock>& blocks) {
  return attn_test::model_problem<D>(blocks, false);
}

template <int D>
void expect_proved() {
  std::vector<attn::QBlock> blocks;
  std::ostringstream out;
  ts::Options o = quiet();
  o.verbose = true;
  auto tm = attn::make_attention<D>(model_problem<D>(blocks), o);
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  std::string const s = out.str();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << s;
  EXPECT_NE(s.find("Result: SAFE (for all k >= 1), for every number of work tiles"), std::string::npos) << s;
  // The turns are in the printout: group 1 passes over group 0's stages and back.
  EXPECT_NE(s.find("k_smem ConsumerSkip["), std::string::npos) << s;
  EXPECT_NE(s.find("q_smem ConsumerSkip["), std::string::npos) << s;
  auto scope = s.find("Scope:");
  ASSERT_NE(scope, std::string::npos) << s;
  std::cout << "D=" << D << " " << s.substr(scope, s.find('\n', scope) - scope) << "\n";
  // The layout fits one CTA of 384 threads.
  auto const& L = tm.layout();
  EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_EQ(L.block_threads, 384);
  EXPECT_NO_THROW(ts::make_kernel_params(tm, L));
}

TEST(AttentionModel, HeadDim64IsProvedForEveryLengthAndTileCount) { expect_proved<64>(); }
TEST(AttentionModel, HeadDim128IsProvedForEveryLengthAndTileCount) { expect_proved<128>(); }
TEST(AttentionModel, HeadDim256IsProvedForEveryLengthAndTileCount) { expect_proved<256>(); }

TEST(AttentionModel, PrintoutShowsTheScheduleOfHeadDim128) {
  std::vector<attn::QBlock> blocks;
  std::ostringstream out;
  ts::Options o = quiet();
  o.verbose = true;
  auto tm = attn::make_attention<128>(model_problem<128>(blocks), o);
  tm.print_and_verify(out);
  std::string const s = out.str();
  EXPECT_NE(s.find("Group0[4:8)"), std::string::npos) << s;
  EXPECT_NE(s.find("Group1[8:12)"), std::string::npos) << s;
  EXPECT_NE(s.find("order ProducerAcquire"), std::string::npos) << s;
  EXPECT_NE(s.find("Load[0:1) 40 regs/thread"), std::string::npos) << s;
}

// The order barrier is not what keeps the rings safe: the turns alone do (static skips of
// one stage on two-stage rings). Without it the schedule is still proved.
TEST(AttentionModel, WithoutTheOrderBarrierTheTurnsAloneAreSafe) {
  std::vector<attn::QBlock> blocks;
  auto r = ts::check::run_exhaustive(attn::make_attention<128, Variant::kNoOrder>(model_problem<128>(blocks), quiet()).model());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

// Group 1 gives the order back once per pair instead of once per block: group 0's second
// acquire waits for a release that comes only after group 1's loop, whose second wait
// needs group 0's second commit.
TEST(AttentionModel, OrderReleasedOncePerPairDeadlocks) {
  std::vector<attn::QBlock> blocks;
  auto r = ts::check::run_exhaustive(
      attn::make_attention<128, Variant::kOrderReleasedAfterLoop>(model_problem<128>(blocks), quiet()).model());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->kind, "deadlock") << r.report;
  // One block per pair is fine (one acquire, one release); two are not.
  EXPECT_NE(r.report.find("the shortest failing length is k=2"), std::string::npos) << r.report;
}

// Group 1 waits on the Q ring before skipping: both groups take half 0's Q commit.
TEST(AttentionModel, QTurnAfterTheWaitIsUnsafe) {
  std::vector<attn::QBlock> blocks;
  auto r = ts::check::run_exhaustive(
      attn::make_attention<128, Variant::kQTurnAfterWait>(model_problem<128>(blocks), quiet()).model());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure.has_value());
  std::cout << "failure: " << r.failure->kind << ": " << r.failure->detail.substr(0, 300) << "\n";
  EXPECT_NE(r.failure->detail.find("q_smem"), std::string::npos) << r.failure->detail;
}

TEST(AttentionModel, BadShapesAreRefusedWithTheCulprit) {
  auto msg = [](attn::Shape s) {
    try {
      attn::validate(s);
    } catch (std::invalid_argument const& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(msg({{0, 128}, 4, 4, 96, false}).find("head_dim must be 64, 128 or 256, got 96"), std::string::npos);
  EXPECT_NE(msg({{0, 128}, 6, 4, 64, false}).find("K/V heads must divide Q heads (GQA), got hq=6 hkv=4"),
            std::string::npos);
  EXPECT_NE(msg({{0, 128, 64}, 2, 2, 64, false}).find("cu_seqlens must be non-decreasing, got cu_seqlens[2]=64"),
            std::string::npos);
  EXPECT_NE(msg({{3, 128}, 2, 2, 64, false}).find("cu_seqlens[0] must be 0, got 3"), std::string::npos);
  EXPECT_NE(msg({{0}, 2, 2, 64, false}).find("cu_seqlens needs at least 2 entries"), std::string::npos);
  EXPECT_EQ(msg({{0, 128, 128, 300}, 8, 2, 128, true}), "(accepted)");  // an empty sequence is fine
}

// The plan: pairs of heads share one K/V length; causal blocks come longest first.
TEST(AttentionModel, CausalPlanIsLongestFirstAndCoversEveryRow) {
  attn::Shape s{{0, 200, 456}, 3, 1, 128, true};
  auto blocks = attn::plan_blocks<128>(s);
  ASSERT_EQ(blocks.size(), 4u + 4u);  // ceil(200 / 64) + ceil(256 / 64)
  for (size_t i = 1; i < blocks.size(); ++i) EXPECT_GE(blocks[i - 1].kv_blocks, blocks[i].kv_blocks);
  int rows = 0;
  for (auto const& b : blocks) rows += std::min(64, b.seqlen - b.q0);
  EXPECT_EQ(rows, 456);
  EXPECT_EQ(attn::kv_blocks_of(256, 192, 64, 128, true), 2);
  EXPECT_EQ(attn::kv_blocks_of(256, 0, 64, 128, true), 1);
  EXPECT_EQ(attn::kv_blocks_of(200, 0, 64, 128, false), 2);
}

// attn::plan_tile_order (the device runner's causal queue order) is a permutation of the
// plan's queue units for every section size and grid: varlen with empty and ragged
// sequences, GQA, pairs with an odd head count. One section and one CTA is exactly
// blocks[] order; sections of one head's K/V put that head's tiles first, longest first;
// a balanced round gives each CTA one of the round's tiles.
TEST(AttentionModel, CausalTileOrderIsAPermutationInSectionsAndBalancedRounds) {
  for (bool pairs : {false, true})
    for (attn::Shape s : {attn::Shape{{0, 1000}, 4, 4, 128, true}, attn::Shape{{0, 200, 200, 456, 1500}, 6, 2, 128, true},
                          attn::Shape{{0, 333}, 3, 1, 128, true}}) {
      auto blocks = attn::plan_blocks<128>(s, pairs ? 64 : 128);
      int const units = pairs ? (s.hq + 1) / 2 : s.hq;
      int const n = int(blocks.size()) * units;
      for (long long section : {0LL, 1LL, 4LL * 128 * 200, 1LL << 20, 1LL << 40})
        for (int grid : {1, 2, 7, 132}) {
          auto order = attn::plan_tile_order<128>(s, blocks, pairs, section, grid);
          ASSERT_EQ(int(order.size()), n);
          std::vector<int> seen(size_t(n), 0);
          for (int v : order) {
            ASSERT_GE(v, 0);
            ASSERT_LT(v, n);
            ++seen[size_t(v)];
          }
          for (int t = 0; t < n; ++t) EXPECT_EQ(seen[size_t(t)], 1) << "tile " << t << " section " << section << " grid " << grid;
          if (section == 0 && grid == 1)
            for (int t = 0; t < n; ++t) EXPECT_EQ(order[size_t(t)], t);
          if (grid > 1 && n > grid)  // each round is the same set of tiles as without balancing
            for (int r = 0; r + grid <= n; r += grid) {
              auto plain = attn::plan_tile_order<128>(s, blocks, pairs, section, 1);
              std::vector<int> a(order.begin() + r, order.begin() + r + grid), b(plain.begin() + r, plain.begin() + r + grid);
              std::sort(a.begin(), a.end());
              std::sort(b.begin(), b.end());
              EXPECT_EQ(a, b) << "round at " << r;
            }
        }
      // Sections of one unit's K/V (section = 1 byte: every unit its own section): the first
      // unit's tiles come first, longest first.
      auto order = attn::plan_tile_order<128>(s, blocks, pairs, 1, 1);
      int first_unit = order[0] % units;
      for (size_t i = 1; i < order.size() && order[i] % units == first_unit; ++i)
        EXPECT_GE(blocks[size_t(order[i - 1] / units)].kv_blocks, blocks[size_t(order[i] / units)].kv_blocks);
    }
}

// begin_tile's mask threshold (OutAcc::last_unmasked_key0) against brute force: for every
// block of every group's K/V loop, the block skips the mask (key0 <= threshold) exactly
// when none of the group's 64 rows has a masked key in it. A threshold too high leaves
// keys unmasked (wrong O); one too low masks blocks that need none (slow). Sequences
// around the block sizes, causal and not, both shapes (64-row pair blocks, 128-row shared
// blocks, group 1 at rows 64..), every head dim (kBlockN 128 and 64).
template <int D>
void expect_exact_mask_threshold() {
  constexpr int BN = attn::Dims<D>::kBlockN;
  for (int shared = 0; shared < 2; ++shared)
    for (int causal = 0; causal < 2; ++causal)
      for (int len : {1, 2, 63, 64, 65, 127, 128, 129, 191, 200, 256, 257, 300, 513}) {
        attn::Shape shape{{0, len}, 2, 1, D, causal != 0};
        auto blocks = attn::plan_blocks<D>(shape, shared ? 128 : 64);
        attn::Plan plan;
        plan.blocks = blocks.data();
        plan.num_blocks = int(blocks.size());
        plan.causal = causal;
        plan.shared = shared;
        plan.hq = 2;
        plan.hkv = 1;
        for (int bi = 0; bi < plan.num_blocks; ++bi)
          for (int half = 0; half < 2; ++half) {
            attn::OutAcc<D> acc{};
            acc.plan = plan;
            acc.half = half;
            ts::AuxStage si;
            si.work_tile.valid = true;
            si.work_tile.coord[0] = bi;
            acc.begin_tile(si);
            attn::QBlock const& b = blocks[size_t(bi)];
            int const q0 = b.q0 + plan.row0(half);
            for (int j = 0; j < b.kv_blocks; ++j) {
              int const key0 = j * BN;
              bool any_masked = false;
              for (int row = q0; row < q0 + 64 && !any_masked; ++row)
                for (int key = key0; key < key0 + BN && !any_masked; ++key)
                  any_masked = key >= b.seqlen || (causal && key > row);
              EXPECT_EQ(key0 > acc.last_unmasked_key0, any_masked)
                  << "D=" << D << " shared=" << shared << " causal=" << causal << " len=" << len << " q0=" << q0
                  << " key0=" << key0 << " threshold=" << acc.last_unmasked_key0;
            }
          }
      }
}

TEST(AttentionModel, MaskThresholdIsExactForEveryBlock) {
  expect_exact_mask_threshold<64>();
  expect_exact_mask_threshold<128>();
  expect_exact_mask_threshold<256>();
}

}  // namespace
