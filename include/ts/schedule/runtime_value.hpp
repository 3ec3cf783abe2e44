// ts::runtime(v, "name"): a launch value used as a loop bound that the checker must treat
// as runtime (every length, or the lengths in Options::check_lengths) rather than as the
// one value seen at capture. In the executing contexts it is just the value.
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

struct RuntimeValue {
  long long value;
  const char* name;
  TS_HD constexpr operator long long() const { return value; }  // NOLINT: a bound converts to its value
};

TS_HD constexpr RuntimeValue runtime(long long v, const char* name = "runtime") { return {v, name}; }

}  // namespace ts
