#!/bin/bash
# GPU checks against the host reference, then (if they pass) the bench and racecheck/synccheck.
# Run from a folder holding ts_attention_check, libts_attention.so (a build with
# -DCMAKE_POSITION_INDEPENDENT_CODE=ON, target ts_attention) and bench_attention.py:
#   cp build-pic/bench/attention/{ts_attention_check,libts_attention.so} bench/attention/*.py DIR
#   DIR/run_gpu.sh [all|checks|bench|san]     (logs under $OUT; default all)
# `all` may not fit one 10-minute device call with every mode: run checks, bench, san as
# three calls (bench and san skip the checks). MODES_CHECK, MODES_BENCH, MODES_SAN choose
# the schedules: 0 pair, 1 shared-K/V, 2 overlap; + 8 under the dynamic global-counter
# scheduler (8, 9, 10); -1 the library's per-shape choice (the bench's default).
cd "$(dirname "$0")"
OUT=${OUT:-out}
stage=${1:-all}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv | tee $OUT/smi.txt
if [ "$stage" = all ] || [ "$stage" = checks ]; then
  ok=1
  while read -r args; do
    timeout 60 ./ts_attention_check $args || ok=0
    for mode in ${MODES_CHECK:-1 2 8 9 10 -1}; do TS_ATTN_SHARED=$mode timeout 60 ./ts_attention_check $args || ok=0; done
  done <<'LIST' 2>&1
64 2 2 0 check 256
64 2 2 1 check 256
128 4 2 1 check 200 37 128
128 4 2 0 check 200 37 128
256 3 1 1 check 160
256 2 2 0 check 300
128 16 16 0 check 1024
128 8 8 1 check 2048 1000
64 6 2 1 check 513 64 1000
LIST
  echo "checks ok=$ok"
  [ "$ok" = 1 ] || exit 1
fi
if [ "$stage" = all ] || [ "$stage" = bench ]; then
  timeout ${BENCH_TIMEOUT:-560} python3 bench_attention.py ./libts_attention.so ${BENCH_SIZE:-full} ${MODES_BENCH:--1} 2>&1 | tee $OUT/bench.log
fi
if [ "$stage" = all ] || [ "$stage" = san ]; then
  # SAN_DIMS: the head dims to run (default 64 and 256: at 256 the shared-K/V shape has one
  # Q stage, so, as in the pair shape, a group stores O into the stage it reads next tile;
  # at stop 31 sixteen runs took 23 s on the H100).
  for tool in racecheck synccheck; do
    for mode in ${MODES_SAN:-0 1 2 9 10}; do  # pair (0, 8): 512 pairs; the others: 1024 tiles
      for d in ${SAN_DIMS:-64 256}; do
        # Full blocks (O leaves by TMA), then ragged ones (group 1's rows, or the pair's
        # block, end inside the sequence: O's 16-byte store path; attention_device.cuh).
        if [ $((mode & 7)) = 0 ]; then a="$d 2 2 1 run many 512"; full=64; ragged=40
        else a="$d 4 2 1 run many 256"; full=128; ragged=100; fi
        for len in full ragged; do
          log=$OUT/san_${mode}_d${d}_${len}_$tool.log
          TS_ATTN_SHARED=$mode timeout 180 compute-sanitizer --tool $tool ./ts_attention_check $a ${!len} > $log 2>&1
          echo "mode $mode d $d $len $tool rc=$? $(grep -E '(RACECHECK|ERROR) SUMMARY' $log | tail -1)"
        done
      done
    done
  done
fi
