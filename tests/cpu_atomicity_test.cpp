// The checker treats a task's op as one step; the runtime must make it so. When a leader
// signals for its task (TaskWarpLeader: one lane per warp; CtaLeader: one thread for all
// the task's warps), every thread of the task must have finished what precedes the op
// before the leader's arrival lets the other side reuse the slot. These tests run, with
// the race detector, schedules where every lane reads (or writes) the slot and a leader
// signals, at many tiles / stages so slots are reused: without the convergence in the
// signalling path (exec_context.hpp, Context::converge) each one is a RaceError naming a
// non-leader lane's access and the other side's next access to the same slot.
#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"

using namespace cpu_test;

namespace {

// ---- a dynamic queue whose responses every lane reads, released by warp leaders ----
// Example 05's copy with its queue's consumers signalling TaskWarpLeader (the GEMM's
// dynamic queue: one arrival per consuming warp). Each lane reads the 16-byte response in
// get_and_advance_work_tile; the scheduler's next try_cancel into that slot must come
// after all of them, not only after the leaders.
struct WarpLeaderQueue : examples::TileQueue {
  static constexpr auto pipeline = ts::clc_fetch_async(
      {.num_stages = 2, .consumer_group = {ts::Agent::Warp, 3}, .consumer_signal = ts::Signal::TaskWarpLeader});
};
auto warp_leader_queue_copy(examples::TiledBuffers& b) {
  long long n = static_cast<long long>(b.src.size());
  auto wq = ts::resource("tiles", WarpLeaderQueue{examples::TileQueue{{b.real_tiles, 0}, b.real_tiles}});
  auto in = ts::resource("in", examples::TileInput{{}, b.src.data(), n});
  auto out = ts::resource("out", examples::TileOutput{{}, b.dst.data(), n, b.visits.data()});
  auto sched = ts::Task("Scheduler").warps(0, 1).reads(wq).writes(wq).schedule(examples::ClcScheduler{}, wq);
  auto work =
      ts::Task("Worker").warps(1, 2).reads(wq, in).writes(out).schedule(examples::PersistentCopy{}, wq, in, out);
  return ts::TaskManager(ts::tasks(sched, work), ts::DependencyGraph{{out, {in, wq}}}, quiet());
}

TEST(CpuAtomicity, DynamicQueueResponseReadByEveryLaneIsReleasedAfterAllOfThem) {
  examples::TiledBuffers b(40 * examples::kTileElems);  // 40 tiles: each slot refilled many times
  auto tm = warp_leader_queue_copy(b);
  auto rep = tm.print_and_verify();
  ASSERT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK)
      << check_ids(rep) << "\n" << rep.checker_text;
  for (int resident : {1, 2})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::fill(b.dst.begin(), b.dst.end(), 0);
      std::fill(b.visits.begin(), b.visits.end(), 0);
      auto st = ts::cpu::run(
          tm, {.grid_blocks = b.real_tiles, .resident_blocks = resident, .seed = seed, .detect_races = true});
      EXPECT_TRUE(b.matches()) << "resident " << resident << " seed " << seed;
      EXPECT_TRUE(b.exactly_once()) << "resident " << resident << " seed " << seed;
      EXPECT_GT(st.ctas_canceled, 2 * resident) << "the slots must be reused";
    }
}

// ---- a thread-signalled ring whose stages every lane writes and reads ----
constexpr int kStageInts = 64;  // one word per lane of a two-warp task
constexpr int kStages = 2;

struct LaneRing : ts::MemoryResource {
  int32_t const* src = nullptr;
  int32_t* dst = nullptr;
  int chunks = 0;
  ts::SmemArray<int32_t> ring;
  void declare_allocations(ts::Allocations& a) { a.smem("ring", ring, kStages * kStageInts, 128); }
  // Every lane of the producer task stores its word of the stage...
  void fill(ts::ProducerStage const& si) const {
    int t = si.thread.thread_in_task;
    ts::arch::smem_store(ring.ptr(si.context) + si.stage_idx * kStageInts + t, src[si.loop_offset * kStageInts + t]);
  }
  // ...and every lane of the consumer task loads its word back.
  void drain(ts::ConsumerStage const& si) const {
    int t = si.thread.thread_in_task;
    dst[si.loop_offset * kStageInts + t] = ts::arch::smem_load(ring.ptr(si.context) + si.stage_idx * kStageInts + t);
  }
};

