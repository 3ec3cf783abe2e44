// ts::Options checked against their documented ranges (include/ts/schedule/validation.hpp)
// before the TaskManager records anything and before the checker explores: a state cap
// of -1 or LLONG_MAX, a domain length of 0, or 5e6 printed iterations are mistakes to
// name, not inputs to run with.
#include <string>

#include "ts/core/errors.hpp"
#include "ts/schedule/validation.hpp"

namespace ts {

namespace {

[[noreturn]] void reject(std::string option, long long value, long long lo, long long hi, std::string why,
                         std::string hint) {
  Diagnostic d;
  d.check = "options." + option + "-range";
  d.message = "ts::Options::" + option + " = " + std::to_string(value) + " is outside its valid range; " + why;
  d.expected = std::to_string(lo) + " <= " + option + " <= " + std::to_string(hi);
  d.actual = std::to_string(value);
  d.hint = std::move(hint);
  throw OptionsError(d);
}

}  // namespace

void validate_options(Options const& o) {
  if (o.state_cap < 1 || o.state_cap > kMaxStateCap)
    reject("state_cap", o.state_cap, 1, kMaxStateCap,
           "the checker indexes states with 32 bits and reserves address space for state_cap states",
           "keep the default (20000000) or pick a cap in range; hitting it answers INCOMPLETE, never SAFE");
  for (size_t i = 0; i < o.check_lengths.size(); ++i) {
    long long k = o.check_lengths[i];
    if (k >= 0 && k <= kMaxCheckLength) continue;
    Diagnostic d;
    d.check = "options.check_lengths-range";
    d.message = "ts::Options::check_lengths[" + std::to_string(i) + "] = " + std::to_string(k) +
                " is not a domain length the checker can explore (a loop runs 0 or more times; the iteration "
                "counter is a 16-bit state word)";
    d.expected = "0 <= check_lengths[" + std::to_string(i) + "] <= " + std::to_string(kMaxCheckLength);
    d.actual = std::to_string(k);
    d.hint = "drop it, or leave check_lengths empty to let the parametric proof cover every length";
    throw OptionsError(d);
  }
  if (o.check_tiles < 1 || o.check_tiles > kMaxCheckTiles)
    reject("check_tiles", o.check_tiles, 1, kMaxCheckTiles,
           "a persistent schedule is explored over this many work tiles, and the skipped-tile mask is a 16-bit "
           "state word",
           "keep the default (2); tiles beyond the explored ones are not covered either way (docs/checker.md)");
  if (o.sample_iterations < 1 || o.sample_iterations > kMaxSampleIterations)
    reject("sample_iterations", o.sample_iterations, 1, kMaxSampleIterations,
           "the printout simulates this many iterations of every loop without static bounds and lists each step",
           "keep the default (3); the exhaustive checker, not the printout, covers the long runs");
}

}  // namespace ts
