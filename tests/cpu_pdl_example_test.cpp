// Example 06 (PDL chain): both kernels verify, and the secondary reads every value the
// primary wrote under every seed, although its CTAs may start before the primary ends.
#include <gtest/gtest.h>

#include "copy/copy_pdl.hpp"
#include "ts/runtime/cpu/run.hpp"

TEST(CpuPdlExample, ChainVerifiesAndReadsThePrimarysWrites) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    examples::PdlBuffers b(1000);
    auto primary = examples::make_pdl_primary(b, ts::Options{.verbose = false});
    auto secondary = examples::make_pdl_secondary(b, ts::Options{.verbose = false});
    EXPECT_EQ(primary.print_and_verify().verdict, ts::Verdict::SafeAllK);
    EXPECT_EQ(secondary.print_and_verify().verdict, ts::Verdict::SafeAllK);
    ts::cpu::run_chain(primary, secondary, {.grid_blocks = 3, .resident_blocks = 4, .seed = seed});
    EXPECT_TRUE(b.matches()) << "seed " << seed;
  }
}

TEST(CpuPdlExample, PrimaryWithoutTheAssumptionIsAPdlViolation) {
  // Without assume_pdl_wait_completed the checker sees a launch before any wait.
  examples::PdlBuffers b(100);
  long long n = 100;
  auto launch = ts::resource("launch", ts::PdlLaunch{});
  auto buf = ts::resource("buf", examples::PdlBuffer{{}, b.buf.data(), n});
  auto t = ts::Task("Writer").warps(0, 1).writes(buf, launch).schedule(examples::PdlPrimary{}, launch, buf);
  auto tm = ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{buf, {}}},
                            ts::Options{.verbose = false, .throw_on_unsafe = false});  // keep the verdict
  auto rep = tm.print_and_verify();
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe);
  EXPECT_NE(rep.checker_text.find("PDL"), std::string::npos) << rep.checker_text;
}
