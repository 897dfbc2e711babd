#!/bin/bash
# verify --trace: each run stops at its first wake-up past --max-latency and
# carries the kernel trace's explanation; tracing is put back afterwards.
. "$(dirname "$0")/lib.sh"
need_root
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
before=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep -c rtready || true)
rc=0
# 1 us: the very first wake-up is past it, in both runs.
timeout 120 "$RTREADY" verify -q --duration 3s --max-latency 1 --trace --report "$T" >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/out"; fail "verify --trace exited $rc, expected 1 (limit exceeded)"; }
python3 - "$T/verify.json" <<'PY' || fail "trace missing from verify.json"
import json, sys
d = json.load(open(sys.argv[1]))
for phase in ("latency_idle", "latency_load"):
    t = d[phase].get("trace")
    assert t and t["triggered"], (phase, t)
    assert t["latency_ns"] > 1000 and t["contributors"], t
    assert abs(sum(c["duration_ns"] for c in t["contributors"]) - t["latency_ns"]) <= t["latency_ns"] // 10 + 1000, t
PY
[ -s "$T/trace-idle.txt" ] && [ -s "$T/trace-load.txt" ] || fail "trace windows not saved"
grep -q "^Spike idle:" "$T/out" || fail "no explanation in the summary"
after=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep -c rtready || true)
[ "$after" -le "$before" ] || fail "a tracing instance was left behind"
echo ok
