// ts::runtime(v, "name"): a launch value used as a loop bound that the checker must treat
// as runtime (every length, or the lengths in Options::check_lengths) rather than as the
// one value seen at capture. In the executing contexts it is just the value.
// ts::runtime(v, "name").at_least(1): the value is never below 1, so a loop
// `domain_loop(0, it, 1)` always runs; without it the checker also covers length 0.
// Capture refuses a value seen below its declared minimum.
#pragma once
#include "ts/core/macros.hpp"

namespace ts {

struct RuntimeValue {
  long long value;
  const char* name;
  long long least = 0;  // declared smallest value (at_least)
  TS_HD constexpr operator long long() const { return value; }  // NOLINT: a bound converts to its value
  TS_HD constexpr RuntimeValue at_least(long long m) const { return {value, name, m}; }
};

TS_HD constexpr RuntimeValue runtime(long long v, const char* name = "runtime") { return {v, name}; }

// ts::at_least(m, bound): the same declaration for any loop bound, e.g. a per-tile
// provider `ts::at_least(1, ts::per_tile<&Q::k_iters>(wq))`. Executing contexts see the
// plain integer; the recorder's overload for ir::Bound (schedule/recorder.hpp) keeps it.
TS_HD constexpr RuntimeValue at_least(long long m, RuntimeValue v) { return v.at_least(m); }
TS_HD constexpr long long at_least(long long, long long v) { return v; }

}  // namespace ts
