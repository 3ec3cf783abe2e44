#!/bin/bash
# check_setmaxnreg.sh NVCC INCLUDE_DIR: compiles setmaxnreg_regions.cu per SHAPE and checks where ptxas
# spills (see the .cu file): a region after setmaxnreg.inc gets the larger budget; code
# after the branches rejoin gets the smallest budget that reaches it.
set -u
nvcc=$1
inc=$2
src=$(dirname "$0")/setmaxnreg_regions.cu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spills() {
  "$nvcc" -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -I"$inc" -DSHAPE="$1" -cubin -o "$tmp/r.cubin" "$src" 2>&1 |
    sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p' | head -1
}
fail=0
s0=$(spills 0); s1=$(spills 1); s2=$(spills 2)
echo "spill stores: none=$s0 branch=$s1 join=$s2"
[ -n "$s0" ] && [ "$s0" -gt 0 ] || { echo "FAIL: without setmaxnreg 200 live floats should spill at 168"; fail=1; }
[ "$s1" = 0 ] || { echo "FAIL: after setmaxnreg.inc 232 the region should hold 200 live floats"; fail=1; }
[ -n "$s2" ] && [ "$s2" -gt 0 ] || { echo "FAIL: code after the join should get the dec branch's 40"; fail=1; }
[ $fail = 0 ] && echo "setmaxnreg regions: as documented"
exit $fail
