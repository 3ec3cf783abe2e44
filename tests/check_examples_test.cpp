// The copy examples must be proved safe by the exhaustive checker (SPEC S7).
#include <gtest/gtest.h>

#include "copy/copy_examples.hpp"
#include "ts/verify/checker.hpp"

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
