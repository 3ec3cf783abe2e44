// The Blackwell-shaped GEMM (examples/gemm/blackwell_gemm.hpp): TMA -> TmaUmma ring ->
// UMMA -> TMEM (UmmaAsync) -> epilogue warps -> D, static persistent or CLC-scheduled.
// Verified (static checks + exhaustive checker), its schedule table pinned by a golden
// file (TS_UPDATE_GOLDEN=1 rewrites it), and run on the CPU emulator with emulated UMMA
// and tensor memory against a host reference.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cpu_test_util.hpp"
#include "gemm/blackwell_gemm.hpp"
#include "gemm/gemm_host.hpp"
#include "golden_util.hpp"

namespace {

gemm::Problem problem(gemm::HostGemm& h) { return {h.M, h.N, h.K, &h.map_a, &h.map_b, h.d.data(), nullptr}; }

}  // namespace

TEST(BlackwellGemm, StaticAndClcVariantsAreProvedForEveryK) {
  gemm::HostGemm h(1024, 1024, 64, 1);
  std::ostringstream out;
  ts::Options o;
  o.verbose = true;
  auto st = gemm::bw::make_gemm(problem(h), o);
  auto rep = st.print_and_verify(out);
  for (auto const& d : rep.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK) << out.str();
  auto clc = gemm::bw::make_gemm(problem(h), ts::ClcScheduler{}, o);
  auto rep2 = clc.print_and_verify(out);
  for (auto const& d : rep2.diagnostics) ADD_FAILURE() << d.format();
  EXPECT_EQ(rep2.verdict, ts::Verdict::SafeAllK) << out.str();
}

TEST(BlackwellGemm, LayoutDeclaresTheTmemAccumulatorAndArrivals) {
  gemm::HostGemm h(256, 512, 128, 1);
  auto tm = gemm::bw::make_gemm(problem(h), cpu_test::quiet());
  auto const& L = tm.layout();
  EXPECT_EQ(L.tmem_columns, uint32_t(2 * gemm::kTileN));  // two 256-column accumulator stages
  EXPECT_EQ(L.block_threads, 256);
  int smem = tm.model().find_resource("smem_ab"), acc = tm.model().find_resource("acc");
  EXPECT_EQ(L.pipes[smem].full_arrivals, 1);   // the TMA producer's arrive.expect_tx
  EXPECT_EQ(L.pipes[smem].empty_arrivals, 1);  // tcgen05.commit of the MMA warp
  EXPECT_EQ(L.pipes[smem].stage_bytes, uint32_t(gemm::kBytesA + gemm::kBytesB));
  EXPECT_EQ(L.pipes[acc].full_arrivals, 1);    // tcgen05.commit
  EXPECT_EQ(L.pipes[acc].empty_arrivals, 4);   // one per epilogue warp
}

TEST(BlackwellGemm, ScheduleTableGolden) {
  gemm::HostGemm h(256, 512, 128, 1);
  golden::expect("blackwell_gemm.txt", golden::printed(gemm::bw::make_gemm(problem(h), cpu_test::quiet())));
}

TEST(BlackwellGemm, StaticPersistentMatchesReference) {
  struct Case {
    int M, N, K, grid;
  };
  for (Case c : {Case{200, 300, 136, 1}, Case{200, 300, 136, 3}, Case{256, 512, 128, 2}, Case{384, 256, 320, 2},
                 Case{1024, 256, 64, 3}})  // 8 tile rows: one whole raster group
    for (uint64_t seed : {1, 2}) {
      gemm::HostGemm h(c.M, c.N, c.K, seed);
      auto tm = gemm::bw::make_gemm(problem(h), cpu_test::quiet());
      ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
      ts::cpu::run(tm, {.grid_blocks = c.grid, .resident_blocks = c.grid, .seed = seed, .detect_races = true});
      EXPECT_EQ(h.check(), "") << c.M << "x" << c.N << "x" << c.K << " grid " << c.grid << " seed " << seed;
    }
}

