// The ping-pong GEMM on one shared ring (examples/gemm/gemm_pingpong.hpp): the checker
// proves the three tasks safe with the order barrier and finds the parity aliasing
// without it; the layout fits; the schedule runs on the emulator against the host
// reference at odd and even tile counts (the half-empty last pair), several seeds.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cpu_test_util.hpp"
#include "gemm/gemm_host.hpp"
#include "gemm/gemm_pingpong_manager.hpp"
#include "gemm/gemm_shape_choice.hpp"
#include "ts/check/checker.hpp"
#include "ts/runtime/kernel_params.hpp"

namespace {

namespace pp = gemm::pingpong;

gemm::Problem problem(int m, int n, int k) {
  static int map_d_stand_in;  // the TMA epilogue needs a map; the host never dereferences it
  return gemm::Problem{m, n, k, nullptr, nullptr, nullptr, &map_d_stand_in};
}

TEST(GemmPingPongModel, OneSharedRingIsProvedSafe) {
  std::ostringstream out;
  auto tm = pp::make_gemm_pingpong(problem(1000, 1024, 512), nullptr, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << out.str();
  std::string s = out.str();
  auto scope = s.find("Scope:");
  ASSERT_NE(scope, std::string::npos) << s;
  std::cout << s.substr(scope, s.find('\n', scope) - scope) << "\n";
  auto result = s.find("Result:");
  if (result != std::string::npos) std::cout << s.substr(result, s.find('\n', result) - result) << "\n";
  // Math1 passes over half 0 of the pair with one skip; the printout shows it.
  EXPECT_NE(s.find("smem_ab ConsumerSkip["), std::string::npos) << s;
  auto const& m = tm.model();
  int order = m.find_resource("order");
  bool self_edge = false;
  for (auto const& e : m.graph) self_edge |= e.resource == order && e.upstream == std::vector<int>{order};
  EXPECT_TRUE(self_edge);
}

// Without the order barrier Math1 skips half 0 (k stages) at once and waits on position
// k while the producer has not refilled that stage since position k - kStages: the wait
// is two phases ahead of the stage's full barrier.
TEST(GemmPingPongModel, WithoutTheOrderBarrierTheSkipAliasesParity) {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  auto tm = pp::make_gemm_pingpong<false>(problem(1000, 1024, 512), nullptr, o);
  auto r = ts::check::run_exhaustive(tm.model());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->kind, "race");
  EXPECT_NE(r.failure->detail.find("parity aliasing: Math1 runs smem_ab.wait()"), std::string::npos) << r.failure->detail;
  EXPECT_NE(r.failure->detail.find("the wait is 2 phases ahead of the barrier"), std::string::npos) << r.failure->detail;
}

TEST(GemmPingPongModel, LayoutFitsAndPairsCoverOddTileCounts) {
  auto p = problem(128 * 3, 128, 128);  // 3 tiles: pair 1 has no second tile
  auto tm = pp::make_gemm_pingpong(p, nullptr, ts::Options{.verbose = false, .exhaustive_check = false});
  auto const& L = tm.layout();
  EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_EQ(L.block_threads, 384);
  EXPECT_EQ(pp::pairs(p), 2);
  // Pair 0 is tile rows 0 and 1; pair 1 is tile row 2 alone.
  pp::PairQueue q;
  q.num_tiles = pp::pairs(p);
  q.tiles_m = 3;
  q.tiles_n = 1;
  pp::Halves h;
  ts::ConsumerStage si{};
  si.work_tile = q.make_tile(1);
  EXPECT_EQ(pp::PairQueue::row_of(si.work_tile, 0), 2);
  EXPECT_FALSE(h.second(si));
  si.work_tile = q.make_tile(0);
  EXPECT_EQ(pp::PairQueue::row_of(si.work_tile, 0), 0);
  EXPECT_EQ(pp::PairQueue::row_of(si.work_tile, 1), 1);
  EXPECT_TRUE(h.second(si));
  EXPECT_NO_THROW(ts::make_kernel_params(tm, L));
}

// Every tile of D belongs to exactly one half of one pair, for even and odd tile rows and
// across raster groups (group_m block rows of two tile rows each; a last, partial group).
TEST(GemmPingPongModel, PairsCoverEveryTileOnce) {
  for (int g : {1, 2, 3, 4, 8, 16})
  for (int tm : {1, 2, 3, 7, 16, 17, 33})
    for (int tn : {1, 3, 8}) {
      SCOPED_TRACE("raster group " + std::to_string(g));
      pp::PairQueue q;
      q.tiles_m = tm;
      q.tiles_n = tn;
      q.group_m = g;
      q.num_tiles = (tm + 1) / 2 * tn;
      std::vector<int> seen(size_t(tm) * tn, 0);
      for (int p = 0; p < q.num_tiles; ++p) {
        ts::WorkTile w = q.make_tile(p);
        ASSERT_TRUE(w.valid);
        for (int h = 0; h < 1 + w.coord[2]; ++h) {
          int r = pp::PairQueue::row_of(w, h), c = pp::PairQueue::col_of(w);
          ASSERT_TRUE(r >= 0 && r < tm && c >= 0 && c < tn) << "pair " << p << " half " << h;
          ++seen[size_t(r) * tn + c];
        }
      }
      for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << tm << "x" << tn << " tile " << i;
    }
}

// The cooperative queue's raster: every 128 x 256 tile once for any group size, a group
// walking its rows first (the next tile is the next row while the group has one), and
// Problem::raster_group reaching the queue; a negative group is refused by name.
TEST(GemmPingPongModel, TheCooperativeRasterCoversEveryTileOnceForAnyGroup) {
  for (int g : {1, 2, 3, 4, 8, 16})
    for (int tm : {1, 5, 8, 17})
      for (int tn : {1, 4, 7}) {
        gemm::Tiles<ts::StaticScheduler> q;
        q.tiles_m = tm;
        q.tiles_n = tn;
        q.group_m = g;
        q.num_tiles = tm * tn;
        std::vector<int> seen(size_t(tm) * tn, 0);
        for (int t = 0; t < q.num_tiles; ++t) {
          ts::WorkTile w = q.make_tile(t);
          ASSERT_TRUE(w.valid && w.coord[0] < tm && w.coord[1] < tn) << g << " " << tm << "x" << tn << " tile " << t;
          ++seen[size_t(w.coord[0]) * tn + w.coord[1]];
          if (t > 0 && g <= tm && t < g * tn) {  // inside the first, whole group: rows first
            ts::WorkTile prev = q.make_tile(t - 1);
            EXPECT_EQ(w.coord[0], t % g == 0 ? 0 : prev.coord[0] + 1) << g << " " << t;
          }
        }
        for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << g << " " << tm << "x" << tn << " tile " << i;
      }
  auto p = problem(4096, 4096, 512);
  p.raster_group = 4;
  static int map_stand_in;
  p.map_d = &map_stand_in;
  EXPECT_EQ(gemm::detail::tile_queue(p, ts::StaticScheduler{}).group_m, 4);
  p.raster_group = 0;
  EXPECT_EQ(gemm::detail::tile_queue(p, ts::StaticScheduler{}).group_m, gemm::kGroupM);
  p.raster_group = -2;
  try {
    (void)pp::make_gemm_pingpong(p, nullptr, ts::Options{.verbose = false, .exhaustive_check = false});
    FAIL() << "expected gemm.raster-group";
  } catch (ts::ModelError const& e) {
    EXPECT_EQ(e.diagnostic().check, "gemm.raster-group");
    EXPECT_EQ(e.diagnostic().actual, "-2");
  }
}

// The shape rule picks what the H200 measured faster (gemm_shape_choice.hpp): ping-pong
// only for many tiles per SM with a short K loop.
TEST(GemmShapeChoice, FollowsTheMeasuredTable) {
  auto pick = [](int M, int N, int K) { return gemm::choose_shape(problem(M, N, K), 132); };
  EXPECT_EQ(pick(16384, 16384, 512), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(16384, 16384, 1024), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(8192, 8192, 1024), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(8192, 8192, 8192), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(4096, 4096, 16384), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(4096, 4096, 4096), gemm::GemmShape::PingPong);
  EXPECT_EQ(pick(3000, 5000, 4000), gemm::GemmShape::Cooperative);  // ragged tiles
  EXPECT_EQ(pick(1024, 8192, 8192), gemm::GemmShape::Cooperative);  // 1.9 tiles per SM
  EXPECT_EQ(pick(2048, 2048, 2048), gemm::GemmShape::Cooperative);  // 1.0 tile per SM
  EXPECT_STREQ(gemm::to_string(gemm::GemmShape::PingPong), "pingpong");
}

// The emulator: the same schedule and work bodies (TMA boxes, two emulated m64n128k16
// wgmmas per k16, the TMA-store epilogue), checked against the host reference.
struct Size {
  int M, N, K;
};

void run_on_emulator(Size s, int grid, uint64_t seed) {
  gemm::HostGemm h(s.M, s.N, s.K, seed);
  ts::arch::TensorMap2D map_b128 = h.map_b;
  map_b128.box_h = pp::kTileN;
  gemm::Problem p{h.M, h.N, h.K, &h.map_a, nullptr, h.d.data(), &h.map_d};
  auto tm = pp::make_gemm_pingpong(p, &map_b128, cpu_test::quiet());
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
  EXPECT_EQ(h.check(), "") << s.M << "x" << s.N << "x" << s.K << " grid " << grid << " seed " << seed;
}

// The dynamic scheduler on the emulator (the sm_90a global-counter code: atomic claims,
// responses staged in `scratch`): one CTA per pair, so every CTA starts, the counter hands
// out each pair once and then takes one failed claim per CTA.
TEST(GemmPingPongEmulator, DynamicSchedulerMatchesReference) {
  for (Size s : {Size{300, 128, 136}, Size{640, 100, 64}, Size{512, 256, 128}})
    for (int resident : {1, 2})
      for (uint64_t seed : {1, 2}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        ts::arch::TensorMap2D map_b128 = h.map_b;
        map_b128.box_h = pp::kTileN;
        gemm::Problem p{h.M, h.N, h.K, &h.map_a, nullptr, h.d.data(), &h.map_d};
        int pairs = pp::pairs(p);
        unsigned counter = 0;
        std::vector<ts::QueueResponse> scratch(size_t(pairs) * ts::kQueueMaxStages);
        // The exhaustive proof of these schedules is CheckTileCount.PingPongGemmIsProvedForEveryTileCount
        // (20 s); here the static checks only.
        ts::Options o = cpu_test::quiet();
        o.exhaustive_check = false;
        auto tm = pp::make_gemm_pingpong(p, &map_b128, ts::GlobalCounterScheduler{&counter, scratch.data()}, o);
        ASSERT_NE(tm.print_and_verify().verdict, ts::Verdict::Unsafe);
        auto st = ts::cpu::run(tm, {.grid_blocks = pairs, .resident_blocks = resident, .seed = seed,
                                    .detect_races = seed == 1});
        std::string where = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K) +
                            " resident " + std::to_string(resident) + " seed " + std::to_string(seed);
        EXPECT_EQ(h.check(), "") << where;
        EXPECT_EQ(st.ctas_started, pairs) << where;
        EXPECT_EQ(counter, unsigned(2 * pairs)) << where;
      }
}

