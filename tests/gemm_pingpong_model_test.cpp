// The ping-pong GEMM's TS declaration: the turn between the two math warp groups is a
// ping-pong resource (self-edge) that verifies, the checker proves the four tasks safe,
// the printout shows group 1 blocked on the turn until group 0 commits it, and the
// layout fits. Breaking the turn protocol is rejected.
#include <gtest/gtest.h>

#include <sstream>

#include "gemm/gemm_pingpong_manager.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace {

gemm::Problem problem(int m, int n, int k) {
  static int map_d_stand_in;  // the TMA epilogue needs a map; the host never dereferences it
  return gemm::Problem{m, n, k, nullptr, nullptr, nullptr, &map_d_stand_in};
}

TEST(GemmPingPongModel, VerifiesAndIsProvedSafe) {
  std::ostringstream out;
  auto tm = gemm::pingpong::make_gemm_pingpong(problem(1000, 1024, 512), nullptr, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK) << out.str();
  // Group 1's first step waits for the turn; it is handed over by group 0's commit.
  EXPECT_NE(out.str().find("turn ConsumerWait[0] H 0 is blocked!"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("=> turn ConsumerWait[0] H 0"), std::string::npos) << out.str();
  auto const& m = tm.model();
  int turn = m.find_resource("turn");
  bool self_edge = false;
  for (auto const& e : m.graph) self_edge |= e.resource == turn && e.upstream == std::vector<int>{turn};
  EXPECT_TRUE(self_edge);
}

TEST(GemmPingPongModel, LayoutFitsAndPairsCoverOddTileCounts) {
  auto p = problem(64 * 3, 256, 128);  // 3 tiles: pair 1 has no second tile
  auto tm = gemm::pingpong::make_gemm_pingpong(p, nullptr, ts::Options{.verbose = false, .exhaustive_check = false});
  auto const& L = tm.layout();
  EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_EQ(L.block_threads, 384);
  EXPECT_EQ(gemm::pingpong::pairs(p), 2);
  gemm::pingpong::PairQueue q;
  q.num_tiles = 2;
  q.tiles = 3;
  q.wg = 1;
  ts::WorkTile pair1;
  pair1.tile_idx = 1;
  EXPECT_TRUE(q.missing(pair1));
  q.wg = 0;
  EXPECT_FALSE(q.missing(pair1));
  EXPECT_FALSE(gemm::pingpong::prefer_pingpong(p, 132));  // measured: cooperative everywhere (docs/gemm.md)
  // The rings declare their pipeline in their type (SmemAB::pipeline): the parameters build.
  EXPECT_NO_THROW(ts::make_kernel_params(tm, L));
}

// Both groups acquiring the turn: nobody consumes it, so the ping-pong has one side only.
TEST(GemmPingPongModel, TurnWithoutAConsumerIsRejected) {
  using namespace gemm::pingpong;
  auto p = problem(512, 512, 256);
  PairQueue q;
  q.num_tiles = 1;
  q.tiles = 2;
  q.tiles_m = 2;
  q.tiles_n = 1;
  auto qr = ts::resource("pairs", q);
  auto gmem = ts::resource("gmem_ab", GmemAB{{}, q, p.K});
  auto smem = ts::resource("smem_ab", SmemAB{});  // SmemAB::pipeline
  auto acc = ts::resource("acc", gemm::Accumulator{});
  auto d = ts::resource("d", GmemD{{}, q, p.k_iters(), p.map_d, {}});
  auto turn = ts::resource("turn", MathTurn{});  // MathTurn::pipeline
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, qr).writes(smem).schedule(LoadSchedule{}, gmem, smem, qr);
  auto math = ts::Task("Math").warps(4, 4).reads(smem, acc, qr, turn).writes(turn, acc, d).schedule(
      MathSchedule<true>{}, turn, smem, acc, d, qr);
  auto tm = ts::TaskManager(ts::tasks(load, math),
                            ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {d, {acc}}, {turn, {turn}}},
                            ts::Options{.verbose = false, .warning_mode = true, .exhaustive_check = false});
  auto rep = tm.print_and_verify();
  bool found = false;
  for (auto const& diag : rep.diagnostics) found |= diag.check == "S6.19.ping-pong-two-sides";
  EXPECT_TRUE(found);
}

}  // namespace
