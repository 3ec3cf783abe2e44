// The copy examples must be proved safe by the exhaustive checker (SPEC S7).
#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"
#include "ts/check/checker.hpp"

#include <sstream>

static ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

TEST(CheckExamples, GridStrideCopyIsSafeForAllK) {
  examples::CopyBuffers b(100);
  auto tm = examples::make_grid_stride_copy(b, quiet());
  auto r = ts::check::run_exhaustive(tm.model());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
  EXPECT_NE(r.report.find("Result: SAFE"), std::string::npos);
}

TEST(CheckExamples, PipelinedCopyIsSafeForAllK) {
  examples::CopyBuffers b(1000);
  auto tm = examples::make_pipelined_copy(b, quiet());
  auto r = ts::check::run_exhaustive(tm.model());
  EXPECT_EQ(r.verdict, ts::Verdict::SafeAllK) << r.report;
}

TEST(CheckExamples, PipelinedCopyConcreteLengths) {
  examples::CopyBuffers b(1000);
  ts::Options o = quiet();
  o.check_lengths = {1, 5, 64};
  auto tm = examples::make_pipelined_copy(b, o);
  auto r = ts::check::run_exhaustive(tm.model());
  EXPECT_EQ(r.verdict, ts::Verdict::Safe) << r.report;
  EXPECT_NE(r.report.find("k=64"), std::string::npos);
}

TEST(CheckExamples, PrintAndVerifyRunsTheChecker) {
  examples::CopyBuffers b(1000);
  auto tm = examples::make_pipelined_copy(b, quiet());
  std::ostringstream os;
  auto rep = tm.print_and_verify(os);
  EXPECT_EQ(rep.verdict, ts::Verdict::SafeAllK);
  EXPECT_NE(rep.checker_text.find("Result: SAFE (for all k >= 0)"), std::string::npos) << rep.checker_text;
}

TEST(CheckExamples, StateCapIsIncompleteNeverSafe) {
  examples::CopyBuffers b(1000);
  ts::Options o = quiet();
  o.state_cap = 10;
  o.check_lengths = {64};
  auto tm = examples::make_pipelined_copy(b, o);
  auto r = ts::check::run_exhaustive(tm.model());
  EXPECT_EQ(r.verdict, ts::Verdict::Incomplete) << r.report;
  EXPECT_NE(r.report.find("WARNING: state cap 10 hit: the proof is INCOMPLETE"), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("Result: INCOMPLETE"), std::string::npos);
}
