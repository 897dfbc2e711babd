#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready run --check on ordinary programs: the checker attaches, the text
# and JSON reports say so, --strict turns findings into exit 1 only when
# the program succeeded, and a program killed before exit is reported as
# incomplete instead of clean.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A non-RT program: attached, nothing to report.
"$RTREADY" run --check -- true 2>"$tmp/text" || fail "run --check true failed"
grep -q "checker: attached" "$tmp/text" || { cat "$tmp/text"; fail "no 'attached' line"; }
grep -q "0 fail, 0 warn" "$tmp/text" || { cat "$tmp/text"; fail "findings for 'true'"; }

# RT sleep with a relative timeout: a warning; --strict makes it exit 1.
expect_rc 0 "$RTREADY" run --check --policy fifo --prio 10 -- sleep 0.01
expect_rc 1 "$RTREADY" run --check --strict --policy fifo --prio 10 -- sleep 0.01
# ... but a failing program keeps its own status.
expect_rc 3 "$RTREADY" run --check --strict --policy fifo --prio 10 -- sh -c 'sleep 0.01; exit 3'

"$RTREADY" run --check --format json --report "$tmp/r.json" --policy fifo --prio 10 -- sleep 0.01 ||
	fail "json report run failed"
python3 - "$tmp/r.json" <<'PY' || fail "bad JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["command"] == "run", r["command"]
assert r["checker"]["attached"] is True
ids = {f["id"] for f in r["findings"]}
assert "app.relative_sleep" in ids, ids
f = [f for f in r["findings"] if f["id"] == "app.relative_sleep"][0]
for k in ("tid", "thread", "count", "backtrace", "evidence", "why", "fix"):
    assert k in f, k
assert r["program"]["exit_status"] == 0
PY

# Killed before exit: its records survive in rtready's shared table (the
# signal it sent itself), and the process is shown killed, no gap.
"$RTREADY" run --check --format json --report "$tmp/k.json" -- sh -c 'kill -KILL $$'
rc=$?
[ $rc -eq 137 ] || fail "killed program: exit $rc, expected 137"
python3 - "$tmp/k.json" <<'PY' || fail "killed program's records lost"
import json, sys
r = json.load(open(sys.argv[1]))
ids = [f["id"] for f in r["findings"]]
assert ids == ["app.signal"], ids
assert "SIGKILL" in r["findings"][0]["evidence"], r["findings"][0]["evidence"]
ends = [p["ended_by"] for p in r["checker"]["processes"]]
assert ends == ["killed"], ends
PY
# Killed, and started without the table (an environment that dropped it):
# attached, but its records are missing -> app.checker (skip).
"$RTREADY" run --check --format json --report "$tmp/k2.json" -- \
	env -u RTREADY_CHECK_TABLE sh -c 'kill -KILL $$'
rc=$?
[ $rc -eq 137 ] || fail "killed program: exit $rc, expected 137"
python3 - "$tmp/k2.json" <<'PY' || fail "killed program not reported as incomplete"
import json, sys
r = json.load(open(sys.argv[1]))
ids = [f["id"] for f in r["findings"]]
assert ids == ["app.checker"], ids
assert "killed by signal 9" in r["findings"][0]["evidence"], r["findings"][0]["evidence"]
PY
echo ok
