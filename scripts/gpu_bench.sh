#!/usr/bin/env bash
# Builds the GPU benchmarks on a machine with an H200 (nvcc, CMake, ninja, cuBLAS) and
# runs them, each with the SM clock range nvidia-smi saw during it; then the CUTLASS peers
# (scripts/gpu_peers.sh) when third_party/cutlass/ or TS_CUTLASS_DIR is there (skip with
# TS_NO_PEERS=1); then
# racecheck/synccheck at >= 512 tiles (scripts/gpu_sanitize.sh; skip with TS_NO_SANITIZE=1);
# full logs under ${OUT:-out}/. Usage: scripts/gpu_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
# clock_start / clock_stop <tag>: nvidia-smi samples the SM clock every 100 ms in between;
# clock_stop prints `clock <tag> sm_mhz_min=... sm_mhz_max=... samples=...` (also into
# $out/clocks.log), so every run's numbers come with the clock range they ran at.
clock_file=$(mktemp)
clock_start() {
  nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 100 >"$clock_file" 2>/dev/null &
  clock_pid=$!
}
clock_stop() {
  kill "$clock_pid" 2>/dev/null || true
  wait "$clock_pid" 2>/dev/null || true
  awk -v tag="$1" '$1+0>0 {v=$1+0; n++; if (n==1||v<lo) lo=v; if (v>hi) hi=v}
    END {printf "clock %s sm_mhz_min=%d sm_mhz_max=%d samples=%d\n", tag, lo, hi, n}' "$clock_file" |
    tee -a "$out/clocks.log"
}
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-gpu --target ts_bench_gemm ts_bench_pingpong ts_bench_multicast ts_bench_copy ts_bench_imbalance ts_bench_trace ts_examples_cuda -j "$(nproc)"
clock_start
./build-gpu/bench/gemm/ts_bench_gemm 2>&1 | tee "$out/gemm.log" | grep -E "^(bench|check|device|timing)"
clock_stop gemm
# the two GEMM shapes side by side (the data behind docs/gemm.md, "Choosing the shape")
clock_start
./build-gpu/bench/gemm/ts_bench_pingpong 2>&1 | tee "$out/pingpong.log" | grep -E "^(bench|check|shape|timing)"
clock_stop pingpong
clock_start
./build-gpu/bench/gemm/ts_bench_multicast 2>&1 | tee "$out/multicast.log" | grep -E "^(bench|check|multicast|timing)"
clock_stop multicast
clock_start
./build-gpu/bench/copy/ts_bench_copy 2>&1 | tee "$out/copy.log" | grep -E "^(bench|check|device)"
clock_stop copy
clock_start
for busy in 16 44 66; do  # case (a): another kernel holds `busy` SMs
  ./build-gpu/bench/gemm/ts_bench_imbalance "$busy" a 2>&1 | tee -a "$out/imbalance.log" | grep -E "^(bench|imbalance)"
done
clock_stop imbalance_a
# case (b): a grouped GEMM with tiles of unequal cost
clock_start
./build-gpu/bench/gemm/ts_bench_imbalance 0 b 2>&1 | tee -a "$out/imbalance.log" | grep -E "^(bench|imbalance|check|grouped)"
clock_stop imbalance_b
clock_start
./build-gpu/bench/gemm/ts_bench_trace "$out" 2>&1 | tee "$out/trace.log" | grep -E "^trace"
clock_stop trace
if [ -z "${TS_NO_PEERS:-}" ] && { [ -n "${TS_CUTLASS_DIR:-}" ] || [ -f third_party/cutlass/include/cutlass/cutlass.h ]; }; then
  scripts/gpu_peers.sh
fi
# every GEMM variant, the copies and the group examples under racecheck and synccheck
if [ -z "${TS_NO_SANITIZE:-}" ]; then
  scripts/gpu_sanitize.sh build-gpu 2>&1 | tee "$out/sanitize.log"
fi
