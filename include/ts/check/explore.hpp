// The exhaustive explorer (SPEC S7): breadth-first search over every interleaving of
// the tasks' programs, optionally with partial-order reduction, for one domain length
// or (parametric mode) for every length at once. BFS makes the first failure found a
// shortest one.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ts/check/program.hpp"
#include "ts/schedule/model.hpp"
#include "ts/core/verdict.hpp"

namespace ts::check {

struct Config {
  long long length = 8;        // domain length for loops whose bounds are not static
  // Per length class (ProgramSet::length_classes): that class's domain length. Empty:
  // every runtime loop has `length` (then `length` must be the longest of these).
  std::vector<long long> class_length;
  int tiles = 2;               // work tiles for persistent schedules (when not every_tile_count)
  // Abstract the number of work tiles: one proof for every tile count >= 0 and every
  // pattern of skipped tiles (src/check/tile_abstraction.cpp).
  bool every_tile_count = false;
  bool reduction = true;       // persistent sets; false = plain BFS
  bool parametric = false;     // abstract the domain length: one proof for every k >= min_length
  int min_length = 1;          // shortest runtime domain length covered by a parametric run (0 or 1)
  long long state_cap = 20'000'000;
  bool assume_pdl_wait_completed = false;
  bool stop_at_first_failure = false;  // used to fetch the shortest counterexample by plain BFS
};

// One executed step of a timeline. iteration is -1 outside the domain loop; in a
// parametric run it is the iteration as far as the abstraction keeps it (exact near
// the loop's start).
struct Event {
  int task = 0;
  int step = 0;
  ir::Section section = ir::Section::Head;
  long long iteration = -1;
  int tile = -1;
};

struct Counterexample {
  std::string kind;    // "deadlock", "race", "pdl", "unbalanced" or "run" (a complete run)
  std::string detail;  // what went wrong, naming tasks, resources and steps
  std::vector<Event> events;
  std::vector<std::string> blocked;  // deadlock: each unfinished task and the step it waits at
  long long length = 0;              // the domain length of the run (-1: parametric)
  std::vector<long long> class_length;  // per length class when they were explored independently
  bool skipped_tiles = false;
  // Work tiles of the run (-1: no tile loop). Every-tile-count runs: the smallest tile
  // count consistent with the run (tiles are numbered absolutely in events).
  int tiles = -1;
};

struct Stats {
  uint64_t states = 0, transitions = 0, complete = 0;
  uint64_t deadlocks = 0, races = 0, pdl = 0, unbalanced = 0;
  bool capped = false;
  bool overflow = false;  // parametric abstraction did not apply (drift or table overflow)
  bool tile_overflow = false;  // every-tile-count abstraction did not apply (tile drift)
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // CPU time of the exploring thread (fair on a shared machine)
};

struct ExploreResult {
  Verdict verdict = Verdict::Unchecked;
  Stats stats;
  std::optional<Counterexample> failure;  // shortest failing run
  std::optional<Counterexample> run;      // one complete run when nothing failed
  std::string note;                       // why a parametric proof did not apply
  long long drift_bound = 0;              // parametric: the distance beyond which it gives up
};

ExploreResult explore(Model const& m, ProgramSet const& ps, Config const& cfg);

}  // namespace ts::check
