// Entry point of the exhaustive checker (SPEC S7, S6.9): picks the lengths to explore,
// runs the explorer and formats the report.
#include "ts/check/checker.hpp"

#include <algorithm>

#include "ts/check/counterexample.hpp"
#include "ts/check/explore.hpp"
#include "ts/check/length_classes.hpp"
#include "ts/check/report.hpp"
#include "ts/schedule/validation.hpp"

namespace ts::check {

// Longest domain length tried when looking for a concrete run of a parametric failure.
constexpr long long kWitnessSearch = 256;
// Most concrete runs when length classes are explored independently (each run is a
// full search of the model).
constexpr size_t kMaxLengthCombinations = 64;

namespace {

// Every combination of one length per class, smallest total first: lengths that differ
// by one come early, and the first failing combination is among the shortest runs.
std::vector<std::vector<long long>> length_combinations(size_t classes, std::vector<long long> const& lengths) {
  std::vector<std::vector<long long>> out{{}};
  for (size_t c = 0; c < classes; ++c) {
    std::vector<std::vector<long long>> next;
    for (auto const& prefix : out)
      for (long long k : lengths) {
        next.push_back(prefix);
        next.back().push_back(k);
      }
    out = std::move(next);
  }
  auto total = [](std::vector<long long> const& v) { long long t = 0; for (long long k : v) t += k; return t; };
  std::stable_sort(out.begin(), out.end(), [&](auto const& a, auto const& b) { return total(a) < total(b); });
  return out;
}

// Lengths 1..n per class, n as large as the run budget allows (4 for two or three classes).
std::vector<long long> default_class_lengths(size_t classes, long long min) {
  for (long long n = 4; n > 2; --n) {
    size_t runs = 1;
    for (size_t c = 0; c < classes && runs <= kMaxLengthCombinations; ++c) runs *= static_cast<size_t>(n);
    if (runs <= kMaxLengthCombinations) {
      std::vector<long long> v;
      for (long long k = min; k < min + n; ++k) v.push_back(k);
      return v;
    }
  }
  return {min, min + 1};
}

std::string lengths_list(std::vector<long long> const& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return "{" + s + "}";
}

// Tasks of different length classes interact: no common length may be assumed, so every
// combination of per-class lengths is a run of its own.
std::string explore_independent_lengths(Model const& model, ProgramSet const& ps, Config const& base,
                                        std::vector<Run>& runs) {
  auto const& o = model.options;
  size_t classes = ps.length_classes.size();
  auto lengths = o.check_lengths.empty() ? default_class_lengths(classes, ps.min_runtime_trip) : o.check_lengths;
  auto combos = length_combinations(classes, lengths);
  bool truncated = combos.size() > kMaxLengthCombinations;
  if (truncated) combos.resize(kMaxLengthCombinations);
  std::string failing;
  for (auto const& combo : combos) {
    Config c = base;
    c.class_length = combo;
    c.length = *std::max_element(combo.begin(), combo.end());
    runs.push_back({c, explore(model, ps, c)});
    if (runs.back().result.verdict == Verdict::Unsafe) {
      failing = describe_class_lengths(model, ps, combo);
      break;
    }
  }
  std::string scope = "the lengths of " + ps.lengths_note +
                      " are not provably equal and the tasks share a pipe or otherwise interact, so the parametric "
                      "proof does not apply; "
                      "each of the " + std::to_string(classes) + " length classes explored independently, lengths " +
                      lengths_list(lengths) + " in every combination" +
                      (truncated ? " (only the first " + std::to_string(kMaxLengthCombinations) + ")" : "") +
                      "; other lengths are not covered";
  if (!failing.empty()) scope += "; fails when " + failing;
  return scope;
}

}  // namespace

// The runs for every domain length the options ask for (parametric proof, per-class
// combinations or concrete lengths), at the tile setting of `base`.
struct Checked {
  std::vector<Run> runs;
  std::string scope;
};
Checked check_lengths(Model const& model, ProgramSet const& ps, Config base) {
  auto const& o = model.options;
  std::vector<Run> runs;
  std::string scope;
  if (ps.any_runtime_loop && ps.independent_lengths) {
    scope = explore_independent_lengths(model, ps, base, runs);
  } else if (!ps.any_runtime_loop) {
    base.length = 0;
    runs.push_back({base, explore(model, ps, base)});
    scope = ps.tasks.empty() ? "no tasks" : "no runtime-length domain loop: every loop length is fixed by static bounds, so this proof covers every run";
  } else {
    bool parametric_done = false;
    std::vector<long long> drift_lengths;
    if (o.check_lengths.empty() && ps.runtime_skips) {
      // A skip by a runtime length moves a consumer by the loop length itself, which the
      // parametric abstraction (iterations relative to the slowest task) does not keep:
      // concrete lengths up to past twice the deepest turn ring, where parity aliasing
      // (a wait num_stages ahead) first shows.
      int deepest = 1;
      for (auto const& p : ps.pipes)
        if (p.turns) deepest = std::max(deepest, p.stages);
      long long top = std::max<long long>(4, 2 * deepest + 2);
      for (long long k = ps.min_runtime_trip; k <= top; ++k) drift_lengths.push_back(k);
      scope = "the parametric proof does not apply to a skip by a runtime length (docs/turns.md); checked every "
              "domain length k = " + std::to_string(ps.min_runtime_trip) + ".." + std::to_string(top) +
              " (2 x the deepest turn ring + 2); longer lengths are not covered";
    } else if (o.check_lengths.empty()) {
      Config pc = base;
      pc.parametric = true;
      pc.min_length = ps.min_runtime_trip;
      auto r = explore(model, ps, pc);
      if (r.verdict == Verdict::SafeAllK) {
        runs.push_back({pc, std::move(r)});
        parametric_done = true;
        scope = "parametric proof: SAFE for every domain length k >= " + std::to_string(ps.min_runtime_trip) +
                (ps.min_runtime_trip == 0 ? " (a loop that runs no iteration included)"
                                          : " (every runtime-length loop is declared to run at least once)");
      } else if (r.verdict == Verdict::Unsafe) {
        // Find the shortest failing length, so the timeline and the export are a
        // concrete run. The abstraction is exact for one loop slot and for lengths that
        // may differ per tile; where every tile runs the one length, its independent
        // length per tile is a superset, and a failure must show at one length.
        bool tiles = false;
        for (auto const& t : ps.tasks) tiles |= t.has_tile_loop;
        bool superset = tiles && (base.every_tile_count || base.tiles > 1) && !ps.lengths_vary_per_tile;
        std::vector<Run> tried;
        std::string found;
        for (long long k = ps.min_runtime_trip; k <= kWitnessSearch && found.empty(); ++k) {
          Config c = base;
          c.length = k;
          auto cr = explore(model, ps, c);
          std::string over;
          if (cr.verdict != Verdict::Unsafe && c.every_tile_count && cr.stats.tile_overflow) {
            // The every-tile-count search stopped at the tile drift before the failure
            // (a task running tiles ahead of the others): the run over a fixed number of
            // tiles can still reach it, and gives the concrete witness.
            Config f = c;
            f.every_tile_count = false;
            auto fr = explore(model, ps, f);
            if (fr.verdict == Verdict::Unsafe) {
              c = f;
              cr = std::move(fr);
              over = " (over " + std::to_string(f.tiles) + " work tiles: the every-tile-count run of this length "
                     "stopped at the tile drift)";
            }
          }
          if (cr.verdict == Verdict::Unsafe) found = "; the shortest failing length is k=" + std::to_string(k) + over;
          tried.push_back({c, std::move(cr)});
        }
        if (found.empty() && superset) {
          // No failure at one length for every tile: the proof's failing run may give
          // its tiles different lengths, which these bounds cannot. The verdict is that
          // of the lengths tried (CheckTileLengths.*).
          runs = std::move(tried);
          scope = "the parametric proof lets each work tile run a domain length of its own, and its failure does "
                  "not show with one length in every tile, which is what these loops run (no bound depends on the "
                  "tile): checked each length k = " +
                  std::to_string(ps.min_runtime_trip) + ".." + std::to_string(kWitnessSearch) +
                  " with one length in every tile; longer lengths are not covered";
          return {std::move(runs), std::move(scope)};
        }
        runs.push_back({pc, std::move(r)});
        parametric_done = true;
        scope = "parametric proof: UNSAFE for some domain length" + found;
        if (!found.empty()) runs.push_back(std::move(tried.back()));
      } else {
        scope = "parametric proof did not conclude (" + (r.note.empty() ? std::string("state cap") : r.note) +
                "); checked the concrete lengths listed";
        // Tasks drifting apart is only visible in long loops: check every length up to
        // a little past the drift bound, so failures that need that distance show.
        if (r.stats.overflow)
          for (long long k = ps.min_runtime_trip; k <= r.drift_bound + 4; ++k) drift_lengths.push_back(k);
      }
    }
    if (!parametric_done) {
      std::vector<long long> lengths = o.check_lengths;
      if (lengths.empty()) lengths = drift_lengths;
      if (lengths.empty()) lengths = {1, 2, 3, std::max<long long>(4, o.sample_iterations)};
      if (o.check_lengths.empty() && ps.min_runtime_trip == 0 && lengths.front() != 0) lengths.insert(lengths.begin(), 0);
      if (!o.check_lengths.empty()) scope = "checked only the requested domain lengths; other lengths are not covered";
      for (long long k : lengths) {
        Config c = base;
        c.length = k;
        runs.push_back({c, explore(model, ps, c)});
        if (runs.back().result.verdict == Verdict::Unsafe) break;
      }
    }
  }
  bool any_parametric = false;
  for (auto const& r : runs) any_parametric |= r.config.parametric;
  if (ps.any_runtime_loop && ps.lengths_vary_per_tile && !any_parametric)
    scope += "; each run gives every work tile the same domain length, while a loop bound here may differ between "
             "tiles: runs whose tiles differ in length are not covered";
  return {std::move(runs), std::move(scope)};
}

// Persistent schedules: the every-tile-count proof first; where its abstraction does
// not apply (a task can get the tile window ahead, Semantics::tile_window()) or the state cap stops it,
// exactly check_tiles tiles, saying why.
Checked check_tiles(Model const& model, ProgramSet const& ps, Config const& base) {
  auto const& o = model.options;
  bool tiles = false;
  for (auto const& t : ps.tasks) tiles |= t.has_tile_loop;
  if (!tiles) return check_lengths(model, ps, base);
  std::string fixed = "persistent loops explored over " + std::to_string(o.check_tiles) +
                      " work tiles, each skipped or not (more tiles are not covered)";
  if (!o.check_every_tile_count) {
    auto c = check_lengths(model, ps, base);
    c.scope += "; " + fixed + " (Options::check_every_tile_count is off)";
    return c;
  }
  Config every = base;
  every.every_tile_count = true;
  auto c = check_lengths(model, ps, every);
  std::string why;
  for (auto const& r : c.runs) {
    // A stopped run (tile drift, a full condition table in a concrete-length run, the
    // state cap) proves nothing for every tile count: fall back. A parametric run that
    // stopped at the drift bound was already replaced by concrete lengths.
    if (r.result.stats.tile_overflow || (r.result.stats.overflow && !r.config.parametric)) why = r.result.note;
    else if (r.result.stats.capped && why.empty()) why = "the state cap stopped it";
  }
  // A failure the tile abstraction met is a real run, stopped search or not.
  if (why.empty() || combine(c.runs) == Verdict::Unsafe) {
    c.scope += std::string("; every number of work tiles (0, 1, 2, ...)") +
               (ps.skipped_tiles_silent ? ", skipped tiles included (a skipped tile runs only local steps, so it "
                                          "is a tile fewer)"
                : ps.any_skippable  ? ", each skipped or not"
                                    : "");
    return c;
  }
  auto f = check_lengths(model, ps, base);
  f.scope += "; the every-tile-count proof did not apply (" + why + "); " + fixed;
  return f;
}

CheckerResult run_exhaustive(Model const& model) {
  validate_options(model.options);  // an edited Model skips the TaskManager's check
  auto ps = compile(model);
  auto const& o = model.options;
  Config base;
  base.tiles = o.check_tiles;
  base.reduction = o.check_reduction;
  base.state_cap = o.state_cap;
  base.assume_pdl_wait_completed = o.assume_pdl_wait_completed;
  auto [runs, scope] = check_tiles(model, ps, base);
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
  // A failure at independently chosen lengths names each loop and its length.
  for (auto& r : runs)
    if (r.result.failure && !r.config.class_length.empty()) {
      r.result.failure->class_length = r.config.class_length;
      auto& detail = r.result.failure->detail;
      auto lengths = describe_class_lengths(model, ps, r.config.class_length);
      detail = detail.empty() ? lengths : detail + " (" + lengths + ")";
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
