// The verdict of verification (SPEC S7, S8.5): the exhaustive checker returns it
// (check/explore.hpp, check/checker.hpp) and the TaskManager reports it (verify/report.hpp).
#pragma once
#include <string>

namespace ts {

// SAFE: proved for the lengths checked; SAFE_ALL_K: proved for every domain length;
// UNSAFE: a deadlock, race or PDL violation was found; INCOMPLETE: the state cap was
// hit; UNCHECKED: the exhaustive checker did not run (disabled or unavailable).
enum class Verdict { Safe, SafeAllK, Unsafe, Incomplete, Unchecked };
std::string to_string(Verdict v);

}  // namespace ts
