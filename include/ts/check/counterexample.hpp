// Machine-readable counterexamples (SPEC S7, DESIGN "replayable on the CPU backend"):
// one JSON object per run with the kind, the detail text and every event as
// {task, task_name, step, text, section, iteration, tile}, in execution order. The
// CPU emulator replays a run by letting exactly these tasks take these steps in order.
#pragma once
#include <string>

#include "ts/check/explore.hpp"

namespace ts::check {

std::string to_json(Model const& m, Counterexample const& c);

}  // namespace ts::check
