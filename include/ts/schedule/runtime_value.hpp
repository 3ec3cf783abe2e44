// ts::runtime(v, "name"): a launch value used as a loop bound that the checker must treat
// as runtime (every length, or the lengths in Options::check_lengths) rather than as the
// one value seen at capture. In the executing contexts it is just the value.
// ts::runtime(v, "name").at_least(1): the value is never below 1, so a loop
// `domain_loop(0, it, 1)` always runs; without it the checker also covers length 0.
// The proof trusts the declaration: capture refuses a value below its declared minimum,
// and domain_loop checks a bound given to it as it is (RuntimeValue or AtLeast, not the
// result of arithmetic on one) at the loop's entry: the emulator always (an
// EmulationError naming the bound, its value and the minimum), the GPU in debug builds
// (TS_BOUNDED_WAITS: it prints and traps); release GPU builds trust it
// (docs/cuda-backend.md, "Checks in release builds").
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

// A plain value with the minimum declared for it by ts::at_least(m, v): what the
// executing contexts get for `ts::at_least(1, ts::per_tile<&Q::k_iters>(wq))`. It is
// the value wherever an integer is wanted; domain_loop checks the minimum. (The
// recorder's per_tile gives an ir::Bound and takes its own overload, schedule/recorder.hpp.)
struct AtLeast {
  long long value;
  long long least;
  TS_HD constexpr operator long long() const { return value; }  // NOLINT: a bound converts to its value
};

// ts::at_least(m, bound): the same declaration for any loop bound, e.g. a per-tile
// provider `ts::at_least(1, ts::per_tile<&Q::k_iters>(wq))`.
TS_HD constexpr RuntimeValue at_least(long long m, RuntimeValue v) { return v.at_least(m); }
TS_HD constexpr AtLeast at_least(long long m, long long v) { return {v, m}; }

}  // namespace ts