// The 64 x 256 tile (one m64n256k16 per k16, 5 stages, one staging box per group): the
// same schedules, so the same proof and the same counterexample without the order.
TEST(GemmPingPong64x256Model, OneSharedRingIsProvedSafeAndFits) {
  std::ostringstream out;
  auto p = problem(1000, 1024, 512);
  auto tm = pp::make_gemm_pingpong_64x256(p, nullptr, ts::StaticScheduler{}, ts::Options{.verbose = true});
  auto rep = tm.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << out.str();
  EXPECT_NE(out.str().find("smem_ab ConsumerSkip["), std::string::npos) << out.str();
  auto const& L = tm.layout();
  EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity);
  EXPECT_GE(L.smem_bytes, pp::Tile64x256::kSmemBytes);
  EXPECT_EQ(L.block_threads, 384);
  // 1000 rows are 16 tiles of 64 (8 pairs), 1024 columns 4 tiles of 256.
  EXPECT_EQ(pp::pairs<pp::Tile64x256>(p), 8 * 4);
  EXPECT_NO_THROW(ts::make_kernel_params(tm, L));
}

TEST(GemmPingPong64x256Model, WithoutTheOrderBarrierTheSkipAliasesParity) {
  ts::Options o;
  o.verbose = false;
  o.throw_on_unsafe = false;
  auto tm = pp::make_gemm_pingpong_64x256<false>(problem(1000, 1024, 512), nullptr, ts::StaticScheduler{}, o);
  auto r = ts::check::run_exhaustive(tm.model());
  ASSERT_EQ(r.verdict, ts::Verdict::Unsafe) << r.report;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_NE(r.failure->detail.find("parity aliasing: Math1 runs smem_ab.wait()"), std::string::npos) << r.failure->detail;
}

