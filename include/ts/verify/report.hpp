// The outcome of TaskManager::print_and_verify().
#pragma once
#include <string>
#include <vector>

#include "ts/core/errors.hpp"

namespace ts {

// SAFE: proved for the lengths checked; SAFE_ALL_K: proved for every domain length;
// UNSAFE: a deadlock, race or PDL violation was found; INCOMPLETE: the state cap was
// hit; UNCHECKED: the exhaustive checker did not run (disabled or unavailable).
enum class Verdict { Safe, SafeAllK, Unsafe, Incomplete, Unchecked };
std::string to_string(Verdict v);

struct VerifyReport {
  Verdict verdict = Verdict::Unchecked;
  std::vector<Diagnostic> diagnostics;  // errors and warnings from the static checks
  std::string checker_text;             // the checker's report (S8.5), when it ran
  bool ok() const;                      // no error-severity diagnostic and not UNSAFE
};

}  // namespace ts
