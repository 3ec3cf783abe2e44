// Emulated mbarrier semantics: phases, arrivals, transaction bytes, try_wait parity,
// and the misuse the emulator reports (over-arrival, tx overflow, uninitialised wait).
#include "cpu_test_util.hpp"

using namespace cpu_test;
using ts::cpu::ThreadEntry;

TEST(CpuMbarrier, PhaseCompletesAfterAllArrivals) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    int seen_before = 0, seen_after = 0;
    run_raw(
        [&](ThreadEntry const& e) {
          uint64_t* b = bar_at(e, 0);
          if (e.coord.thread_in_block == 0) {
            e.emu->mbar_init(b, 31);
            // Parity 1 counts as complete at the start (the "previous" phase).
            EXPECT_TRUE(e.emu->mbar_try_wait(b, 1));
            seen_before = e.emu->mbar_try_wait(b, 0);
          }
          e.emu->cta_sync();
          if (e.coord.thread_in_block == 0) {
            e.emu->mbar_wait(b, 0, ts::WaitSite{});
            seen_after = e.emu->mbar_try_wait(b, 0);
            EXPECT_FALSE(e.emu->mbar_try_wait(b, 1));  // phase 1 is now in progress
          } else {
            e.emu->mbar_arrive(b);
          }
        },
        32, 64, {.seed = seed});
    EXPECT_EQ(seen_before, 0);
    EXPECT_EQ(seen_after, 1);
  }
}

TEST(CpuMbarrier, TransactionBytesHoldThePhase) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::vector<int> order;
    run_raw(
        [&](ThreadEntry const& e) {
          uint64_t* b = bar_at(e, 0);
          int t = e.coord.thread_in_block;
          if (t == 0) e.emu->mbar_init(b, 1);
          e.emu->cta_sync();
          if (t == 0) {
            e.emu->mbar_arrive_expect_tx(b, 48);  // arrivals done, 48 bytes outstanding
            order.push_back(0);
          } else if (t == 1) {
            e.emu->mbar_wait(b, 0, ts::WaitSite{});
            order.push_back(1);
          } else if (t == 2) {
            // Three 16-byte completions from copies issued by another thread.
            static int16_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
            for (int i = 0; i < 3; ++i) ts::arch::bulk_copy_g2s(e.kctx.smem_base + 64 + 16 * i, src, 16, b);
          }
        },
        32, 256, {.seed = seed});
    ASSERT_EQ(order.size(), 2u);
    EXPECT_EQ(order[0], 0);
    EXPECT_EQ(order[1], 1);
  }
}

TEST(CpuMbarrier, PhasesAlternateOverManyRounds) {
  int rounds_done = 0;
  run_raw(
      [&](ThreadEntry const& e) {
        uint64_t* b = bar_at(e, 0);
        int t = e.coord.thread_in_block;
        if (t == 0) e.emu->mbar_init(b, 32);
        e.emu->cta_sync();
        for (uint32_t r = 0; r < 5; ++r) {
          e.emu->mbar_arrive(b);
          e.emu->mbar_wait(b, r & 1u, ts::WaitSite{});
          if (t == 0) ++rounds_done;
        }
      },
      32, 64, {.seed = 3});
  EXPECT_EQ(rounds_done, 5);
}

TEST(CpuMbarrier, OverArrivalIsReported) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw(
            [](ThreadEntry const& e) {
              uint64_t* b = bar_at(e, 0);
              if (e.coord.thread_in_block == 0) e.emu->mbar_init(b, 4);
              e.emu->cta_sync();
              if (e.coord.thread_in_block == 0) {
                e.emu->mbar_arrive(b);
                e.emu->mbar_arrive(b);
              }
            },
            32, 64);
      },
      {"over-arrival", "arrived twice"});
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw(
            [](ThreadEntry const& e) {
              uint64_t* b = bar_at(e, 0);
              if (e.coord.thread_in_block == 0) e.emu->mbar_init(b, 1);
              e.emu->cta_sync();
              if (e.coord.thread_in_block == 0) e.emu->mbar_arrive_expect_tx(b, 16);
              e.emu->cta_sync();
              if (e.coord.thread_in_block == 1) e.emu->mbar_arrive(b);
            },
            32, 64);
      },
      {"over-arrival", "arrivals are all in"});
}

TEST(CpuMbarrier, TransactionOverflowIsReported) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw(
            [](ThreadEntry const& e) {
              uint64_t* b = bar_at(e, 0);
              static int16_t src[16] = {};
              if (e.coord.thread_in_block == 0) {
                e.emu->mbar_init(b, 1);
                e.emu->mbar_arrive_expect_tx(b, 16);
                ts::arch::bulk_copy_g2s(e.kctx.smem_base + 64, src, 32, b);  // 32 > 16 expected
              }
            },
            32, 128);
      },
      {"transaction-byte overflow"});
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw(
            [](ThreadEntry const& e) {
              uint64_t* b = bar_at(e, 0);
              if (e.coord.thread_in_block == 0) {
                e.emu->mbar_init(b, 1);
                e.emu->mbar_arrive_expect_tx(b, 1u << 20);
              }
            },
            32, 64);
      },
      {"transaction-byte overflow", "tx-count range"});
}

TEST(CpuMbarrier, WaitOnUninitialisedBarrierIsReported) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw([](ThreadEntry const& e) { e.emu->mbar_wait(bar_at(e, 2), 0, ts::WaitSite{}); }, 32, 64);
      },
      {"uninitialised mbarrier", "CTA 0 thread"});
}

TEST(CpuMbarrier, CtaBarrierOrdersAllThreads) {
  std::vector<int> log;
  run_raw(
      [&](ThreadEntry const& e) {
        log.push_back(0);
        e.emu->cta_sync();
        log.push_back(1);
      },
      64, 64, {.seed = 9});
  ASSERT_EQ(log.size(), 128u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(log[i], 0);
  for (int i = 64; i < 128; ++i) EXPECT_EQ(log[i], 1);
}
