#!/bin/bash
# rtready inspect over a window, as a user would run it: threads that start
# and exit during the window are shown as such (no error, no stale data),
# perf counters count what the program does (skipped with the kernel's
# reason where perf_event_open is refused), and without root a user
# inspects their own processes and is told what could not be read.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "${RT_SAMPLE:-}" ] || skip "rt-sample not built"
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# start MODE [RUNNER...]: rt-sample in the background; its PID once it runs.
start() {
	local mode=$1 out=$tmp/out.$1
	shift
	"$@" "$RT_SAMPLE" "$mode" 8 >"$out" &
	pids+=($!)
	for _ in $(seq 50); do grep -q ready "$out" && break; sleep 0.1; done
	grep -q ready "$out" || fail "rt-sample $mode did not start"
	sleep 1
	awk '/ready/ { print $2 }' "$out"
}

# py FILE EXPR: evaluate a Python expression on the JSON in FILE (as d).
py() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# Threads come and go: the workers seen at the start have exited by the end
# (they live 300 ms), those seen at the end started in the window.
pid=$(start churn)
rc=0
"$RTREADY" inspect "$pid" --window 1s --format json >"$tmp/churn.json" || rc=$?
[ "$rc" -le 1 ] || fail "churn: exit $rc"
states=$(py "$tmp/churn.json" '" ".join(sorted(set(t["state"] for t in d["processes"][0]["threads"]
	if t["comm"] == "churn")))')
[ "$states" = "exited new" ] || fail "churn: worker states '$states', expected exited and new"
# Exited threads carry no deltas (nothing stale); the RT loop has them.
py "$tmp/churn.json" '[t for t in d["processes"][0]["threads"]
	if t["state"] != "running" and "minflt_delta" in t]' | grep -qx '\[\]' ||
	fail "churn: a thread that came or went has deltas"
py "$tmp/churn.json" '[t["minflt_delta"] for t in d["processes"][0]["threads"]
	if t["comm"] == "rt-loop"]' | grep -qx '\[0\]' || fail "churn: rt-loop deltas"
"$RTREADY" inspect "$pid" --window 500ms >"$tmp/churn.txt" || [ $? -eq 1 ] || fail "churn text"
grep -Eq '\((exited|new)\)' "$tmp/churn.txt" || fail "churn: text does not mark threads that came or went"

# Perf counters: the faults program takes one page fault per period.
pid=$(start faults)
"$RTREADY" inspect "$pid" --window 1s --format json >"$tmp/faults.json" || [ $? -eq 1 ] ||
	fail "faults: inspect failed"
if [ "$(py "$tmp/faults.json" 'd["perf"]["available"]')" = True ]; then
	n=$(py "$tmp/faults.json" '[t["perf"]["page-faults"] for t in d["processes"][0]["threads"]
		if t["comm"] == "rt-loop"][0]')
	[ "$n" -ge 500 ] || fail "faults: perf counted $n page faults in 1 s of 1 ms periods"
	m=$(py "$tmp/faults.json" '[t["perf"]["context-switches"] for t in d["processes"][0]["threads"]
		if t["comm"] == "rt-loop"][0]')
	[ "$m" -ge 500 ] || fail "faults: perf counted $m context switches for 1000 sleeps"
else
	echo "perf counters not checked: $(py "$tmp/faults.json" 'd["perf"].get("reason", "")')"
fi

# Without root: our own process is inspected fully ...
asuser=(setpriv --reuid=65534 --regid=65534 --clear-groups)
"${asuser[@]}" true 2>/dev/null || skip "cannot drop to uid 65534 here"
"${asuser[@]}" sleep 8 &
mine=$!
pids+=($mine)
sleep 0.3
rc=0
"${asuser[@]}" "$RTREADY" inspect "$mine" --window 300ms --format json >"$tmp/own.json" || rc=$?
[ "$rc" -eq 0 ] || fail "non-root on its own process: exit $rc"
[ "$(py "$tmp/own.json" 'd["processes"][0]["threads"][0]["state"]')" = running ] ||
	fail "non-root: own process not read"
# ... and on root's RT program the checklist is still applied, while the
# counters the kernel refuses are named with the reason.
pid=$(start good)
rc=0
"${asuser[@]}" "$RTREADY" inspect "$pid" --window 300ms --format json >"$tmp/other.json" \
	2>"$tmp/other.err" || rc=$?
[ "$rc" -le 1 ] || fail "non-root on root's process: exit $rc ($(cat "$tmp/other.err"))"
[ "$(py "$tmp/other.json" 'd["processes"][0]["rt_threads"]')" = 1 ] || fail "non-root: RT thread not seen"
if [ "$(py "$tmp/other.json" 'd["perf"]["available"]')" = False ]; then
	py "$tmp/other.json" 'd["perf"]["reason"]' | grep -q . || fail "non-root: perf refused without a reason"
fi
"${asuser[@]}" "$RTREADY" inspect "$pid" --window 300ms >"$tmp/other.txt" 2>&1 || [ $? -eq 1 ] ||
	fail "non-root text"
grep -qi "perf" "$tmp/other.txt" || fail "non-root text says nothing about perf counters"
echo ok
