#!/usr/bin/env bash
# ts_stalls on the trace JSON that ts_pictures exports (the emulator's pipelined copy):
# prints the per-task table and a verdict; refuses a file that is no trace, with status 1.
# Usage: stalls_tool_test.sh <ts_pictures binary> <ts_stalls binary>
set -euo pipefail
pictures=$1
stalls=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$pictures" "$work" >/dev/null
fail=0
out=$("$stalls" "$work/trace_pipelined_copy.json")
echo "$out"
for want in 'Stall attribution (clock: logical' '^Producer  *2 ' '^Consumer  *2 ' 'ring: Producer -> Consumer' \
            '^Verdict (\(producer-bound\|consumer-bound\|balanced\|both-blocked\);'; do
  if ! grep -q "$want" <<<"$out"; then echo "FAIL: output lacks '$want'"; fail=1; fi
done
# Thresholds from the command line: nothing is blocked at 100 %.
if ! "$stalls" "$work/trace_pipelined_copy.json" --stall-pct 100 | grep -q '^Verdict (balanced;'; then
  echo "FAIL: --stall-pct 100 should give balanced"; fail=1
fi
echo '{"traceEvents": []}' > "$work/empty.json"
set +e
err=$("$stalls" "$work/empty.json" 2>&1); rc=$?
"$stalls" >/dev/null 2>&1; usage_rc=$?
set -e
if [ $rc -ne 1 ] || ! grep -q 'the trace has no steps' <<<"$err"; then echo "FAIL: empty trace: rc $rc, '$err'"; fail=1; fi
if [ $usage_rc -ne 2 ]; then echo "FAIL: no arguments: rc $usage_rc, expected 2"; fail=1; fi
[ $fail = 0 ] && echo "ok: ts_stalls"
exit $fail
