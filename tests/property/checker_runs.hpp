// Running the exhaustive checker on a Program in its different modes.
#pragma once
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "schedule_program.hpp"
#include "ts/ts.hpp"
#include "ts/check/checker.hpp"

namespace prop {

ts::Options quiet_options();
ts::Model model_of(Program const& p);

struct Verdict {
  ts::Verdict verdict = ts::Verdict::Unchecked;
  std::string kind;  // failure kind ("deadlock", "race", "pdl", "unbalanced"), empty when none
  std::string report;
  // Failure kinds some explored run reached (its Summary line counts one or more).
  // Which failure a mode reports first depends on its exploration order when a schedule
  // fails in several ways; whether a kind is reachable must not.
  std::set<std::string> kinds_reached;
  long long length = 0;  // the failing run's domain length
  int tiles = -1;        // the failing run's work tiles (-1: no tile loop)
  bool unsafe() const { return verdict == ts::Verdict::Unsafe; }
  bool safe() const { return verdict == ts::Verdict::Safe || verdict == ts::Verdict::SafeAllK; }
};

// lengths empty: the checker's default (parametric proof where it applies).
Verdict check(ts::Model m, bool reduction, std::vector<long long> lengths = {});

std::string verdict_name(ts::Verdict v);

}  // namespace prop
