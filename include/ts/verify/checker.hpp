// The exhaustive interleaving checker (SPEC S7, S6.9) as seen by the TaskManager.
#pragma once
#include <string>

#include "ts/core/model.hpp"
#include "ts/verify/report.hpp"

namespace ts::check {

struct CheckerResult {
  Verdict verdict = Verdict::Unchecked;
  std::string report;  // S8.5 text
};

CheckerResult run_exhaustive(Model const& model);

}  // namespace ts::check
