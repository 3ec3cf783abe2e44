// Leader-routed TMA completions (SPEC S11, S6.11): every warp of a producer task has its
// leader lane issue its own share of the stage as a bulk copy onto the stage's one full
// barrier; the CTA leader armed that barrier with the whole stage's bytes at acquire, so
// the stage completes only when every warp's share has landed.
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {

constexpr int kWarps = 4;
constexpr int kPerWarp = 64;  // bytes each producing warp's leader copies per stage
constexpr int kStageInts = kWarps * kPerWarp / 4;
constexpr int kStages = 2;

struct Source : ts::MemoryResource {
  int32_t const* src = nullptr;
  int chunks = 0;
};

struct RoutedRing : ts::MemoryResource {
  int32_t const* src = nullptr;
  int32_t* dst = nullptr;
  int chunks = 0;
  ts::SmemArray<int32_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kStages * kStageInts, 128); }
  // Each warp's leader moves its 64-byte share of the chunk.
  void fetch(ts::ProducerStage const& si) const {
    if (si.thread.lane() != 0) return;
    int w = si.thread.warp_in_task();
    ts::arch::bulk_copy_g2s(ring.ptr(si.context) + si.stage_idx * kStageInts + w * kPerWarp / 4,
                            src + si.loop_offset * kStageInts + w * kPerWarp / 4, kPerWarp, si.barrier);
  }
  // One consumer warp copies the whole stage out (eight words per lane).
  void drain(ts::ConsumerStage const& si) const {
    for (int i = si.thread.lane(); i < kStageInts; i += 32)
      dst[si.loop_offset * kStageInts + i] = ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kStageInts + i);
  }
};

struct Produce {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, r->chunks, 1, [&] {
      r.acquire();
      ts::work<&RoutedRing::fetch>(r);
      r.commit();
    });
  }
};
struct Consume {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, r->chunks, 1, [&] {
      r.wait();
      ts::work<&RoutedRing::drain>(r);
      r.release();
    });
  }
};

auto routed(std::vector<int32_t> const& src, std::vector<int32_t>& dst, int chunks, int declared_bytes) {
  auto cfg = ts::PipelineConfig::tma_async({.num_stages = kStages,
                                            .num_bytes = declared_bytes,
                                            .producer_group = {ts::Agent::Thread, 1},
                                            .consumer_group = {ts::Agent::Thread, 32},
                                            .num_bytes_per_warp_per_cta = kPerWarp});
  auto ring = ts::resource("ring", RoutedRing{{}, src.data(), dst.data(), chunks, {}}, cfg);
  auto p = ts::Task("Load").warps(0, kWarps).writes(ring).schedule(Produce{}, ring);
  auto c = ts::Task("Drain").warps(kWarps, 1).reads(ring).schedule(Consume{}, ring);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {}}}, warnings_only());
}

TEST(CpuLeaderRouted, EveryWarpsShareCompletesTheStage) {
  int chunks = 6;
  std::vector<int32_t> src(chunks * kStageInts), dst(src.size(), -1);
  for (size_t i = 0; i < src.size(); ++i) src[i] = int32_t(i * 31 + 7);
  auto tm = routed(src, dst, chunks, kWarps * kPerWarp);
  auto rep = tm.print_and_verify();
  EXPECT_TRUE(rep.diagnostics.empty()) << check_ids(rep);
  EXPECT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK) << rep.checker_text;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::fill(dst.begin(), dst.end(), -1);
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed, .detect_races = true});
    EXPECT_EQ(dst, src) << "seed " << seed;
  }
}

// Declaring one warp's share as the stage's bytes: the verifier says what it should be,
// and on the emulator the stage completes after the first share: the other shares land
// on the barrier's next phase, whose transaction count is then negative when the stage is
// re-armed (the same mistake corrupts or hangs a real kernel).
TEST(CpuLeaderRouted, UnderDeclaredBytesAreRejectedAndFailOnTheEmulator) {
  int chunks = 6;
  std::vector<int32_t> src(chunks * kStageInts, 1), dst(src.size(), 0);
  auto tm = routed(src, dst, chunks, kPerWarp);
  auto rep = tm.print_and_verify();
  EXPECT_TRUE(has_warning(rep, "S6.11.leader-routed-bytes")) << check_ids(rep);
  try {
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = 1});
    ADD_FAILURE() << "the emulator should report the transaction-byte mismatch";
  } catch (ts::cpu::EmulationError const& e) {
    EXPECT_NE(std::string(e.what()).find("transaction-byte"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ring"), std::string::npos) << e.what();
  }
}

}  // namespace
