#!/usr/bin/env bash
# The main job: install what a fresh Debian machine lacks (scripts/install_deps.sh), then
# build and run every example (capture, printout, verification, execution, reference
# check), ending with one summary line per example. The CPU emulator always
# runs them; when a GPU is present (nvidia-smi lists one) and nvcc is available, the
# CUDA backend runs them too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh   # what a fresh Debian machine lacks; a no-op otherwise
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target ts_examples
./build/examples/ts_examples "$@"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  if cmake --build build -j "$(nproc)" --target ts_examples_cuda >/dev/null 2>&1; then
    ./build/examples/ts_examples_cuda
  else
    echo "main job: a GPU is present but the CUDA examples could not be built (is nvcc installed?)"
    exit 1
  fi
fi
