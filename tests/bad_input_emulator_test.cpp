// Emulator input checked before it runs (include/ts/runtime/cpu/run_validation.hpp):
// stack_bytes = 64 segfaulted inside a fiber, a grid of 2e6 CTAs ran for minutes with
// no output, and replay events naming a task or step the manager lacks only showed up
// as a "replay diverged" at the end of the run.
#include <gtest/gtest.h>

#include <string>

#include "ts/runtime/cpu/counterexample_replay.hpp"
#include "ts/runtime/cpu/run.hpp"
#include "bad_input_fixtures.hpp"
#include "ts/ts.hpp"

namespace {

using bad_input::Dst;
using bad_input::Src;
using Copy = bad_input::Copy<4>;

auto verified_copy() {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(Copy{}, in, out);
  ts::Options o;
  o.verbose = false;
  ts::TaskManager tm(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, o);
  tm.print_and_verify();
  return tm;
}

template <class F>
std::string emulation_error(F f) {
  try {
    f();
  } catch (ts::cpu::EmulationError const& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected ts::cpu::EmulationError";
  return {};
}

}  // namespace

TEST(BadInputEmulator, TinyStackRejectedBeforeAnyFiberRuns) {
  auto tm = verified_copy();
  auto m = emulation_error([&] { ts::cpu::run(tm, {.stack_bytes = 64}); });
  EXPECT_NE(m.find("[emulator.stack-bytes-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected >= 16384 bytes, got 64 bytes."), std::string::npos) << m;
}

TEST(BadInputEmulator, NearMissMinimumStackRuns) {
  auto tm = verified_copy();
  EXPECT_NO_THROW(ts::cpu::run(tm, {.grid_blocks = 2, .stack_bytes = ts::cpu::kMinStackBytes}));
}

TEST(BadInputEmulator, HugeGridRefusedWithTheLimit) {
  auto tm = verified_copy();
  auto m = emulation_error([&] { ts::cpu::run(tm, {.grid_blocks = 2'000'000}); });
  EXPECT_NE(m.find("[emulator.grid-blocks-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected 1 <= grid_blocks <= 65536, got 2000000."), std::string::npos) << m;
  EXPECT_NE(m.find("Hint:"), std::string::npos) << m;
  m = emulation_error([&] { ts::cpu::run(tm, {.grid_blocks = 0}); });
  EXPECT_NE(m.find("[emulator.grid-blocks-range]"), std::string::npos) << m;
}

TEST(BadInputEmulator, ReplayEventNamingAMissingTaskOrStepRejected) {
  auto tm = verified_copy();
  auto m = emulation_error([&] { ts::cpu::replay(tm, {{0, 5, 0, 0}}); });
  EXPECT_NE(m.find("[replay.task-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected 0 <= task <= 0, got 5."), std::string::npos) << m;
  int steps = int(tm.model().tasks[0].schedule.steps.size());
  m = emulation_error([&] { ts::cpu::replay(tm, {{0, 0, steps, 0}}); });
  EXPECT_NE(m.find("[replay.step-range] task 'Copy'"), std::string::npos) << m;
  EXPECT_NE(m.find("got " + std::to_string(steps) + "."), std::string::npos) << m;
}
