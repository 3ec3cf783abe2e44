// Entry point of the exhaustive checker (SPEC S7, S6.9): picks the lengths to explore,
// runs the explorer and formats the report.
#include "ts/verify/checker.hpp"

#include <algorithm>

#include "ts/check/counterexample.hpp"
#include "ts/check/explore.hpp"
#include "ts/check/report.hpp"
#include "ts/core/validation.hpp"

namespace ts::check {

// Longest domain length tried when looking for a concrete run of a parametric failure.
constexpr long long kWitnessSearch = 256;

CheckerResult run_exhaustive(Model const& model) {
  validate_options(model.options);  // an edited Model skips the TaskManager's check
  auto ps = compile(model);
  auto const& o = model.options;
  Config base;
  base.tiles = o.check_tiles;
  base.reduction = o.check_reduction;
  base.state_cap = o.state_cap;
  base.assume_pdl_wait_completed = o.assume_pdl_wait_completed;

  std::vector<Run> runs;
  std::string scope;
  if (!ps.any_runtime_loop) {
    base.length = 0;
    runs.push_back({base, explore(model, ps, base)});
    scope = ps.tasks.empty() ? "no tasks" : "no runtime-length domain loop: every loop length is fixed by static bounds, so this proof covers every run";
  } else {
    bool parametric_done = false;
    std::vector<long long> drift_lengths;
    if (o.check_lengths.empty()) {
      Config pc = base;
      pc.parametric = true;
      auto r = explore(model, ps, pc);
      if (r.verdict == Verdict::SafeAllK) {
        runs.push_back({pc, std::move(r)});
        parametric_done = true;
        scope = "parametric proof: SAFE for every domain length k >= 1";
      } else if (r.verdict == Verdict::Unsafe) {
        // The abstraction is exact, so some length fails; find the shortest one so the
        // timeline and the export are a concrete run.
        runs.push_back({pc, std::move(r)});
        parametric_done = true;
        scope = "parametric proof: UNSAFE for some domain length";
        for (long long k = 1; k <= kWitnessSearch; ++k) {
          Config c = base;
          c.length = k;
          auto cr = explore(model, ps, c);
          if (cr.verdict == Verdict::Unsafe) {
            runs.push_back({c, std::move(cr)});
            scope += "; the shortest failing length is k=" + std::to_string(k);
            break;
          }
        }
      } else {
        scope = "parametric proof did not conclude (" + (r.note.empty() ? std::string("state cap") : r.note) +
                "); checked the concrete lengths listed";
        // Tasks drifting apart is only visible in long loops: check every length up to
        // a little past the drift bound, so failures that need that distance show.
        if (r.stats.overflow)
          for (long long k = 1; k <= r.drift_bound + 4; ++k) drift_lengths.push_back(k);
      }
    }
    if (!parametric_done) {
      std::vector<long long> lengths = o.check_lengths;
      if (lengths.empty()) lengths = drift_lengths;
      if (lengths.empty()) lengths = {1, 2, 3, std::max<long long>(4, o.sample_iterations)};
      if (!o.check_lengths.empty()) scope = "checked only the requested domain lengths; other lengths are not covered";
      for (long long k : lengths) {
        Config c = base;
        c.length = k;
        runs.push_back({c, explore(model, ps, c)});
        if (runs.back().result.verdict == Verdict::Unsafe) break;
      }
    }
  }
  // With reduction on, the failing run found is the shortest in the reduced graph; a
  // plain BFS that stops at its first failure gives the shortest run overall.
  for (auto& r : runs) {
    if (r.result.verdict != Verdict::Unsafe || !r.config.reduction) continue;
    Config c = r.config;
    c.reduction = false;
    c.stop_at_first_failure = true;
    c.state_cap = std::min<long long>(c.state_cap, 2'000'000);
    auto b = explore(model, ps, c);
    if (b.failure && b.failure->events.size() <= r.result.failure->events.size()) r.result.failure = b.failure;
  }
  CheckerResult out;
  out.verdict = combine(runs);
  out.report = format_report(model, ps, runs, scope);
  // Prefer a concrete failing run (iterations numbered) over the parametric one.
  for (int pass = 0; pass < 2 && !out.failure; ++pass)
    for (auto const& r : runs)
      if (r.result.failure && r.config.parametric == (pass == 1)) {
        out.failure = r.result.failure;
        out.failure_json = to_json(model, *out.failure);
        break;
      }
  return out;
}

}  // namespace ts::check
