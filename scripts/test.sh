#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks (scripts/install_deps.sh), then builds
# everything (host library, examples, tests, and the sm_90a device targets when nvcc is
# present) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh   # what a fresh Debian machine lacks; a no-op otherwise
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
