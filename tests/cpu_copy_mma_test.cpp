// Emulated copy engines (1-D bulk, 2-D tensor with zero fill), checked SMEM accessors,
// the MMA fragment reference and emulated UMMA / tensor memory.
#include <numeric>

#include "cpu_test_util.hpp"

using namespace cpu_test;
using ts::cpu::ThreadEntry;

TEST(CpuCopy, BulkCopyLandsBeforeThePhaseCompletes) {
  std::vector<int32_t> src(64), out(64, 0);
  std::iota(src.begin(), src.end(), 100);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    run_raw(
        [&](ThreadEntry const& e) {
          uint64_t* b = bar_at(e, 0);
          auto* data = reinterpret_cast<int32_t*>(e.kctx.smem_base + 128);
          if (e.coord.thread_in_block == 0) {
            e.emu->mbar_init(b, 1);
            ts::arch::mbar_arrive_expect_tx(b, 256);
            ts::arch::bulk_copy_g2s(data, src.data(), 256, b);
          }
          e.emu->cta_sync();
          ts::arch::mbar_wait(b, 0);
          int t = e.coord.thread_in_block;
          out[t] = ts::arch::smem_load(data + t);
          out[t + 32] = ts::arch::smem_load(data + t + 32);
        },
        32, 512, {.seed = seed});
    EXPECT_EQ(out, src);
  }
}

// A copy's write is its barrier's copy engine's, made when it lands (docs/emulator.md, "Race
// detection"). Two copies landing in one phase of one barrier are unordered: overlapping,
// they race (one engine actor per barrier must not order them); disjoint, they do not.
void two_copies_one_phase(int second_offset) {
  std::vector<int32_t> src(64, 7);
  run_raw(
      [&](ThreadEntry const& e) {
        uint64_t* b = bar_at(e, 0);
        int const t = e.coord.thread_in_block;
        if (t == 0) e.emu->mbar_init(b, 2);
        e.emu->cta_sync();
        if (t == 0 || t == 32) {
          auto* data = reinterpret_cast<int32_t*>(e.kctx.smem_base + 128 + (t == 32 ? second_offset : 0));
          ts::arch::mbar_arrive_expect_tx(b, 256);
          ts::arch::bulk_copy_g2s(data, src.data(), 256, b);
        }
        ts::arch::mbar_wait(b, 0);
      },
      64, 1024, {.seed = 3, .detect_races = true});
}

TEST(CpuCopy, TwoCopiesLandingInOnePhaseOnOneRangeRace) {
  expect_error<ts::cpu::RaceError>([] { two_copies_one_phase(128); },
                                   {"data race", "write by the copy engine (writing for the copy issued by thread"});
  two_copies_one_phase(256);  // near miss: disjoint ranges
}

// The issuer's arrival on another barrier after the issue orders nothing of the copy: the
// thread that waits for it and then writes the copy's bytes races the copy; waiting for
// the copy's own barrier orders it (near miss). (Before the copy engine was an actor, the
// write was the issuer's at the issue and looked ordered before the token.)
void store_after_token(bool wait_copy_barrier) {
  std::vector<int32_t> src(64, 7);
  run_raw(
      [&](ThreadEntry const& e) {
        uint64_t* b = bar_at(e, 0);
        uint64_t* token = bar_at(e, 1);
        int const t = e.coord.thread_in_block;
        auto* data = reinterpret_cast<int32_t*>(e.kctx.smem_base + 128);
        if (t == 0) {
          e.emu->mbar_init(b, 1);
          e.emu->mbar_init(token, 1);
        }
        e.emu->cta_sync();
        if (t == 0) {
          ts::arch::mbar_arrive_expect_tx(b, 256);
          ts::arch::bulk_copy_g2s(data, src.data(), 256, b);
          ts::arch::mbar_arrive(token);
        }
        if (t == 32) {
          ts::arch::mbar_wait(wait_copy_barrier ? b : token, 0);
          ts::arch::smem_store(data, 1);
        }
      },
      64, 1024, {.seed = 5, .detect_races = true});
}

TEST(CpuCopy, ATokenFromTheIssuerOrdersNothingOfItsCopy) {
  expect_error<ts::cpu::RaceError>([] { store_after_token(false); }, {"data race", "the copy engine"});
  store_after_token(true);
}

TEST(CpuCopy, TensorCopyZeroFillsOutOfBounds) {
  // 5 x 3 tensor of int16, box 4 x 2 at (3, 2): columns 3..6 of rows 2..3.
  std::vector<int16_t> g(15);
  std::iota(g.begin(), g.end(), 1);
  std::vector<int16_t> box(8, -1);
  run_raw(
      [&](ThreadEntry const& e) {
        if (e.coord.thread_in_block != 0) return;
        uint64_t* b = bar_at(e, 0);
        auto* dst = reinterpret_cast<int16_t*>(e.kctx.smem_base + 64);
        e.emu->mbar_init(b, 1);
        ts::arch::TensorMap2D m{g.data(), 2, 5, 3, 10, 4, 2};
        ts::arch::mbar_arrive_expect_tx(b, 16);
        ts::arch::tensor_copy_2d_g2s(dst, m, 3, 2, b);
        ts::arch::mbar_wait(b, 0);
        for (int i = 0; i < 8; ++i) box[i] = dst[i];
      },
      32, 256);
  std::vector<int16_t> want = {14, 15, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(box, want);
}

TEST(CpuCopy, OutOfRangeCheckedAccessIsReported) {
  expect_error<ts::cpu::EmulationError>(
      [] {
        run_raw([](ThreadEntry const& e) { ts::arch::smem_store(reinterpret_cast<int*>(e.kctx.smem_base + 62), 1); },
                32, 64);
      },
      {"out-of-range shared-memory access", "[62, 66)", "64-byte"});
}

TEST(CpuMma, ReferenceMatchesNaiveProduct) {
  ts::arch::MmaShape s{4, 3, 5};
  std::vector<float> a(20), b(15), c(12, 1.0f), d(12);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(b.begin(), b.end(), -3.0f);
  ts::arch::mma_reference(d.data(), a.data(), b.data(), c.data(), s);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      float want = 1.0f;
      for (int k = 0; k < 5; ++k) want += a[i * 5 + k] * b[k * 3 + j];
      EXPECT_FLOAT_EQ(d[i * 3 + j], want);
    }
}

TEST(CpuMma, UmmaAccumulatesInTensorMemoryAndCommitArrives) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    std::vector<float> result(16, 0.0f);
    run_raw(
        [&](ThreadEntry const& e) {
          if (e.coord.thread_in_block != 0) return;
          uint64_t* b = bar_at(e, 0);
          auto* a = reinterpret_cast<float*>(e.kctx.smem_base + 64);
          auto* id = a + 16;
          e.emu->mbar_init(b, 1);
          for (int i = 0; i < 16; ++i) a[i] = float(i), id[i] = (i % 5 == 0) ? 1.0f : 0.0f;
          ts::arch::MmaShape s{4, 4, 4};
          ts::arch::umma_issue(8, a, id, s, false);  // D = A
          ts::arch::umma_issue(8, a, id, s, true);   // D += A
          ts::arch::umma_commit(b);
          ts::arch::mbar_wait(b, 0);  // the commit arrives only after both MMAs ran
          ts::arch::tmem_load(result.data(), 8, 4, 4);
        },
        32, 256, {.seed = seed});
    for (int i = 0; i < 16; ++i) EXPECT_FLOAT_EQ(result[i], 2.0f * i) << "seed " << seed;
  }
}
