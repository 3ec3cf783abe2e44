// Partial-order reduction for the explorer: a persistent set of tasks to expand.
#pragma once
#include <cstdint>

#include "semantics.hpp"

namespace ts::check {

// Tasks (bit mask) whose enabled steps form a persistent set in state s, free of visible
// steps unless it is every enabled task. `enabled` is the mask of tasks that can move.
uint64_t persistent_set(Semantics const& sem, ProgramSet const& ps, bool parametric, uint16_t const* s,
                        uint64_t enabled);

}  // namespace ts::check
