// Persistent work queues on the emulator: static (tile by arithmetic) and dynamic
// (ClcFetchAsync + Cluster Launch Control). Every coordinate runs exactly once, under
// several seeds and resident-CTA counts; CLC misuse is reported.
#include "copy/copy_examples.hpp"
#include "cpu_test_util.hpp"

using namespace cpu_test;

TEST(CpuQueues, StaticPersistentRunsEveryTileOnce) {
  for (int grid = 1; grid <= 5; ++grid)
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      examples::TiledBuffers b(700);
      auto tm = examples::make_static_persistent_copy(b, grid, quiet());
      tm.print_and_verify();
      ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = 1 + int(seed % 2), .seed = seed});
      EXPECT_TRUE(b.matches()) << "grid " << grid << " seed " << seed;
      EXPECT_TRUE(b.exactly_once()) << "grid " << grid << " seed " << seed;
    }
}

TEST(CpuQueues, DynamicClcRunsEveryCoordinateOnce) {
  for (int resident : {1, 2, 4, 0})
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      examples::TiledBuffers b(700);  // 6 tiles
      auto tm = examples::make_dynamic_copy(b, quiet());
      tm.print_and_verify();
      auto st = ts::cpu::run(tm, {.grid_blocks = b.real_tiles, .resident_blocks = resident, .seed = seed});
      EXPECT_TRUE(b.matches()) << "resident " << resident << " seed " << seed;
      EXPECT_TRUE(b.exactly_once()) << "resident " << resident << " seed " << seed;
      // Either a coordinate's own CTA started or a worker took it over.
      EXPECT_EQ(st.ctas_started + st.ctas_canceled, b.real_tiles);
      if (resident == 0) {
        EXPECT_EQ(st.ctas_canceled, 0);  // nothing pending to cancel
      }
      if (resident == 1) {
        EXPECT_EQ(st.ctas_started, 1);  // one worker steals everything
      }
    }
}

namespace {
// Requests again after the loop ended on a failed response: undefined behaviour.
struct FetchAfterFailure {
  template <class S, class Q>
  void operator()(S& s, Q& wq) const {
    examples::ClcScheduler{}(s, wq);
    wq.acquire();
    wq.fetch_work_tile();
    wq.commit();
  }
};
}  // namespace

struct ClcTileQueue : examples::TileQueue {
  static constexpr auto pipeline = ts::clc_fetch_async({.num_stages = 1, .consumer_group = {ts::Agent::Thread, 96}});
};
TEST(CpuQueues, FetchAfterFailedResponseIsAnError) {
  examples::TiledBuffers b(256);
  long long n = static_cast<long long>(b.src.size());
  auto wq = ts::resource("tiles", ClcTileQueue{examples::TileQueue{{b.real_tiles, 0}, b.real_tiles}});
  auto in = ts::resource("in", examples::TileInput{{}, b.src.data(), n});
  auto out = ts::resource("out", examples::TileOutput{{}, b.dst.data(), n, b.visits.data()});
  auto sched = ts::Task("Scheduler").warps(0, 1).reads(wq).writes(wq).schedule(FetchAfterFailure{}, wq);
  auto work = ts::Task("Worker").warps(1, 2).reads(wq, in).writes(out).schedule(examples::PersistentCopy{}, wq, in, out);
  auto o = quiet();
  o.throw_on_unsafe = false;  // keep the verdict to look at (the default throws)
  auto tm = ts::TaskManager(ts::tasks(sched, work), ts::DependencyGraph{{out, {in, wq}}}, o);
  // The checker already rejects it (the extra fetch's commit is never waited)...
  auto rep = tm.print_and_verify();
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe);
  // ...and the emulator, told to run it anyway, reports the CLC contract violation.
  expect_error<ts::cpu::EmulationError>(
      [&] { ts::cpu::run(tm, {.grid_blocks = b.real_tiles, .seed = 2, .require_verified = false}); },
      {"try_cancel issued after", "failed response", "task 'Scheduler'", "tiles.fetch_work_tile()"});
}

TEST(CpuQueues, ReadingTheIdOfAFailedResponseIsAnError) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw(
            [](ts::cpu::ThreadEntry const& e) {
              if (e.coord.thread_in_block != 0) return;
              uint64_t* b = bar_at(e, 0);
              void* resp = e.kctx.smem_base + 16;
              e.emu->mbar_init(b, 1);
              e.emu->mbar_arrive_expect_tx(b, 16);
              e.emu->clc_try_cancel(resp, b);  // the only CTA is running: nothing to cancel
              e.emu->mbar_wait(b, 0, ts::WaitSite{});
              e.emu->clc_first_ctaid(resp);
            },
            32, 64);
      },
      {"first CTA id of a failed response"});
}