void run_64x256_on_emulator(Size s, int grid, uint64_t seed) {
  gemm::HostGemm h(s.M, s.N, s.K, seed);
  ts::arch::TensorMap2D map_a64 = h.map_a;
  map_a64.box_h = pp::Tile64x256::kTileM;
  gemm::Problem p{h.M, h.N, h.K, nullptr, &h.map_b, h.d.data(), &h.map_d};
  auto tm = pp::make_gemm_pingpong_64x256(p, &map_a64, ts::StaticScheduler{}, cpu_test::quiet());
  tm.print_and_verify();
  ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
  EXPECT_EQ(h.check(), "") << "64x256 tiles: " << s.M << "x" << s.N << "x" << s.K << " grid " << grid << " seed "
                           << seed;
}

// 3 tile rows of 64 (the last pair half empty) by 2 ragged columns of 256, ragged K; 2 x 2
// tiles; 5 tile rows ragged in N; more stages than the ring holds (K = 448: 7 stages).
TEST(GemmPingPong64x256Emulator, MatchesReferenceAtOddAndEvenTileCounts) {
  for (Size s : {Size{150, 300, 136}, Size{128, 512, 192}, Size{320, 100, 64}, Size{64, 256, 448}})
    for (int grid : {1, 2})
      for (uint64_t seed : {1, 2}) run_64x256_on_emulator(s, grid, seed);
}

