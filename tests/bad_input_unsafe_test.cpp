// print_and_verify() on an UNSAFE schedule (issue 13 item 9): the user guide says it
// throws; it used to return the verdict. Now ts::VerificationError carries the failing
// run and its JSON; Options::throw_on_unsafe = false or warning_mode returns it;
// INCOMPLETE is returned, never thrown.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "ts/check/explore.hpp"
#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/ts.hpp"
#include "inversion_schedules.hpp"

namespace {

struct Ring : ts::MemoryResource {
  TS_HD void put(ts::ProducerStage const&) const {}
  TS_HD void take(ts::ConsumerStage const&) const {}
};

ts::PipelineConfig one_stage() {
  return ts::PipelineConfig::async_async(
      {.num_stages = 1, .producer_group = {ts::Agent::Thread, 32}, .consumer_group = {ts::Agent::Thread, 32}});
}

using Ping = inversion_fixture::Ping<Ring>;
using Pong = inversion_fixture::Pong<Ring>;

auto inversion(ts::Options o) {
  auto x = ts::resource("x", Ring{}, one_stage());
  auto y = ts::resource("y", Ring{}, one_stage());
  auto a = ts::Task("A").warps(0, 1).reads(y).writes(x).schedule(Ping{}, x, y);
  auto b = ts::Task("B").warps(1, 1).reads(x).writes(y).schedule(Pong{}, x, y);
  return ts::TaskManager(ts::tasks(a, b), ts::DependencyGraph{{x, {y}}, {y, {x}}}, o);
}

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

}  // namespace

TEST(BadInputUnsafe, UnsafeVerdictThrowsWithTheCounterexample) {
  auto tm = inversion(quiet());
  try {
    tm.print_and_verify();
    FAIL() << "an UNSAFE schedule must throw ts::VerificationError";
  } catch (ts::VerificationError const& e) {
    ASSERT_TRUE(e.unsafe()) << e.what();
    ASSERT_NE(e.counterexample(), nullptr);
    EXPECT_EQ(e.counterexample()->kind, "deadlock");
    EXPECT_FALSE(e.counterexample_json().empty());
    EXPECT_NE(e.counterexample_json().find("\"kind\": \"deadlock\""), std::string::npos);
    EXPECT_NE(e.checker_report().find("UNSAFE"), std::string::npos);
    ASSERT_EQ(e.diagnostics().size(), 1u);
    auto const& d = e.diagnostics()[0];
    // TS_PRINT_DIAGS=1 prints the message (docs/checks.md quotes these).
    if (std::getenv("TS_PRINT_DIAGS")) std::fprintf(stderr, "DIAG %s\n", d.format().c_str());
    EXPECT_EQ(d.check, "S6.9.deadlock");
    // Named where a task is blocked: A at y.wait() or B at x.wait().
    EXPECT_TRUE((d.task == "A" && d.step_text == "y.wait()") || (d.task == "B" && d.step_text == "x.wait()"))
        << d.format();
    EXPECT_NE(d.message.find("is blocked"), std::string::npos) << d.format();
    EXPECT_EQ(d.expected, "SAFE");
    EXPECT_EQ(d.actual, "UNSAFE");
    EXPECT_NE(d.hint.find("throw_on_unsafe"), std::string::npos);
    // The JSON in the exception is the replayable export.
    EXPECT_EQ(ts::cpu::counterexample_from_json(e.counterexample_json()).events.size(),
              e.counterexample()->events.size());
  }
  // The manager kept the report and the run, and is not verified.
  EXPECT_EQ(tm.last_report().verdict, ts::Verdict::Unsafe);
  EXPECT_TRUE(tm.last_counterexample());
  EXPECT_FALSE(tm.verified());
}

TEST(BadInputUnsafe, ThrowOnUnsafeFalseReturnsTheVerdict) {
  auto o = quiet();
  o.throw_on_unsafe = false;
  auto tm = inversion(o);
  ts::VerifyReport rep;
  ASSERT_NO_THROW(rep = tm.print_and_verify());
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe);
  EXPECT_FALSE(rep.ok());
  EXPECT_TRUE(tm.last_counterexample());
  EXPECT_FALSE(tm.verified());
}

TEST(BadInputUnsafe, WarningModeReturnsTheVerdict) {
  auto o = quiet();
  o.warning_mode = true;
  auto tm = inversion(o);
  ts::VerifyReport rep;
  ASSERT_NO_THROW(rep = tm.print_and_verify());
  EXPECT_EQ(rep.verdict, ts::Verdict::Unsafe);
  EXPECT_TRUE(tm.verified());  // warning_mode: runnable, for replay on the emulator
}

TEST(BadInputUnsafe, IncompleteIsReturnedNotThrown) {
  auto o = quiet();
  o.state_cap = 3;
  auto tm = inversion(o);
  ts::VerifyReport rep;
  ASSERT_NO_THROW(rep = tm.print_and_verify());
  EXPECT_EQ(rep.verdict, ts::Verdict::Incomplete) << rep.checker_text;
}
