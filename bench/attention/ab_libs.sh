#!/usr/bin/env bash
# Before/after timing of two attention libraries on the GPU machine: one bench process per
# library, alternating A, B, A, B, ... so clock drift and neighbours hit both alike, every
# result checked against cuDNN inside bench_attention.py. Then one summary row per shape:
# TS TFLOP/s and TS/cuDNN per round and the means (the ratio is the figure to compare: each
# process times cuDNN beside TS, so it carries its own control).
# Usage: bench/attention/ab_libs.sh LIB_A LIB_B [ROUNDS=2] [MODE=2]
#   BENCH_SHAPES (default the four non-causal head-dim shapes below), BENCH_REFS (default
#   cudnn), AB_BUDGET_S: stop starting rounds once this many seconds have passed (a device
#   call is at most 10 minutes). Logs under ${OUT:-out}/ab_<A|B>_<round>.log.
set -uo pipefail
lib_a=$(realpath "$1")
lib_b=$(realpath "$2")
out=$(realpath -m "${OUT:-out}")
cd "$(dirname "$0")"
rounds=${3:-2}
mode=${4:-2}
mkdir -p "$out"
export BENCH_SHAPES=${BENCH_SHAPES:-4x8x4096x256,16x16x1024x128,4x16x4096x128,4x32x4096x64}
export BENCH_REFS=${BENCH_REFS:-cudnn}
t0=$SECONDS
for round in $(seq 1 "$rounds"); do
  for which in A B; do
    lib=$([ $which = A ] && echo "$lib_a" || echo "$lib_b")
    log="$out/ab_${which}_${round}.log"
    python3 bench_attention.py "$lib" quick "$mode" >"$log" 2>&1
    echo "round $round $which: $(grep -c 'PASS' "$log") PASS, $(grep -c 'FAIL' "$log") FAIL, $((SECONDS - t0)) s"
  done
  [ -n "${AB_BUDGET_S:-}" ] && [ $((SECONDS - t0)) -gt "$AB_BUDGET_S" ] && break
done
python3 - "$out" <<'PY'
import glob, re, statistics, sys
rows = {}  # (size, ref) -> {which: [(ts, ratio), ...]}
for path in sorted(glob.glob(f"{sys.argv[1]}/ab_*_*.log")):
    which = re.search(r"ab_([AB])_", path).group(1)
    for line in open(path):
        m = re.match(r"bench attention\S* size=(\S+) ts=(\S+) ref=\S+ ref_name=(\S+) .* ratio=(\S+)", line)
        if m:
            rows.setdefault((m[1], m[3]), {}).setdefault(which, []).append((float(m[2]), float(m[4])))
for (size, ref), by in sorted(rows.items()):
    cells = []
    for which in "AB":
        runs = by.get(which, [])
        per = " ".join(f"{ts:.1f}/{r:.3f}" for ts, r in runs)
        mean = statistics.mean(r for _, r in runs) if runs else float("nan")
        cells.append(f"{which}: {per} (mean ratio {mean:.3f})")
    print(f"ab size={size} ref={ref} " + "; ".join(cells))
PY
