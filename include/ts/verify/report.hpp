// The outcome of TaskManager::print_and_verify().
#pragma once
#include <string>
#include <vector>

#include "ts/core/errors.hpp"
#include "ts/core/verdict.hpp"  // Verdict (core, shared with the checker)

namespace ts {

struct VerifyReport {
  Verdict verdict = Verdict::Unchecked;
  std::vector<Diagnostic> diagnostics;  // errors and warnings from the static checks
  std::string checker_text;             // the checker's report (S8.5), when it ran
  bool ok() const;                      // no error-severity diagnostic and not UNSAFE
};

}  // namespace ts
