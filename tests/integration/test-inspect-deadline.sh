#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready inspect on a SCHED_DEADLINE process (started by rtready run
# --policy deadline): its reservation from sched_getattr and the dl.*
# fields of /proc/PID/task/TID/sched, in text and in JSON (which holds to
# its schema); a process without DEADLINE threads has no "deadline".
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

"$RTREADY" run --policy deadline --runtime 300 --deadline 900us --period 1ms -- sleep 20 \
	2>"$tmp/run.err" &
runner=$!
for _ in $(seq 50); do
	pid=$(pgrep -P "$runner" -x sleep) && break
	kill -0 "$runner" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$pid" ]; then
	grep -Eq "admission refused|not permitted" "$tmp/run.err" &&
		skip "SCHED_DEADLINE refused here: $(head -1 "$tmp/run.err")"
	cat "$tmp/run.err"
	fail "the DEADLINE sleep did not start"
fi

"$RTREADY" inspect -w 0 "$pid" >"$tmp/i.txt" || true
grep -Eq "^  $pid +sleep +DEADLINE" "$tmp/i.txt" || { cat "$tmp/i.txt"; fail "thread row"; }
grep -Eq "deadline: runtime 300.0 us, deadline 900.0 us, period 1000.0 us \(30.0% of a CPU\)" \
	"$tmp/i.txt" || { cat "$tmp/i.txt"; fail "deadline line"; }
"$RTREADY" inspect -w 0 -f json "$pid" "$$" >"$tmp/i.json" || true
python3 - "$tmp/i.json" "$pid" "$SRCDIR/docs/schema/inspect.schema.json" <<'PY' || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
pid = int(sys.argv[2])
procs = {p["pid"]: p for p in d["processes"]}
t = procs[pid]["threads"][0]
assert t["policy"] == "DEADLINE", t
dl = t["deadline"]
assert (dl["runtime_ns"], dl["deadline_ns"], dl["period_ns"]) == (300000, 900000, 1000000), dl
# dl.runtime and dl.deadline where the kernel prints them (it does since 3.14).
assert all(k.startswith("dl.") for k in dl["sched"]), dl
for p in procs.values():
    if p["pid"] != pid:
        assert all("deadline" not in th for th in p["threads"]), p
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.validate(d, json.load(open(sys.argv[3])))
PY
echo ok
