// Agreement of the checker's modes, as properties of one generated Program; shared by
// the property families that shape their recipes first (Turns.*, WarpLanes.*).
#pragma once
#include <string>
#include <vector>

#include "schedule_program.hpp"

namespace prop {

// The parametric proof (every length) against the concrete `lengths`: SAFE there means
// SAFE at each; the first concrete failure must be a parametric failure too, of the same
// kind unless length classes were explored apart (a late-starting task). Discards cases
// where a run is INCOMPLETE.
void parametric_agrees_with_concrete_lengths(Program const& p, std::vector<long long> const& lengths);

// The reduction against plain BFS: the same verdict, a failure kind in both or neither,
// and with `every_kind` the same failure kinds reached (docs/checker.md, "Soundness": the
// reduction keeps every failure reachable; which one a mode reports first may differ),
// unless a parametric or every-tile-count search stopped at its bound. Discards cases
// where a run is INCOMPLETE. `tag` is added to the verdict's tag.
void reduction_agrees_with_plain_bfs(Program const& p, std::string const& tag, bool every_kind);

}  // namespace prop
