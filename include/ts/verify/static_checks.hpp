// Static validation (SPEC S6, all items but S6.9): one pass per check family.
#pragma once
#include <vector>

#include "ts/core/errors.hpp"
#include "ts/core/model.hpp"

namespace ts::verify {

// Runs every static check and returns all findings (errors, or warnings in warning mode).
std::vector<Diagnostic> run_static_checks(Model const& model);

}  // namespace ts::verify
