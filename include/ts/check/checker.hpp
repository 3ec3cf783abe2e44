// The exhaustive interleaving checker (SPEC S7, S6.9) as seen by the TaskManager.
#pragma once
#include <optional>
#include <string>

#include "ts/check/explore.hpp"
#include "ts/core/verdict.hpp"
#include "ts/schedule/model.hpp"

namespace ts::check {

struct CheckerResult {
  Verdict verdict = Verdict::Unchecked;
  std::string report;  // S8.5 text
  std::optional<Counterexample> failure;  // the shortest failing run, when UNSAFE
  std::string failure_json;               // the same, exported (check/counterexample.hpp)
};

CheckerResult run_exhaustive(Model const& model);

}  // namespace ts::check
