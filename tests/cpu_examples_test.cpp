// The copy examples end to end on the CPU emulator, under 8 interleaving seeds each,
// checked against the host reference (the source buffer).
#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace {

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

TEST(CpuExamples, GridStrideCopyUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    examples::CopyBuffers b(1000 + 17);
    auto tm = examples::make_grid_stride_copy(b, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuExamples, PipelinedCopyUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    examples::CopyBuffers b(1000 + 17);
    auto tm = examples::make_pipelined_copy(b, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuExamples, StaticPersistentCopyUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    int grid = 2 + int(seed % 3);
    examples::TiledBuffers b(1000 + 17);
    auto tm = examples::make_static_persistent_copy(b, grid, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.grid_blocks = grid, .resident_blocks = grid, .seed = seed});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
    EXPECT_TRUE(b.exactly_once()) << "seed " << seed;
  }
}

TEST(CpuExamples, VarlenCopyUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    examples::VarlenBuffers b(1000 + 17);
    auto tm = examples::make_varlen_copy(b, quiet());
    tm.print_and_verify();
    ts::cpu::run(tm, {.grid_blocks = 3, .resident_blocks = 2, .seed = seed, .detect_races = true});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuExamples, DynamicPersistentCopyUnder8Seeds) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    examples::TiledBuffers b(1000 + 17);
    auto tm = examples::make_dynamic_copy(b, quiet());
    tm.print_and_verify();
    auto st = ts::cpu::run(tm, {.grid_blocks = b.real_tiles, .resident_blocks = 2, .seed = seed});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
    EXPECT_TRUE(b.exactly_once()) << "seed " << seed;
    EXPECT_GT(st.ctas_canceled, 0) << "seed " << seed;
    EXPECT_EQ(st.ctas_started + st.ctas_canceled, b.real_tiles);
  }
}

}  // namespace
