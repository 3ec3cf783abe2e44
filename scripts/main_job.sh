#!/usr/bin/env bash
# The main job: build and run every example (capture, printout, verification, and
# execution on the available backend), ending with one summary line per example.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target ts_examples
./build/examples/ts_examples "$@"
