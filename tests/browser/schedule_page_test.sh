#!/usr/bin/env bash
# Loads the generated schedule pictures in a real headless Chromium and checks the
# parsed DOM has the expected lanes, steps, handoff arrows and legend; keeps a
# screenshot of each page as a test artefact under $ARTIFACTS.
# Usage: schedule_page_test.sh <ts_pictures binary> <artefact dir>
set -euo pipefail
pictures=$1
ARTIFACTS=$2
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y -qq chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
  else
    echo "chromium is missing and cannot be installed here"; exit 1
  fi
fi
mkdir -p "$ARTIFACTS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$pictures" "$work" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$work/profile")
fail=0
check() {  # check <dom> <description> <grep -c pattern> <min count>
  local n
  n=$(grep -o "$3" "$1" | wc -l)
  if [ "$n" -lt "$4" ]; then echo "FAIL: $2: found $n, expected >= $4"; fail=1; else echo "ok: $2 ($n)"; fi
}
# load <page> <window size>: the parsed DOM into $dom and a screenshot into $ARTIFACTS.
load() {
  page=$1
  dom="$work/$page.dom.html"
  timeout 120 chromium "${flags[@]}" --dump-dom "file://$work/$page.html" > "$dom" 2>/dev/null
  timeout 120 chromium "${flags[@]}" --window-size="$2" --screenshot="$ARTIFACTS/$page.png" "file://$work/$page.html" \
    >/dev/null 2>&1
  echo "== $page"
}
for page in 01_grid_stride_copy 02_pipelined_copy; do
  load "$page" 1000,800
  check "$dom" "svg element parsed" '<svg[^>]*class="ts-schedule"' 1
  check "$dom" "legend entries" 'class="legend"' 9
  case $page in
    01_grid_stride_copy)
      check "$dom" "CopyTask lane" 'class="lane" data-task="CopyTask"' 1
      check "$dom" "work steps" 'class="step step-\(producer\|consumer\)-work' 6 ;;
    02_pipelined_copy)
      check "$dom" "Producer lane" 'class="lane" data-task="Producer"' 1
      check "$dom" "Consumer lane" 'class="lane" data-task="Consumer"' 1
      check "$dom" "acquire steps" 'class="step step-acquire' 3
      check "$dom" "release steps" 'class="step step-release' 3
      check "$dom" "handoff arrows" 'class="handoff"' 3
      check "$dom" "blocked step outlined" 'class="step step-wait blocked' 1 ;;
  esac
  size=$(stat -c %s "$ARTIFACTS/$page.png" 2>/dev/null || echo 0)
  if [ "$size" -lt 5000 ]; then echo "FAIL: screenshot $page.png missing or blank ($size bytes)"; fail=1; else echo "ok: screenshot $ARTIFACTS/$page.png ($size bytes)"; fi
done
# Four tasks (Blackwell GEMM with a CLC scheduler): arrows cross lanes, routed between them.
load blackwell_gemm_clc 1400,800
check "$dom" "4 lanes" 'class="lane" data-task="' 4
check "$dom" "handoff arrows (paths)" '<path class="handoff"' 6
check "$dom" "arrow across a lane (Scheduler to Load)" 'class="handoff" data-from="Scheduler" data-to="Load"' 1
check "$dom" "section strips" 'class="band-strip"' 40
check "$dom" "band legend (head, loop, tail)" 'class="legend band-legend"' 3
# No arrow enters a step cell, on any schedule page (the SVG as written).
if python3 "$(dirname "$0")/arrows_clear.py" "$work"/{01_grid_stride_copy,02_pipelined_copy,gemm,gemm_dynamic,blackwell_gemm_clc}.html
then echo "ok: arrows clear of every step label"; else echo "FAIL: an arrow crosses a step label"; fail=1; fi
# The checker's counterexample page of the buggy copy.
load counterexample_forgetful_copy 800,900
check "$dom" "svg element parsed" '<svg[^>]*class="ts-counterexample"' 1
check "$dom" "Producer events" 'class="event[^"]*" data-task="Producer"' 4
check "$dom" "Consumer events" 'class="event[^"]*" data-task="Consumer"' 4
check "$dom" "culprit highlighted" 'class="event[^"]* culprit"' 1
check "$dom" "checker explanation" 'never released by Consumer' 1
# The emulator trace timeline and its Chrome trace-event JSON.
load trace_pipelined_copy 1150,1000
check "$dom" "svg element parsed" '<svg[^>]*class="ts-trace"' 1
check "$dom" "lanes (2 CTAs x 2 tasks)" 'class="trace-lane"' 4
check "$dom" "lane labels name the tasks" 'class="trace-lane"[^>]*>CTA [01] \(Producer\|Consumer\)<' 4
check "$dom" "trace steps" 'class="trace-step' 190
check "$dom" "time axis" '<g class="trace-axis"' 1
check "$dom" "axis ticks (drawn by the script)" '<g class="axis-tick">' 5
check "$dom" "axis unit" 'class="axis-unit"[^>]*>time (decisions)<' 1
check "$dom" "legend" 'class="trace-legend"' 1
check "$dom" "legend entries" 'class="legend-item"' 7
check "$dom" "tile boundaries (4 lanes x 12 chunks)" 'class="tile-boundary"' 48
check "$dom" "stall summary" '<section class="ts-stalls">' 1
check "$dom" "stall verdict" 'class="stall-verdict" data-bound="[a-z-]*"' 1
check "$dom" "stall rows per task" 'class="stall-task"' 2
check "$dom" "script ran (whole-trace view)" 'id="ts-view">view 0 \.\. [0-9]* decisions (100\.0 %' 1
check "$work/$page.json" "chrome trace events" '"ph":"X"' 190
check "$work/$page.json" "tile begin/end events" '"ph":"[BE]"' 96
# The screenshot shows the axis: its 870-pixel line in #334155.
if python3 "$(dirname "$0")/png_rows.py" "$ARTIFACTS/$page.png" 334155 800; then echo "ok: axis line in the screenshot"
else echo "FAIL: no axis line in the screenshot"; fail=1; fi
# Zoom: #view=start,width opens a zoomed view; the axis is redrawn for it.
timeout 120 chromium "${flags[@]}" --dump-dom "file://$work/$page.html#view=1000,500" > "$work/zoom.dom.html" 2>/dev/null
check "$work/zoom.dom.html" "zoomed view" 'id="ts-view">view 1000 \.\. 1500 decisions' 1
check "$work/zoom.dom.html" "plot viewBox follows the zoom" 'id="ts-plot"[^>]*viewBox="1000 0 500 ' 1
check "$work/zoom.dom.html" "ticks of the zoomed view" '<text x="[0-9.]*" y="23" text-anchor="middle">1[0-5][0-9]0<' 4
exit $fail
