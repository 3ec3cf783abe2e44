#!/usr/bin/env bash
# Builds the GPU benchmarks on a machine with an H200 (nvcc, CMake, ninja, cuBLAS) and
# runs them, then racecheck/synccheck at >= 512 tiles (scripts/gpu_sanitize.sh; skip with
# TS_NO_SANITIZE=1); full logs under ${OUT:-out}/. Usage: scripts/gpu_bench.sh [gemm]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-gpu --target ts_bench_gemm ts_bench_pingpong ts_bench_multicast ts_bench_copy ts_bench_imbalance ts_bench_trace ts_examples_cuda -j "$(nproc)"
./build-gpu/bench/gemm/ts_bench_gemm 2>&1 | tee "$out/gemm.log" | grep -E "^(bench|check|device)"
# the two GEMM shapes side by side (the data behind gemm::pingpong::prefer_pingpong)
./build-gpu/bench/gemm/ts_bench_pingpong 2>&1 | tee "$out/pingpong.log" | grep -E "^(bench|check|shape)"
./build-gpu/bench/gemm/ts_bench_multicast 2>&1 | tee "$out/multicast.log" | grep -E "^(bench|check|multicast)"
./build-gpu/bench/copy/ts_bench_copy 2>&1 | tee "$out/copy.log" | grep -E "^(bench|check|device)"
for busy in 16 44 66; do  # case (a): another kernel holds `busy` SMs
  ./build-gpu/bench/gemm/ts_bench_imbalance "$busy" a 2>&1 | tee -a "$out/imbalance.log" | grep -E "^(bench|imbalance)"
done
# case (b): a grouped GEMM with tiles of unequal cost
./build-gpu/bench/gemm/ts_bench_imbalance 0 b 2>&1 | tee -a "$out/imbalance.log" | grep -E "^(bench|imbalance|check|grouped)"
./build-gpu/bench/gemm/ts_bench_trace "$out" 2>&1 | tee "$out/trace.log" | grep -E "^trace"
# every GEMM variant, the copies and the group examples under racecheck and synccheck
if [ -z "${TS_NO_SANITIZE:-}" ]; then
  scripts/gpu_sanitize.sh build-gpu 2>&1 | tee "$out/sanitize.log"
fi
