#!/usr/bin/env bash
# bench/peers on a machine with an H200 (nvcc, CMake, ninja, cuBLAS): the TS GEMM beside
# cuBLAS and beside CUTLASS's sm90 CollectiveBuilder GEMMs (7 configurations x raster
# swizzles 1/2/4/8, best per shape), same process, same inputs, every result checked.
# The SM clock range nvidia-smi saw during the run is printed after it (`clock peers ...`).
# Full log under ${OUT:-out}/peers.log. Usage: scripts/gpu_peers.sh [M N K]
#
# CUTLASS (BSD-3-Clause) is never committed: put its include/ and tools/util/include/ in
# the ignored third_party/cutlass/ (or point TS_CUTLASS_DIR at a checkout), e.g.
#   git clone --depth 1 https://github.com/NVIDIA/cutlass /tmp/cutlass
#   mkdir -p third_party/cutlass/tools/util
#   cp -r /tmp/cutlass/include third_party/cutlass/
#   cp -r /tmp/cutlass/tools/util/include third_party/cutlass/tools/util/
# (about 29 MB; the device tool carries it with `carry: ["third_party/cutlass"]`).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
cutlass=${TS_CUTLASS_DIR:-third_party/cutlass}

# clock_start / clock_stop <tag>: nvidia-smi samples the SM clock every 100 ms in between;
# clock_stop prints `clock <tag> sm_mhz_min=... sm_mhz_max=... samples=...`.
clock_file=$(mktemp)
clock_start() {
  nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits -lms 100 >"$clock_file" 2>/dev/null &
  clock_pid=$!
}
clock_stop() {
  kill "$clock_pid" 2>/dev/null || true
  wait "$clock_pid" 2>/dev/null || true
  awk -v tag="$1" '$1+0>0 {v=$1+0; n++; if (n==1||v<lo) lo=v; if (v>hi) hi=v}
    END {printf "clock %s sm_mhz_min=%d sm_mhz_max=%d samples=%d\n", tag, lo, hi, n}' "$clock_file"
}

cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTS_CUTLASS_DIR="$cutlass" >/dev/null
cmake --build build-gpu --target ts_bench_peers -j "$(nproc)"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader | sed 's/^/gpu /'
clock_start
rc=0
./build-gpu/bench/peers/ts_bench_peers "$@" >"$out/peers.log" 2>&1 || rc=$?
clock_stop peers | tee -a "$out/peers.log"
grep -E "^(bench|peer|device|skip|clock)|MISMATCH" "$out/peers.log" || true
echo "ts_bench_peers exit code $rc"
exit "$rc"
