// The runtime choices a checker counterexample took (condition outcomes, skipped tiles),
// read off its events, so the emulator's replay follows the same branches.
#pragma once
#include "runtime_choices.hpp"
#include "schedule_program.hpp"
#include "ts/check/explore.hpp"

namespace prop {

RuntimeChoices choices_of(Program const& p, ts::check::Counterexample const& cex);

}  // namespace prop
