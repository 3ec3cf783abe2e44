// The checker's printed report (SPEC S8.5 / S7.5).
#pragma once
#include <string>
#include <vector>

#include "ts/check/explore.hpp"

namespace ts::check {

struct Run {
  Config config;
  ExploreResult result;
};

// The overall verdict of several runs: UNSAFE wins, then INCOMPLETE, then SAFE.
Verdict combine(std::vector<Run> const& runs);
// Step lists, watched alias pairs, one timeline (the shortest failure, else one
// complete run), a summary line per run and `Result: SAFE` / `UNSAFE` / ...
std::string format_report(Model const& m, ProgramSet const& ps, std::vector<Run> const& runs, std::string const& scope);
std::string format_timeline(Model const& m, Counterexample const& c);

}  // namespace ts::check
