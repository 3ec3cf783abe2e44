// Switches that keep the random properties away from checker bugs known and being
// fixed in src/check/. Each names the bug; its regression test (regressions_test.cpp)
// keeps exercising it. Turn a flag off once the fix lands: the properties then generate
// the feature again.
#pragma once
#include "recipe.hpp"

namespace prop {

inline constexpr AvoidKnownBugs kAvoidKnownBugs{
    .por_alias = false,
    .parametric_step_free_loop = false,
    .commit_without_acquire = false,
};

}  // namespace prop
