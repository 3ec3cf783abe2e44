#include "checker_runs.hpp"

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
  Verdict v;
  v.verdict = r.verdict;
  if (r.failure) {
    v.kind = r.failure->kind;
    v.length = r.failure->length;
  }
  v.report = r.report;
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
