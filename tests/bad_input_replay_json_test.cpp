// The counterexample JSON reader (src/runtime/cpu/counterexample_replay.cpp) on hostile
// input: 100,000 nested '[' overflowed the stack (unbounded recursion); negative and
// 20-digit task/step indices were accepted (strtoll saturated, int() truncated).
#include <gtest/gtest.h>

#include <string>

#include "ts/runtime/cpu/counterexample_replay.hpp"

namespace {

std::string message_of(std::string const& json) {
  try {
    ts::cpu::counterexample_from_json(json);
  } catch (ts::cpu::EmulationError const& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected EmulationError for " << json.substr(0, 80);
  return {};
}

std::string with_event(std::string const& fields) {
  return R"({"kind": "deadlock", "detail": "", "domain_length": 2, "skipped_tiles": false, "blocked": [], "events": [)"
         R"({"task": 0, "step": 0, "section": "loop", "iteration": 0, "tile": -1}, {)" +
         fields + R"(, "section": "loop", "iteration": 0, "tile": -1}]})";
}

}  // namespace

TEST(BadInputReplayJson, DeeplyNestedArraysAreAnErrorNotACrash) {
  std::string json = R"({"kind": "deadlock", "events": )" + std::string(100'000, '[');
  auto m = message_of(json);
  EXPECT_NE(m.find("[replay.json-depth]"), std::string::npos) << m;
  EXPECT_NE(m.find("nest deeper than 64 levels"), std::string::npos) << m;
  EXPECT_NE(m.find("malformed counterexample JSON at offset"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected at most 64 levels"), std::string::npos) << m;
}

TEST(BadInputReplayJson, NegativeStepRejectedWithItsRange) {
  auto m = message_of(with_event(R"("task": 0, "step": -1)"));
  EXPECT_NE(m.find("[replay.json-step-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("event 1 has 'step' = -1"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected 0 <= step <= 2147483647, got -1."), std::string::npos) << m;
}

TEST(BadInputReplayJson, NegativeTaskRejectedWithItsRange) {
  auto m = message_of(with_event(R"("task": -3, "step": 0)"));
  EXPECT_NE(m.find("[replay.json-task-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("Expected 0 <= task <= 2147483647, got -3."), std::string::npos) << m;
}

TEST(BadInputReplayJson, TwentyDigitIndicesRejected) {
  auto m = message_of(with_event(R"("task": 12345678901234567890, "step": 0)"));
  EXPECT_NE(m.find("[replay.json-integer-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("12345678901234567890 does not fit in 64 bits"), std::string::npos) << m;
  EXPECT_NE(m.find("got 12345678901234567890."), std::string::npos) << m;
  // 19 digits fit in 64 bits but not in a task index.
  m = message_of(with_event(R"("task": 0, "step": 1234567890123456789)"));
  EXPECT_NE(m.find("[replay.json-step-range]"), std::string::npos) << m;
  EXPECT_NE(m.find("got 1234567890123456789."), std::string::npos) << m;
}

TEST(BadInputReplayJson, NearMissExportShapeParses) {
  auto c = ts::cpu::counterexample_from_json(with_event(R"("task": 1, "step": 3)"));
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_EQ(c.events[1].task, 1);
  EXPECT_EQ(c.events[1].step, 3);
  EXPECT_EQ(c.events[1].tile, -1);
}
