#!/bin/bash
# One device call: build (Release + Debug), examples at a real size, sanitizers at a
# small size, SASS check for setmaxnreg, bench. Logs under $OUT.
set -o pipefail
J=16
( cmake -S . -B build -G Ninja -DTS_BUILD_TESTS=OFF -DTS_PTXAS_VERBOSE=ON > $OUT/build.log 2>&1 &&
  ninja -C build -j$J ts_examples_cuda ts_bench_copy >> $OUT/build.log 2>&1 ) &
( cmake -S . -B build-dbg -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTS_BUILD_TESTS=OFF > $OUT/build_dbg.log 2>&1 &&
  ninja -C build-dbg -j$J ts_examples_cuda >> $OUT/build_dbg.log 2>&1 ) &
wait
[ -x build/examples/ts_examples_cuda ] || { echo BUILD FAILED; grep -B3 -A10 -m3 error $OUT/build.log; exit 1; }
grep -E "Used|stack frame|C7508" $OUT/build.log | sort | uniq -c | head -30
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
echo "== examples 1 GiB (release)"
timeout 120 ./build/examples/ts_examples_cuda $((1<<30)) > $OUT/examples_1g.log 2>&1; echo rc=$?; grep ^example $OUT/examples_1g.log
echo "== examples 64 MiB (debug, bounded waits)"
[ -x build-dbg/examples/ts_examples_cuda ] && { timeout 120 ./build-dbg/examples/ts_examples_cuda > $OUT/examples_dbg.log 2>&1; echo rc=$?; grep ^example $OUT/examples_dbg.log; }
for t in memcheck racecheck synccheck; do
  echo "== sanitizer $t (1 MiB)"
  timeout 150 compute-sanitizer --tool $t ./build/examples/ts_examples_cuda 1048576 > $OUT/san_$t.log 2>&1; echo rc=$?
  grep -E "ERROR SUMMARY|^example|RACECHECK SUMMARY" $OUT/san_$t.log
done
echo "== SASS"
cuobjdump -sass build/examples/ts_examples_cuda 2>/dev/null | grep -E "Function|SETMAXNREG|USETMAXREG" | grep -B1 -E "SETMAXNREG|USETMAXREG" | head
echo "== bench"
timeout 300 ./build/bench/copy/ts_bench_copy 2>&1 | tee $OUT/bench.log
