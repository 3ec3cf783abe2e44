#!/bin/bash
# Second device call: rebuild, examples at 1 GiB, racecheck/memcheck/synccheck at 1 MiB, bench.
set -o pipefail
cmake -S . -B build -G Ninja -DTS_BUILD_TESTS=OFF -DTS_BUILD_SM100=OFF > $OUT/build.log 2>&1 &&
  ninja -C build -j16 ts_examples_cuda ts_bench_copy >> $OUT/build.log 2>&1 || { grep -B3 -A10 -m3 error $OUT/build.log; exit 1; }
timeout 120 ./build/examples/ts_examples_cuda $((1<<30)) > $OUT/examples_1g.log 2>&1; echo rc=$?; grep ^example $OUT/examples_1g.log
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t ./build/examples/ts_examples_cuda 1048576 > $OUT/san_$t.log 2>&1; echo "$t rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/san_$t.log; grep -c "result=PASS" $OUT/san_$t.log
done
timeout 300 ./build/bench/copy/ts_bench_copy 2>&1 | tee $OUT/bench.log
