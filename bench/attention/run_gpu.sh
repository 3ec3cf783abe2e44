#!/bin/bash
# One device call: GPU checks against the host reference, then (if they pass) the bench and
# racecheck/synccheck. Run from a folder holding ts_attention_check, libts_attention.so (a
# build with -DCMAKE_POSITION_INDEPENDENT_CODE=ON, target ts_attention) and bench_attention.py:
#   cp build-pic/bench/attention/{ts_attention_check,libts_attention.so} bench/attention/*.py DIR
#   DIR/run_gpu.sh [checks]        (logs under $OUT)
cd "$(dirname "$0")"
OUT=${OUT:-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv | tee $OUT/smi.txt
ok=1
while read -r args; do
  timeout 60 ./ts_attention_check $args || ok=0
  TS_ATTN_SHARED=1 timeout 60 ./ts_attention_check $args || ok=0
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
[ "${1:-}" = checks ] && exit 0
timeout 420 python3 bench_attention.py ./libts_attention.so 2>&1 | tee $OUT/bench.log
for tool in racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool ./ts_attention_check 64 2 2 1 run many 512 64 > $OUT/san_$tool.log 2>&1
  echo "$tool rc=$? $(grep -E '(RACECHECK|ERROR) SUMMARY' $OUT/san_$tool.log | tail -1)"
  TS_ATTN_SHARED=1 timeout 120 compute-sanitizer --tool $tool ./ts_attention_check 64 4 2 1 run many 256 128 > $OUT/san_shared_$tool.log 2>&1
  echo "shared $tool rc=$? $(grep -E '(RACECHECK|ERROR) SUMMARY' $OUT/san_shared_$tool.log | tail -1)"
done
