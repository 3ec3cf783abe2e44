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

}  // namespace
