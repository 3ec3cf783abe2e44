#include "checker_runs.hpp"

#include <cstdio>
#include <cstdlib>

#include <cstring>

#include <sstream>

#include "manager.hpp"

namespace prop {

ts::Options quiet_options() {
  ts::Options o;
  o.verbose = false;
  o.state_cap = 2'000'000;  // generated schedules are small; a cap hit is INCOMPLETE, never a pass
  return o;
}

ts::Model model_of(Program const& p) {
  return with_manager(p, quiet_options(), [](auto& tm) { return tm.model(); });
}

Verdict check(ts::Model m, bool reduction, std::vector<long long> lengths) {
  m.options.check_reduction = reduction;
  m.options.check_lengths = std::move(lengths);
  auto r = ts::check::run_exhaustive(m);
  if (std::getenv("PROP_PRINT")) std::fprintf(stderr, "%s\n", r.report.c_str());  // debugging a shrunk case
  Verdict v;
  v.verdict = r.verdict;
  if (r.failure) {
    v.kind = r.failure->kind;
    v.length = r.failure->length;
    v.tiles = r.failure->tiles;
  }
  v.report = r.report;
  std::istringstream lines(r.report);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("Summary", 0) != 0) continue;
    for (auto [field, kind] : {std::pair{"deadlocks=", "deadlock"}, std::pair{"races=", "race"},
                               std::pair{"pdl_violations=", "pdl"}, std::pair{"unbalanced=", "unbalanced"}}) {
      auto at = line.find(field);
      if (at != std::string::npos && std::atoll(line.c_str() + at + std::strlen(field)) > 0) v.kinds_reached.insert(kind);
    }
  }
  return v;
}

std::string verdict_name(ts::Verdict v) {
  switch (v) {
    case ts::Verdict::Safe: return "SAFE";
    case ts::Verdict::SafeAllK: return "SAFE_ALL_K";
    case ts::Verdict::Unsafe: return "UNSAFE";
    case ts::Verdict::Incomplete: return "INCOMPLETE";
    default: return "UNCHECKED";
  }
}

}  // namespace prop
