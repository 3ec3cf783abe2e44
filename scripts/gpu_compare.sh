#!/usr/bin/env bash
# Before/after timing of a change on the H200: builds the benches of BASE (a commit) in
# build-base and of the working tree in build-gpu, then runs the same shapes with the two
# binaries alternately (base, this, base, this), so drift hits both alike.
# Usage: scripts/gpu_compare.sh BASE [shapes...]   (shape: MxNxK; default 4096x4096x4096
#   8192x8192x8192 2048x8192x1024). Logs under ${OUT:-out}/compare_*.log; prints the
#   "bench" lines tagged base= / this=.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$1
shift
shapes=${*:-4096x4096x4096 8192x8192x8192 2048x8192x1024}
out=${OUT:-out}
mkdir -p "$out"
targets="ts_bench_gemm ts_bench_pingpong ts_bench_multicast ts_bench_copy"
src_base=$(mktemp -d /tmp/ts_base.XXXX)
git archive "$base" | tar -x -C "$src_base"
cmake -S "$src_base" -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DTS_BUILD_TESTS=OFF -DTS_BUILD_SM100=OFF >/dev/null
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTS_BUILD_TESTS=OFF -DTS_BUILD_SM100=OFF >/dev/null
# shellcheck disable=SC2086
cmake --build build-base --target $targets -j "$(nproc)" >"$out/compare_build_base.log" 2>&1
# shellcheck disable=SC2086
cmake --build build-gpu --target $targets -j "$(nproc)" >"$out/compare_build_this.log" 2>&1
for round in 1 2; do
  for tree in base this; do
    dir=build-$([ $tree = base ] && echo base || echo gpu)
    for s in $shapes; do
      IFS=x read -r m n k <<<"$s"
      "$dir/bench/gemm/ts_bench_gemm" "$m" "$n" "$k" 2>&1 | tee -a "$out/compare_${tree}.log" |
        grep -E "^bench gemm(_dynamic|_twin)? " | sed "s/^/$tree round=$round /" || true
    done
    "$dir/bench/gemm/ts_bench_pingpong" 4096 4096 4096 2>&1 | tee -a "$out/compare_${tree}.log" |
      grep -E "^bench gemm_pingpong" | sed "s/^/$tree round=$round /" || true
    "$dir/bench/gemm/ts_bench_multicast" 4096 4096 4096 2>&1 | tee -a "$out/compare_${tree}.log" |
      grep -E "^bench gemm_multicast" | sed "s/^/$tree round=$round /" || true
    "$dir/bench/copy/ts_bench_copy" 1073741824 2>&1 | tee -a "$out/compare_${tree}.log" |
      grep -E "^bench .*size=1073741824" | sed "s/^/$tree round=$round /" || true
  done
done