TEST(BlackwellGemm, ClcScheduledMatchesReferenceEachTileOnce) {
  for (int resident : {1, 2})
    for (uint64_t seed : {3, 4}) {
      gemm::HostGemm h(300, 700, 136, seed);  // 3 x 3 tiles
      auto tm = gemm::bw::make_gemm(problem(h), ts::ClcScheduler{}, cpu_test::quiet());
      ASSERT_EQ(tm.print_and_verify().verdict, ts::Verdict::SafeAllK);
      auto st = ts::cpu::run(tm, {.grid_blocks = h.tiles(), .resident_blocks = resident, .seed = seed,
                                  .detect_races = true});
      EXPECT_EQ(h.check(), "") << "resident " << resident << " seed " << seed;
      EXPECT_EQ(st.ctas_started + st.ctas_canceled, h.tiles());
      if (resident == 1) {
        EXPECT_GT(st.ctas_canceled, 0) << "a single resident CTA must steal the others' tiles";
      }
    }
}

// tcgen05.ld lets warp w touch TMEM lanes 32 * (w % 4) .. + 31 only. GmemD::store picks
// its row by that rule, so an epilogue on warps 2..5 still covers the 128 rows; a body
// that took its row from its index in the task instead is refused by the emulator.
namespace {
struct NaiveD : gemm::bw::GmemD {
  void store(ts::ProducerStage const& si, uint32_t tmem_col) const {
    float chunk[32];
    ts::arch::emu::tmem_load_row(chunk, tmem_col, si.thread.thread_in_task, 32, si.thread);
  }
};
struct NaiveEpilogue {
  template <class S, class Acc, class Out, class Q>
  void operator()(S& s, Acc& acc, Out& out, Q& wq) const {
    s.work_tile_loop(wq, [&] {
      acc.wait();
      ts::work<&NaiveD::store>(out, ts::work<&gemm::bw::TmemAccumulator::column>(acc));
      acc.release();
      ts::queue_epilogue(wq);
    });
  }
};

template <class D, class Epilogue>
auto gemm_with_epilogue_at_warp_2(gemm::Problem const& p, D d, Epilogue epilogue) {
  auto [gmem, smem, acc, unused] = gemm::bw::detail::resources(p);
  (void)unused;
  auto out = ts::resource("d", d);
  gemm::TileQueue q;
  q.num_tiles = p.tiles_m() * p.tiles_n();
  q.tiles_m = p.tiles_m();
  q.tiles_n = p.tiles_n();
  auto tiles = ts::resource("tiles", q);
  auto load = ts::Task("Load").warps(0, 1).reads(gmem, tiles).writes(smem).schedule(gemm::bw::LoadSchedule{}, gmem,
                                                                                    smem, tiles);
  auto mma = ts::Task("Mma").warps(1, 1).reads(smem, tiles).writes(acc).schedule(gemm::bw::MmaSchedule{}, smem, acc,
                                                                                 tiles);
  auto epi = ts::Task("Epilogue").warps(2, 4).reads(acc, tiles).writes(out).schedule(epilogue, acc, out, tiles);
  return ts::TaskManager(ts::tasks(load, mma, epi), ts::DependencyGraph{{smem, {gmem}}, {acc, {smem}}, {out, {acc}}},
                         cpu_test::quiet());
}
}  // namespace

TEST(BlackwellGemm, EpilogueThreadsReadOnlyTheirWarpsTmemLanes) {
  gemm::HostGemm h(200, 300, 136, 1);
  auto p = problem(h);
  auto ok = gemm_with_epilogue_at_warp_2(p, gemm::bw::GmemD{{}, p.d, p.M, p.N}, gemm::bw::EpilogueSchedule{});
  ok.print_and_verify();
  ts::cpu::run(ok, {.grid_blocks = 2, .seed = 1});
  EXPECT_EQ(h.check(), "");

  auto naive = gemm_with_epilogue_at_warp_2(p, NaiveD{{{}, p.d, p.M, p.N}}, NaiveEpilogue{});
  naive.print_and_verify();
  try {
    ts::cpu::run(naive, {.grid_blocks = 1});
    FAIL() << "expected an EmulationError";
  } catch (ts::cpu::EmulationError const& e) {
    // Whichever misplaced warp reads first is named, e.g. "warp 2 may access TMEM lanes 64..95 only, not lane 0".
    EXPECT_NE(std::string(e.what()).find("may access TMEM lanes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("task 'Epilogue'"), std::string::npos) << e.what();
  }
}
