// The error print_and_verify() throws for an UNSAFE verdict (Options::throw_on_unsafe).
#pragma once
#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"
#include "ts/check/checker.hpp"

namespace ts {

// One diagnostic in the library's style (check "S6.9.<kind>", the task and step where
// the failing run ends, expected SAFE) plus the run itself and its JSON export.
VerificationError unsafe_verdict_error(Model const& m, check::CheckerResult const& r);

}  // namespace ts
