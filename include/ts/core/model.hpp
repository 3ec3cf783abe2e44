// Forwarding header, kept for the old include path: the Model moved to the schedule layer
// (it holds the recorded schedule IR), include/ts/schedule/model.hpp. The library itself
// does not include this file (docs/architecture.md, "Layers"; cmake/layers.cmake).
#pragma once
#include "ts/schedule/model.hpp"