// Clusters of two CTAs along M, B multicast: the ring spans the cluster, so each stage's
// empty barrier counts the releasing group's 4 warp leaders in both CTAs.
TEST(GemmPingPongMulticast, ProvedAndLaidOutForClustersOfTwo) {
  auto p = problem(1000, 1024, 4096);
  auto check = [&](auto&& tm, int stage_bytes, char const* what) {
    auto rep = tm.print_and_verify();
    for (auto const& d : rep.diagnostics) ADD_FAILURE() << what << ": " << d.format();
    EXPECT_EQ(rep.verdict, ts::Verdict::Safe) << what;
    auto const& L = tm.layout();
    int smem = tm.model().find_resource("smem_ab");
    EXPECT_EQ(L.cluster_ctas, 2) << what;
    EXPECT_EQ(L.pipes[smem].multicast_ctas, 2) << what;
    EXPECT_EQ(L.pipes[smem].empty_arrivals, 8) << what;  // one group's 4 warp leaders in each of the 2 CTAs
    EXPECT_EQ(L.pipes[smem].stage_bytes, uint32_t(stage_bytes)) << what;  // own A + both B halves
    EXPECT_LE(L.smem_bytes, ts::kSm90SmemCapacity) << what;
  };
  check(pp::make_gemm_pingpong_multicast<pp::Tile128x128>(p, {}, cpu_test::quiet()),
        pp::Tile128x128::kBytesA + pp::Tile128x128::kBytesB, "128x128");
  check(pp::make_gemm_pingpong_multicast<pp::Tile64x256>(p, {}, cpu_test::quiet()),
        pp::Tile64x256::kBytesA + pp::Tile64x256::kBytesB, "64x256");
}

