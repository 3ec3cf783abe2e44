// Placeholder until the static validation passes land (issue 3): no check runs yet,
// so nothing is reported and the verdict stays UNCHECKED.
#include "ts/verify/static_checks.hpp"

namespace ts::verify {
std::vector<Diagnostic> run_static_checks(Model const&) { return {}; }
}  // namespace ts::verify
