// Replaying an exhaustive-checker counterexample on the CPU emulator, against the real
// work bodies (SPEC S7, DESIGN "replayable on the CPU backend"):
//   tm.print_and_verify();                                   // UNSAFE, warning_mode set
//   ts::cpu::replay_counterexample(tm, {.detect_races = true}); // throws what the checker found
//   auto ev = ts::cpu::replay_events(*tm.last_counterexample());
//   auto ev2 = ts::cpu::replay_events_from_json(tm.last_counterexample_json());
// A counterexample event names a task, an IR step and the domain iteration; a
// ReplayEvent names the occurrence of the step in the executing thread. The converter
// numbers each (task, step) pair's occurrences in event order, which is exactly the
// emulator's count because the counterexample lists every step each task executed.
#pragma once
#include <string>
#include <vector>

#include "ts/check/explore.hpp"
#include "ts/runtime/cpu/run.hpp"

namespace ts::cpu {

// The events of a counterexample as forced steps of CTA `cta`.
std::vector<ReplayEvent> replay_events(check::Counterexample const& c, int cta = 0);

// Reads the checker's own export (check::to_json, docs/checker.md) back; throws
// EmulationError on malformed input. task_name and text are checked nowhere: the
// indices are what replay uses.
check::Counterexample counterexample_from_json(std::string const& json);
std::vector<ReplayEvent> replay_events_from_json(std::string const& json, int cta = 0);

// Replays the counterexample of tm's last print_and_verify() (UNSAFE; set warning_mode
// so the manager counts as verified and may run). The emulator then stops with the
// failure the checker reported: DeadlockError for a deadlock, RaceError for a race
// (with RunOptions::detect_races). The run lists every step each task executed, so steps
// of CTA `cta` past it wait until it has been replayed (UnlistedSteps::WaitUntilReplayed):
// another failure of the same schedule in that CTA cannot come first (other CTAs of a
// grid_blocks > 1 run are not held), and a replay that stops short of its last event
// throws "replay diverged" rather than a DeadlockError. Throws EmulationError when there is no counterexample.
template <RunnableManager M>
  requires requires(M const& m) { m.last_counterexample(); }
RunStats replay_counterexample(M& tm, RunOptions const& o = {}, int cta = 0) {
  auto const& c = tm.last_counterexample();
  if (!c)
    throw EmulationError(
        "ts::cpu::replay_counterexample: the last print_and_verify() found no counterexample "
        "(the exhaustive checker did not run or did not report UNSAFE)");
  return replay(tm, replay_events(*c, cta), o, UnlistedSteps::WaitUntilReplayed);
}

}  // namespace ts::cpu
