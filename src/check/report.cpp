#include "ts/check/report.hpp"

#include <iomanip>
#include <sstream>

namespace ts::check {

Verdict combine(std::vector<Run> const& runs) {
  bool unsafe = false, incomplete = false, all_k = !runs.empty();
  for (auto const& r : runs) {
    unsafe |= r.result.verdict == Verdict::Unsafe;
    incomplete |= r.result.verdict == Verdict::Incomplete;
    all_k &= r.result.verdict == Verdict::SafeAllK;
  }
  if (unsafe) return Verdict::Unsafe;
  if (incomplete || runs.empty()) return Verdict::Incomplete;
  return all_k ? Verdict::SafeAllK : Verdict::Safe;
}

std::string format_timeline(Model const& m, Counterexample const& c) {
  std::ostringstream os;
  for (size_t i = 0; i < c.events.size(); ++i) {
    auto const& e = c.events[i];
    os << "  " << std::setw(4) << i << "  " << std::left << std::setw(14) << m.tasks[e.task].name << std::right << " "
       << ir::to_string(e.section);
    if (e.tile >= 0) os << " tile " << e.tile;
    if (e.iteration >= 0) os << " iter " << e.iteration;
    os << "  " << m.step_text(e.task, e.step) << "\n";
  }
  return os.str();
}

namespace {
// "k=3", or one length per class: "k=(3, 2)".
std::string lengths_text(Config const& c) {
  if (c.class_length.empty()) return "k=" + std::to_string(c.length);
  std::string s = "k=(";
  for (size_t i = 0; i < c.class_length.size(); ++i) s += (i ? ", " : "") + std::to_string(c.class_length[i]);
  return s + ")";
}

// Consecutive concrete runs summarised on one line once there are this many.
constexpr size_t kMergedRange = 8;

// Two concrete runs that differ at most in their length, and have nothing to note.
bool same_kind_of_run(Run const& a, Run const& b) {
  auto plain = [](Run const& r) {
    auto const& s = r.result.stats;
    return !r.config.parametric && r.config.class_length.empty() && r.result.note.empty() && !s.tile_overflow &&
           !s.overflow && !s.capped;
  };
  return plain(a) && plain(b) && a.config.every_tile_count == b.config.every_tile_count &&
         a.config.tiles == b.config.tiles && a.config.reduction == b.config.reduction;
}

void add(Stats& total, Stats const& s) {
  total.states += s.states;
  total.complete += s.complete;
  total.deadlocks += s.deadlocks;
  total.races += s.races;
  total.pdl += s.pdl;
  total.unbalanced += s.unbalanced;
  total.seconds += s.seconds;
}

void print_counts(std::ostream& os, Stats const& s) {
  os << "states=" << s.states << " complete=" << s.complete << " deadlocks=" << s.deadlocks << " races=" << s.races
     << " pdl_violations=" << s.pdl << " unbalanced=" << s.unbalanced << " seconds=" << s.seconds << "\n";
}
}  // namespace

std::string format_report(Model const& m, ProgramSet const& ps, std::vector<Run> const& runs, std::string const& scope) {
  std::ostringstream os;
  os << "== Exhaustive interleaving check (S7) ==\n";
  for (size_t t = 0; t < m.tasks.size(); ++t) {
    auto const& ir = m.tasks[t].schedule;
    os << "Task " << m.tasks[t].name << " (" << ir.steps.size() << " steps):";
    for (auto const& s : ir.steps) {
      os << " [" << s.id << "] " << m.step_text(int(t), s.id) << " " << ir::to_string(s.section);
      // A warp-lane op (docs/warp-lanes.md) is checked as that many stage ops.
      if (int w = ps.steps[t][s.id].weight; w > 1) os << " (warp-lane: " << w << " stages, one per warp)";
      os << ";";
    }
    os << "\n";
  }
  if (ps.pairs.empty()) os << "Watched alias pairs: none\n";
  for (auto const& p : ps.pairs) os << "Watched alias pair: " << p.why << "\n";
  bool tiles = false;
  for (auto const& t : ps.tasks) tiles |= t.has_tile_loop;
  Counterexample const* shown = nullptr;
  for (int pass = 0; pass < 2 && !shown; ++pass)  // concrete failing runs first
    for (auto const& r : runs)
      if (r.result.failure && r.config.parametric == (pass == 1)) { shown = &*r.result.failure; break; }
  if (!shown)
    for (auto const& r : runs)
      if (r.result.run) { shown = &*r.result.run; break; }
  if (shown) {
    os << (shown->kind == "run" ? "One complete run" : "Shortest failing run (" + shown->kind + ")");
    os << (shown->length == -1 ? ", parametric" : shown->length == -2 ? ", static loop lengths" : ", domain length " + std::to_string(shown->length) + (shown->class_length.empty() ? "" : " (longest; per-task lengths below)"))
       << (shown->tiles >= 0 ? ", " + std::to_string(shown->tiles) + " work tile" + (shown->tiles == 1 ? "" : "s") : "")
       << (shown->skipped_tiles ? ", with skipped tiles" : "") << ":\n";
    os << format_timeline(m, *shown);
    if (!shown->detail.empty()) os << "  => " << shown->detail << "\n";
    for (auto const& b : shown->blocked) os << "  => " << b << "\n";
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    auto const& r = runs[i];
    // A long range of concrete lengths run alike (the witness search of checker.cpp)
    // reads as one line; a run with a note keeps its own.
    size_t j = i;
    while (j + 1 < runs.size() && same_kind_of_run(runs[j], runs[j + 1]) && runs[j + 1].config.length == runs[j].config.length + 1)
      ++j;
    if (j - i + 1 >= kMergedRange) {
      Stats total;
      for (size_t n = i; n <= j; ++n) add(total, runs[n].result.stats);
      os << "Summary (k=" << r.config.length << ".." << runs[j].config.length << ", " << (j - i + 1) << " runs"
         << (!tiles ? "" : r.config.every_tile_count ? ", every tile count" : ", " + std::to_string(r.config.tiles) + " tiles")
         << ", " << (r.config.reduction ? "reduced" : "plain BFS") << "): ";
      print_counts(os, total);
      i = j;
      continue;
    }
    auto const& s = r.result.stats;
    os << "Summary (" << (r.config.parametric ? "all k >= " + std::to_string(r.config.min_length) : ps.any_runtime_loop ? lengths_text(r.config) : std::string("static lengths"))
       << (!tiles ? "" : r.config.every_tile_count ? ", every tile count" : ", " + std::to_string(r.config.tiles) + " tiles")
       << ", " << (r.config.reduction ? "reduced" : "plain BFS") << "): ";
    print_counts(os, s);
    if (!r.result.note.empty() && !r.config.parametric && !s.tile_overflow) os << "WARNING: " << r.result.note << ": INCOMPLETE\n";
    if (s.tile_overflow) os << "NOTE: " << r.result.note << "; the every-tile-count search stopped there\n";
    if (s.overflow && r.config.parametric)
      os << "NOTE: " << r.result.note << "; the parametric search stopped there\n";
    if (s.capped)
      os << "WARNING: state cap " << r.config.state_cap << " hit: the proof is INCOMPLETE, this is not a pass\n";
  }
  bool every_tile = tiles && !runs.empty();
  for (auto const& r : runs) every_tile &= r.config.every_tile_count;
  os << "Scope: " << scope << "\n";
  Verdict v = combine(runs);
  int min_k = 1;
  for (auto const& r : runs)
    if (r.config.parametric) min_k = std::min(min_k, r.config.min_length);
  std::string all_k = "SAFE (for all k >= " + std::to_string(min_k) + ")";
  os << "Result: "
     << (v == Verdict::Unsafe ? "UNSAFE" : v == Verdict::SafeAllK ? all_k : v == Verdict::Safe ? "SAFE" : "INCOMPLETE")
     << (every_tile && (v == Verdict::Safe || v == Verdict::SafeAllK) ? ", for every number of work tiles" : "")
     << "\n";
  return os.str();
}

}  // namespace ts::check