// Both CTAs of a cluster take the same block (same column, rows 4m..4m+1 and 4m+2..4m+3)
// with the same half-1 condition; every tile of D is computed once, and only the rows
// past M (rank 1 of a block that sticks out) are computed without existing.
TEST(GemmPingPongMulticast, ClusterQueueGivesBothCtasOneBlockAndCoversEveryTileOnce) {
  for (int tm : {1, 2, 3, 4, 5, 7, 16, 17, 33, 40})
    for (int tn : {1, 3, 8}) {
      pp::ClusterPairQueue<2> q;
      q.tiles_m = tm;
      q.tiles_n = tn;
      gemm::Problem p = problem(tm * pp::kTileM, tn * pp::kTileN, 64);
      q.num_tiles = pp::cluster_items<pp::Tile128x128, 2>(p);
      ASSERT_EQ(q.num_tiles % 2, 0);
      std::vector<int> seen(size_t(tm) * tn, 0);
      for (int t = 0; t < q.num_tiles; t += 2) {
        ts::WorkTile r0 = q.make_tile(t), r1 = q.make_tile(t + 1);
        ASSERT_TRUE(r0.valid && r1.valid);
        EXPECT_EQ(pp::ClusterPairQueue<2>::cluster_rank(r0), 0);
        EXPECT_EQ(pp::ClusterPairQueue<2>::cluster_rank(r1), 1);
        EXPECT_EQ(r0.coord[1], r1.coord[1]) << t;      // the same B slice
        EXPECT_EQ(r0.coord[0] + 2, r1.coord[0]) << t;  // the next two tile rows
        EXPECT_EQ(r0.coord[2], r1.coord[2]) << t;      // one half-1 condition per cluster
        for (ts::WorkTile const& w : {r0, r1})
          for (int h = 0; h < 1 + w.coord[2]; ++h) {
            int r = pp::PairQueue::row_of(w, h), c = pp::PairQueue::col_of(w);
            ASSERT_TRUE(c >= 0 && c < tn);
            if (r < tm) ++seen[size_t(r) * tn + c];
            else EXPECT_EQ(pp::ClusterPairQueue<2>::cluster_rank(w), 1) << "only rank 1 runs past M";
          }
      }
      EXPECT_FALSE(q.make_tile(q.num_tiles).valid);
      for (size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << tm << "x" << tn << " tile " << i;
    }
}

// On the emulator (every CTA its own cluster, loading its whole B slice and taking both
// CTAs' arrivals locally) the same schedules and bodies compute D: both shapes, blocks
// sticking out of M (rank 1 past the last tile row), ragged N and K.
TEST(GemmPingPongMulticast, RunsOnTheEmulatorAgainstTheReference) {
  for (Size s : {Size{300, 128, 136}, Size{640, 300, 64}, Size{64, 512, 192}})
    for (int grid : {2, 4})
      for (uint64_t seed : {1, 2}) {
        gemm::HostGemm h(s.M, s.N, s.K, seed);
        gemm::Problem p{h.M, h.N, h.K, nullptr, nullptr, h.d.data(), &h.map_d};
        ts::arch::TensorMap2D map_b128 = h.map_b, map_a64 = h.map_a;
        map_b128.box_h = pp::Tile128x128::kTileN;
        map_a64.box_h = pp::Tile64x256::kTileM;
        std::string where = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K) + " grid " +
                            std::to_string(grid) + " seed " + std::to_string(seed);
        {
          auto tm = pp::make_gemm_pingpong_multicast<pp::Tile128x128>(p, {&h.map_a, &map_b128, nullptr},
                                                                       cpu_test::quiet());
          ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::Safe);
          ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
          EXPECT_EQ(h.check(), "") << "128x128 " << where;
        }
        h.clear_d();  // NaN again: a tile the second kernel leaves unwritten fails
        {
          auto tm = pp::make_gemm_pingpong_multicast<pp::Tile64x256>(p, {&map_a64, &h.map_b, nullptr},
                                                                      cpu_test::quiet());
          ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::Safe);
          ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed, .detect_races = seed == 1});
          EXPECT_EQ(h.check(), "") << "64x256 " << where;
        }
      }
}

TEST(GemmPingPongEmulator, MatchesReferenceAtOddAndEvenTileCounts) {
  // 3 tile rows (odd: the last pair half empty), ragged in M, N and K; 2 x 2 tiles; 5 tile rows.
  for (Size s : {Size{300, 128, 136}, Size{256, 256, 192}, Size{640, 100, 64}})
    for (int grid : {1, 2})
      for (uint64_t seed : {1, 2, 3}) run_on_emulator(s, grid, seed);
}

}  // namespace
