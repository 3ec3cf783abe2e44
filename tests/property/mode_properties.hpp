// Agreement of the checker's modes, as properties of one generated Program; shared by
// the property families that shape their recipes first (Turns.*, WarpLanes.*).
#pragma once
#include <vector>

#include "schedule_program.hpp"

namespace prop {

// The parametric proof (every length) against the concrete `lengths`: SAFE there means
// SAFE at each; the first concrete failure must be a parametric failure too, of the same
// kind unless length classes were explored apart (a late-starting task). Discards cases
// where a run is INCOMPLETE.
void parametric_agrees_with_concrete_lengths(Program const& p, std::vector<long long> const& lengths);

}  // namespace prop
