// One ts::runtime name, one launch value (capture rule capture.runtime-name-values).
//
// The checker treats two bounds that name the same runtime value as equal (that is how
// it proves two tasks' loops equally long). A name recorded with two different values
// would make that proof wrong, so it is refused right after capture, naming both tasks,
// the name and both values.
#pragma once
#include "ts/schedule/model.hpp"

namespace ts {

// Throws CaptureError when one ts::runtime name carries two values in the model's
// domain-loop bounds (in two tasks, or two bounds of one task).
void check_runtime_names(Model const& m);

}  // namespace ts
