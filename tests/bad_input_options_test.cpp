// ts::Options outside their documented ranges (include/ts/schedule/validation.hpp) are a
// ts::OptionsError when the TaskManager is built and when the checker starts, naming
// the option, the value and the range. Before: state_cap = LLONG_MAX said "cap hit"
// after one state, -1 ended in a bare vector::reserve exception, check_lengths {0, -5}
// answered SAFE, sample_iterations -2 printed an empty table and 5e6 printed 79 MB.
#include <gtest/gtest.h>

#include <climits>

#include "bad_input_fixtures.hpp"
#include "ts/ts.hpp"
#include "ts/check/checker.hpp"

namespace {

using bad_input::Dst;
using bad_input::Src;
using Copy = bad_input::Copy<8, true>;

auto copy_manager(ts::Options o) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto t = ts::Task("Copy").warps(0, 1).reads(in).writes(out).schedule(Copy{}, in, out);
  return ts::TaskManager(ts::tasks(t), ts::DependencyGraph{{out, {in}}}, o);
}

ts::Options quiet() {
  ts::Options o;
  o.verbose = false;
  return o;
}

// Builds a manager with `o` and returns the OptionsError's diagnostic.
ts::Diagnostic rejected(ts::Options o) {
  try {
    copy_manager(o);
  } catch (ts::OptionsError const& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "expected ts::OptionsError";
  return {};
}

}  // namespace

TEST(BadInputOptions, StateCapLlongMaxRejected) {
  auto o = quiet();
  o.state_cap = LLONG_MAX;
  auto d = rejected(o);
  EXPECT_EQ(d.check, "options.state_cap-range");
  EXPECT_EQ(d.expected, "1 <= state_cap <= 2000000000");
  EXPECT_EQ(d.actual, std::to_string(LLONG_MAX));
}

TEST(BadInputOptions, NegativeStateCapRejected) {
  auto o = quiet();
  o.state_cap = -1;
  auto d = rejected(o);
  EXPECT_EQ(d.check, "options.state_cap-range");
  EXPECT_EQ(d.actual, "-1");
  EXPECT_NE(d.format().find("Hint:"), std::string::npos);
}

TEST(BadInputOptions, NegativeCheckLengthsRejected) {
  auto o = quiet();
  o.check_lengths = {-1, 0};  // 0 is a length (a loop that runs no iteration); -1 is not
  auto d = rejected(o);
  EXPECT_EQ(d.check, "options.check_lengths-range");
  EXPECT_NE(d.message.find("check_lengths[0] = -1"), std::string::npos) << d.format();
  EXPECT_EQ(d.expected, "0 <= check_lengths[0] <= 65535");
  o.check_lengths = {3, -5};
  d = rejected(o);
  EXPECT_NE(d.message.find("check_lengths[1] = -5"), std::string::npos) << d.format();
  o.check_lengths = {70'000};
  EXPECT_EQ(rejected(o).check, "options.check_lengths-range");
}

TEST(BadInputOptions, CheckTilesOutOfRangeRejected) {
  for (int tiles : {0, -3, 17, INT_MAX}) {
    auto o = quiet();
    o.check_tiles = tiles;
    auto d = rejected(o);
    EXPECT_EQ(d.check, "options.check_tiles-range") << tiles;
    EXPECT_EQ(d.expected, "1 <= check_tiles <= 16");
  }
}

TEST(BadInputOptions, SampleIterationsOutOfRangeRejected) {
  for (int n : {-2, 0, 5'000'000}) {
    auto o = quiet();
    o.sample_iterations = n;
    auto d = rejected(o);
    EXPECT_EQ(d.check, "options.sample_iterations-range") << n;
    EXPECT_EQ(d.expected, "1 <= sample_iterations <= 256");
    EXPECT_EQ(d.actual, std::to_string(n));
  }
}

TEST(BadInputOptions, EditedModelRejectedWhenTheCheckerStarts) {
  auto tm = copy_manager(quiet());
  ts::Model m = tm.model();
  m.options.check_lengths = {-1};
  EXPECT_THROW(ts::check::run_exhaustive(m), ts::OptionsError);
  m.options.check_lengths = {};
  m.options.state_cap = -1;
  EXPECT_THROW(ts::check::run_exhaustive(m), ts::OptionsError);
}

TEST(BadInputOptions, NearMissBoundsAccepted) {
  auto o = quiet();
  o.state_cap = 2'000'000'000;
  o.check_lengths = {1, 65'535};
  o.check_tiles = 16;
  o.sample_iterations = 256;
  o.exhaustive_check = false;
  EXPECT_NO_THROW(copy_manager(o).print_and_verify());
  o = quiet();
  o.check_lengths = {1, 2};
  auto tm = copy_manager(o);
  EXPECT_EQ(tm.print_and_verify().verdict, ts::Verdict::Safe);
}
