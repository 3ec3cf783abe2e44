#!/bin/bash
# One device call for the torch extension (docs/attention-torch.md): build it against
# libts_attention.so, run test_torch_ext.py, then the varlen bench (bench_attention.py varlen).
# Run from a folder holding this script, ts_attention.py, test_torch_ext.py,
# bench_attention.py and torch_ext/ (bench/attention itself will do), with the library
# beside them or named by LIB:
#   cp build-pic/bench/attention/libts_attention.so bench/attention/ && bench/attention/run_torch.sh
#   LIB=$PWD/build-pic/bench/attention/libts_attention.so bench/attention/run_torch.sh
# MODES_TEST / MODES_BENCH choose the schedules (comma-separated; 0 pair, 1 shared-K/V,
# 2 overlap, + 8 dynamic, -1 the library's choice, or any value the library takes; default:
# -1 and 10 for the test, -1 for the bench). Logs under $OUT. Expected about 2-3 minutes;
# the timeouts add up to 380 s (410 s with the kill grace).
cd "$(dirname "$0")" || exit 1
OUT=${OUT:-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
LIB=$(readlink -f "${LIB:-./libts_attention.so}")
[ -f "$LIB" ] || { echo "no library at $LIB (set LIB=...)"; exit 1; }
# The build stays out of $OUT (its objects need not come back); every later load finds it.
export TS_ATTENTION_BUILD=${TS_ATTENTION_BUILD:-${TMPDIR:-/tmp}/ts_attention_ext_build}
# The system compiler, which links the shared libstdc++ torch uses (the H200 machine's $CXX,
# /opt/gcc/bin/g++, links it statically; ts_attention.load refuses such an extension).
[ -x /usr/bin/g++ ] && export CXX=${TS_ATTENTION_CXX:-/usr/bin/g++}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$OUT/smi.txt"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
ok=1

start=$SECONDS
timeout -k 10 120 python3 -c "import sys, ts_attention; ts_attention.load(sys.argv[1], verbose=True); print('loaded')" \
  "$LIB" > "$OUT/build.log" 2>&1
rc=$?
echo "build rc=$rc in $((SECONDS - start)) s (log: $OUT/build.log)"
[ $rc = 0 ] || { ok=0; tail -25 "$OUT/build.log"; }

if [ $rc = 0 ]; then
  start=$SECONDS
  timeout -k 10 150 python3 test_torch_ext.py "$LIB" "${MODES_TEST:--1,10}" 2>&1 | tee "$OUT/test.log"
  trc=${PIPESTATUS[0]}
  echo "test rc=$trc in $((SECONDS - start)) s"
  [ "$trc" = 0 ] || ok=0
fi

# The bench runs even if the extension failed: it then times the raw plan alone (ext unavailable).
start=$SECONDS
timeout -k 10 110 python3 bench_attention.py "$LIB" varlen "${MODES_BENCH:--1}" 2>&1 | tee "$OUT/bench_varlen.log"
brc=${PIPESTATUS[0]}
echo "bench rc=$brc in $((SECONDS - start)) s"
[ "$brc" = 0 ] || ok=0
nf=$(grep -c "^check.*: FAIL" "$OUT/bench_varlen.log")
echo "bench checks failed: $nf"
[ "$nf" = 0 ] || ok=0
echo "run_torch ok=$ok"
[ $ok = 1 ]
