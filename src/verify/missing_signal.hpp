// S6.10, when a declared arrival count is right but a task forgot its arriving op.
#pragma once
#include <optional>
#include <vector>

#include "pass_support.hpp"

namespace ts::verify {

// A declared count that differs from what the signalling tasks deliver has two causes:
// the count is wrong, or a task that opens the stage (acquire / wait) forgot to close it
// (commit / release). When adding the tasks that open but never close the stage makes
// the delivered count equal the declared one, it is the second: this returns the
// diagnostic naming the first such task (the count must stay; lowering it, as the
// count-mismatch hint would suggest, lets the stage be reused while that task reads it).
// Nothing otherwise. `producers` commit and `consumers` release `resource`.
std::optional<Diagnostic> missing_signal(Model const& m, int resource, bool full_barrier,
                                         std::vector<int> const& producers, std::vector<int> const& consumers);

}  // namespace ts::verify
