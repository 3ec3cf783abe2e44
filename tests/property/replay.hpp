// Running Programs on the CPU emulator as the properties and the regression tests do: a
// free run under seeds, and the replay of the checker's counterexample.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "schedule_program.hpp"

namespace prop {

// What `run` raised: "deadlock", "race", "pdl", "error: <message>" or "" (ran clean);
// `message` gets the error's text.
std::string emulator_failure(std::function<void()> const& run, std::string* message = nullptr);

// What a schedule's emulator runs raise under seeds 1..3 ("" when all ran clean); the
// checker's verdict does not stop them (warning mode).
std::string emulated_kind(Program const& p, std::vector<int> const& tile_lengths = {});

// Replays p's counterexample as the replay properties do (at its length and tile count,
// its condition outcomes pinned) and returns what the emulator raised, or "not unsafe".
std::string replayed_kind(Program p, std::string* checker_kind = nullptr);

// The replay property (replay_property.cpp): p's UNSAFE counterexample, forced on the
// emulator, fails the same way, up to the documented tolerances it tags. For
// Emulator.CounterexamplesReplayToTheSameFailure and WarpLanes.* alike.
void counterexample_replays_to_the_same_failure(Program p);
// Whether the static checks refuse p (an UNSAFE checker verdict alone is no refusal).
bool refused_by_static_checks(Program const& p);
// True when every problem a verification error lists is the exhaustive checker's verdict
// (S6.9.*), not a static check's refusal.
bool only_checker_verdicts(std::string const& what);
// Which ring kinds a program has: "async only", "tma", "tma+mma" (any tma_umma ring),
// with ", turns" where a consumer skips stages (docs/turns.md).
std::string flavors(Program const& p);

}  // namespace prop