struct Fill {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, r->chunks, 1, [&] {
      r.acquire();
      ts::work<&LaneRing::fill>(r);
      r.commit();
    });
  }
};
struct Drain {
  template <class S, class R>
  void operator()(S& s, R& r) const {
    s.domain_loop(0, r->chunks, 1, [&] {
      r.wait();
      ts::work<&LaneRing::drain>(r);
      r.release();
    });
  }
};

// Two warps on each side; `sig` on both: TaskWarpLeader (one arrival per warp, the warp
// converges first) or CtaLeader (one arrival per task, the task's warps converge first).
auto lane_ring(std::vector<int32_t> const& src, std::vector<int32_t>& dst, int chunks, ts::Signal sig) {
  auto cfg = ts::PipelineConfig::async_async({.num_stages = kStages,
                                              .producer_group = {ts::Agent::Warp, 2},
                                              .consumer_group = {ts::Agent::Warp, 2},
                                              .producer_signal = sig,
                                              .consumer_signal = sig});
  auto ring = ts::resource("ring", LaneRing{{}, src.data(), dst.data(), chunks, {}}, cfg);
  auto p = ts::Task("Fill").warps(0, 2).writes(ring).schedule(Fill{}, ring);
  auto c = ts::Task("Drain").warps(2, 2).reads(ring).schedule(Drain{}, ring);
  return ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{ring, {}}}, quiet());
}

void run_lane_ring(ts::Signal sig) {
  int chunks = 16;
  std::vector<int32_t> src(chunks * kStageInts), dst(src.size(), -1);
  for (size_t i = 0; i < src.size(); ++i) src[i] = int32_t(i * 13 + 5);
  auto tm = lane_ring(src, dst, chunks, sig);
  auto rep = tm.print_and_verify();
  ASSERT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK)
      << check_ids(rep) << "\n" << rep.checker_text;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::fill(dst.begin(), dst.end(), -1);
    ts::cpu::run(tm, {.grid_blocks = 1, .seed = seed, .detect_races = true});
    EXPECT_EQ(dst, src) << "seed " << seed;
  }
}

TEST(CpuAtomicity, WarpLeaderSignalsAfterEveryLaneOfItsWarp) { run_lane_ring(ts::Signal::TaskWarpLeader); }

TEST(CpuAtomicity, CtaLeaderSignalsAfterEveryWarpOfItsTask) { run_lane_ring(ts::Signal::CtaLeader); }

// Lanes fully independent (no reconvergence at steps): the explicit convergence alone
// must order them.
TEST(CpuAtomicity, IndependentLanesAreOrderedByTheConvergenceAlone) {
  examples::TiledBuffers b(24 * examples::kTileElems);
  auto tm = warp_leader_queue_copy(b);
  auto rep = tm.print_and_verify();
  ASSERT_TRUE(rep.verdict == ts::Verdict::Safe || rep.verdict == ts::Verdict::SafeAllK)
      << check_ids(rep) << "\n" << rep.checker_text;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    std::fill(b.dst.begin(), b.dst.end(), 0);
    std::fill(b.visits.begin(), b.visits.end(), 0);
    ts::cpu::run(tm, {.grid_blocks = b.real_tiles,
                      .resident_blocks = 1,
                      .seed = seed,
                      .detect_races = true,
                      .converged_warps = false});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
    EXPECT_TRUE(b.exactly_once()) << "seed " << seed;
  }
}

}  // namespace

namespace {

// The emulated named barrier refuses what bar.sync leaves undefined.
TEST(CpuAtomicity, NamedBarrierMisuseIsReported) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw([](ts::cpu::ThreadEntry const& e) { e.emu->named_barrier(8, e.coord.thread_in_block < 32 ? 64 : 96); },
                96, 64);
      },
      {"bar.sync 8 used with thread counts"});
  expect_error<ts::cpu::EmulationError>([] { run_raw([](ts::cpu::ThreadEntry const& e) { e.emu->named_barrier(0, 32); }); },
                                        {"barrier id 0"});
}

// A named barrier over two of three warps releases them together and orders their
// accesses: a store before it by one warp, a load after it by the other is no race.
TEST(CpuAtomicity, NamedBarrierOrdersItsParticipants) {
  run_raw(
      [](ts::cpu::ThreadEntry const& e) {
        int t = e.coord.thread_in_block;
        if (t >= 64) return;  // the third warp is not part of it
        auto* word = reinterpret_cast<int32_t*>(e.kctx.smem_base);
        if (t == 0) ts::arch::smem_store(word, 42);
        e.emu->named_barrier(9, 64);
        if (t == 63) {
          EXPECT_EQ(ts::arch::smem_load(word), 42);
        }
      },
      96, 64, {.detect_races = true});
}

}  // namespace
