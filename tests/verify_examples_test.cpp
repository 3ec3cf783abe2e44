// The copy examples must verify with zero diagnostics, through the manager and directly.
#include "copy/copy_examples.hpp"
#include "verify_fixtures.hpp"

TEST(VerifyExamples, GridStrideCopyHasNoDiagnostics) {
  examples::CopyBuffers b(100);
  auto tm = examples::make_grid_stride_copy(b, vt::quiet());
  auto ds = vt::diags(tm);
  EXPECT_TRUE(ds.empty()) << vt::all(ds);
  EXPECT_NO_THROW(tm.print_and_verify());
}

TEST(VerifyExamples, PipelinedCopyHasNoDiagnostics) {
  examples::CopyBuffers b(100);
  auto tm = examples::make_pipelined_copy(b, vt::quiet());
  auto ds = vt::diags(tm);
  EXPECT_TRUE(ds.empty()) << vt::all(ds);
  EXPECT_NO_THROW(tm.print_and_verify());
}

TEST(VerifyExamples, FixturePairHasNoDiagnostics) {
  auto in = ts::resource("in", vt::Src{});
  auto out = ts::resource("out", vt::Dst{});
  auto buf = ts::resource("buf", vt::Buf{}, vt::async_cfg());
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(vt::Produce{}, in, buf);
  auto c = ts::Task("C").warps(1, 1).reads(buf).writes(out).schedule(vt::Consume{}, buf, out);
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, vt::quiet());
  auto ds = vt::diags(tm);
  EXPECT_TRUE(ds.empty()) << vt::all(ds);
}

TEST(VerifyExamples, WarningModeDowngradesErrors) {
  auto in = ts::resource("in", vt::Src{});
  auto out = ts::resource("out", vt::Dst{});
  auto buf = ts::resource("buf", vt::Buf{}, vt::async_cfg(2, {ts::Agent::Thread, 32}, {ts::Agent::Thread, 64}));
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(vt::Produce{}, in, buf);
  auto c = ts::Task("C").warps(1, 1).reads(buf).writes(out).schedule(vt::Consume{}, buf, out);
  auto o = vt::quiet();
  o.warning_mode = true;
  std::ostringstream os;
  auto tm = ts::TaskManager(ts::tasks(p, c), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, o);
  auto rep = tm.print_and_verify(os);
  ASSERT_TRUE(vt::has(rep.diagnostics, "S6.10.empty-arrivals"));
  EXPECT_EQ(rep.diagnostics[0].severity, ts::Severity::Warning);
}
