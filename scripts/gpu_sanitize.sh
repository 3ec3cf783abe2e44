#!/usr/bin/env bash
# compute-sanitizer racecheck and synccheck over every GEMM variant, the copies and the
# pipeline-group examples at >= 512 tiles, so persistent CTAs take many tiles each and every
# queue slot and ring stage is reused (a one-tile-per-CTA run cannot show a slot refilled
# under a lane still reading it). Each run's own result checks must pass too.
#   ts_bench_gemm M N K: static, hand-written twin, dynamic scheduler, row-major B,
#     column-major A, column-major A + row-major B (128 x 256 tiles: 4096x4096 and
#     2048x8192 are 512 tiles); ts_bench_pingpong / ts_bench_multicast M N K;
#   ts_bench_imbalance 0 s: the grouped GEMM (static and dynamic) on 512 tiles of unequal K;
#   ts_bench_trace san M N K: the traced GEMM at each trace level;
#   ts_example_warp_lane_cuda: example 16, the warp-lane consumer;
#   ts_examples_cuda BYTES: the five copies and examples 11-13 (64 MiB: 2048 TMA stages of
#     32 KiB, 528 CTAs for the group examples).
# Usage: scripts/gpu_sanitize.sh [build-dir] [tools] [runs]   (defaults: build-gpu,
#   "racecheck synccheck", all runs). Logs under ${OUT:-out}/san_<tool>_<run>.log; one
#   "sanitize ..." line per (run, tool) on stdout. Exits non-zero when any run is unclean.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
tools=${2:-racecheck synccheck}
runs=${3:-gemm_4096x4096x512 gemm_2048x8192x1024 pingpong_4096x4096x512 multicast_4096x4096x512 grouped_512tiles examples_64MiB}
out=${OUT:-out}
mkdir -p "$out"
limit=${SANITIZE_TIMEOUT:-280}
export TS_BENCH_ONCE=1  # one timed launch per kernel: the sanitizers are 100x slower

command_of() {
  case $1 in
    gemm_4096x4096x512) echo "$build/bench/gemm/ts_bench_gemm 4096 4096 512" ;;
    gemm_2048x8192x1024) echo "$build/bench/gemm/ts_bench_gemm 2048 8192 1024" ;;
    pingpong_4096x4096x512) echo "$build/bench/gemm/ts_bench_pingpong 4096 4096 512" ;;
    multicast_4096x4096x512) echo "$build/bench/gemm/ts_bench_multicast 4096 4096 512" ;;
    examples_64MiB) echo "$build/examples/ts_examples_cuda 67112960" ;;
    # The grouped GEMM, static and dynamic schedulers, 512 tiles of unequal K (case s).
    grouped_512tiles) echo "$build/bench/gemm/ts_bench_imbalance 0 s" ;;
    # One layout variant alone: synccheck of the whole ts_bench_gemm run takes minutes.
    gemm_cola_4096x4096x512) echo "$build/bench/gemm/ts_bench_gemm cola 4096 4096 512" ;;
    gemm_colab_4096x4096x512) echo "$build/bench/gemm/ts_bench_gemm colab 4096 4096 512" ;;
    # The traced GEMM at each level (SMEM trace ring + bulk copies), 512 tiles.
    trace_4096x4096x512) echo "$build/bench/gemm/ts_bench_trace san 4096 4096 512" ;;
    # Example 16 (warp-lane consumer) on 4 M elements.
    warp_lane_4M) echo "$build/examples/ts_example_warp_lane_cuda" ;;
    *) echo "unknown run $1" >&2; return 1 ;;
  esac
}

status=0
for run in $runs; do
  cmd=$(command_of "$run") || { status=1; continue; }
  for tool in $tools; do
    log="$out/san_${tool}_${run}.log"
    start=$(date +%s)
    # shellcheck disable=SC2086
    timeout "$limit" compute-sanitizer --tool "$tool" $cmd > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    summary=$(grep -E "(RACECHECK|ERROR) SUMMARY" "$log" | tail -1 | sed 's/^========= //')
    # Hazards by kernel: the benches run cuBLAS (nvjet/cutlass kernels) in the same process
    # as the reference, and racecheck reports hazards inside those (not ours to fix); a
    # run is clean when no reported hazard or error names a TS kernel.
    ref=$(grep -E "^========= +(Error|and|Barrier|Invalid)" "$log" | grep -cE "nvjet|cublas|cutlass|sm90_xmma")
    ts=$(grep -E "^========= +(Error|and|Barrier|Invalid)" "$log" | grep -vcE "nvjet|cublas|cutlass|sm90_xmma")
    # Result lines: "... OK" / MISMATCH (gemm benches), result=PASS|FAIL (examples),
    # "check ... PASS|FAIL" (the traced GEMM).
    ok=$(grep -cE "( OK$|result=PASS|^check .* PASS$)" "$log")
    bad=$(grep -cE "(MISMATCH|result=FAIL|^check .* FAIL$)" "$log")
    echo "sanitize run=$run tool=$tool rc=$rc secs=$secs checks_ok=$ok checks_bad=$bad ts_reports=$ts reference_reports=$ref summary=\"$summary\" cmd=\"compute-sanitizer --tool $tool $cmd\""
    [ -n "$summary" ] && [ "$rc" = 0 ] && [ "$bad" = 0 ] && [ "$ts" = 0 ] || status=1
  done
done
exit $status
