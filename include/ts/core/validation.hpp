// Forwarding header, kept for the old include path: the Options and task-layout
// validation moved to the schedule layer with the Model, include/ts/schedule/validation.hpp.
// The library itself does not include this file (docs/architecture.md, "Layers").
#pragma once
#include "ts/schedule/validation.hpp"
