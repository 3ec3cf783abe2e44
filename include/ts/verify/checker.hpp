// Forwarding header, kept for the old include path: the exhaustive checker's entry point
// (ts::check::run_exhaustive) is declared by the check layer, include/ts/check/checker.hpp.
// The library itself does not include this file (docs/architecture.md, "Layers").
#pragma once
#include "ts/check/checker.hpp"
