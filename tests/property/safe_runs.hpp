// Property (c), shared by the families that shape their recipes first (Emulator.*,
// Turns.*, WarpLanes.*, AliasedMma.*): a schedule the whole verification passes (static
// checks and the checker SAFE) runs on the CPU emulator under seeds 1..3 with race
// detection, without a deadlock or a race.
#pragma once
#include <string>

#include "schedule_program.hpp"

namespace prop {

// Runs inside a RapidCheck property: tags the case with the verdict (or the refusal's
// rule), then, when SAFE, asserts clean emulator runs. SAFE for every domain length
// (SAFE_ALL_K, a runtime loop) also runs lengths 0 and p.length + 2 (the generated runtime
// loops declare no minimum). `tag` is added to the verdict's tag (the family's shape).
void safe_schedule_runs_clean(Program p, std::string const& tag = "");

}  // namespace prop
