// Properties (b) and (c): the checker's verdicts hold on the CPU emulator.
// (c) A schedule the whole verification passes (static checks and the checker SAFE) runs
//     under several seeds with race detection, without a deadlock or a race
//     (safe_runs.cpp, which the other families share).
// (b) An UNSAFE counterexample replays to the same failure kind (deadlock ->
//     DeadlockError, race -> RaceError, pdl -> PdlOrderError): replay_property.cpp, which
//     WarpLanes.CounterexamplesReplayToTheSameFailure shares.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "generators.hpp"
#include "known_bugs.hpp"
#include "replay.hpp"
#include "safe_runs.hpp"

namespace {
using namespace prop;

RC_GTEST_PROP(Emulator, SafeSchedulesRunCleanUnderSeeds, (Recipe const& recipe)) {
  auto p = build_program(recipe, kAvoidKnownBugs);
  safe_schedule_runs_clean(p, flavors(p));
}

RC_GTEST_PROP(Emulator, CounterexamplesReplayToTheSameFailure, (Recipe const& recipe)) {
  counterexample_replays_to_the_same_failure(build_program(recipe, kAvoidKnownBugs));
}

}  // namespace
