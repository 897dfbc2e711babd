#!/bin/bash
# rtready inspect against small programs that each break one checklist rule
# (tests/progs/rt-sample.c): each finding fires on its program and only there.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "${RT_SAMPLE:-}" ] || skip "rt-sample not built"

# start runs in command substitutions (subshells): keep the PIDs in a file.
pidlist=$(mktemp)
cleanup() {
	while read -r p; do kill "$p" 2>/dev/null; done <"$pidlist"
	: >"$pidlist"
	sleep 0.2
}
trap 'cleanup; rm -f "$pidlist"' EXIT

# start MODE: run rt-sample in the background, wait until its RT thread runs.
start() {
	local out; out=$(mktemp)
	"$RT_SAMPLE" "$1" 6 >"$out" &
	local pid=$!
	echo "$pid" >>"$pidlist"
	for _ in $(seq 50); do grep -q ready "$out" && break; sleep 0.1; done
	grep -q ready "$out" || fail "rt-sample $1 did not start"
	rm -f "$out"
	sleep 1	# past start-up: its faults are done
	echo "$pid"
}

# status ID FILE [TID-FILTER]: the statuses of findings with this id, one per line.
status() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[2]))
for f in d["findings"]:
    if f["id"] == sys.argv[1]:
        print(f["status"], f["evidence"])
' "$1" "$2"
}

inspect() { # MODE -> json file
	local pid; pid=$(start "$1")
	local j; j=$(mktemp)
	local rc=0
	timeout 20 "$RTREADY" inspect "$pid" --window 1s --format json >"$j" || rc=$?
	[ "$rc" -le 1 ] || fail "inspect $1 exited $rc"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$j" || fail "inspect $1: bad JSON"
	echo "$j"
}

good=$(inspect good)
status proc.prio99 "$good" | grep -q . && fail "good: prio99 fired"
status proc.memory_locked "$good" | grep -q '^pass' || fail "good: memory_locked not pass: $(status proc.memory_locked "$good")"
status proc.page_faults "$good" | grep -q '^fail' && fail "good: page_faults fired: $(status proc.page_faults "$good")"
status proc.page_faults "$good" | grep -q '^pass' || fail "good: no page_faults finding"
status proc.affinity "$good" | grep -q 'migrate' && fail "good: affinity says it can migrate"
grep -q '"policy": "FIFO"' "$good" || fail "good: FIFO thread not shown"

j=$(inspect prio99)
status proc.prio99 "$j" | grep -q '^fail' || fail "prio99: finding missing"
status proc.memory_locked "$j" | grep -q '^pass' || fail "prio99: memory_locked not pass"

j=$(inspect nolock)
status proc.memory_locked "$j" | grep -q '^fail' || fail "nolock: memory_locked not fail: $(status proc.memory_locked "$j")"
status proc.prio99 "$j" | grep -q . && fail "nolock: prio99 fired"

j=$(inspect faults)
status proc.page_faults "$j" | grep -q '^fail' || fail "faults: page_faults not fail: $(status proc.page_faults "$j")"
status proc.memory_locked "$j" | grep -q '^pass' || fail "faults: memory_locked not pass"

if [ "$(nproc)" -gt 1 ]; then
	j=$(inspect float)
	status proc.affinity "$j" | grep -q '^warn.*migrate' || fail "float: affinity did not warn: $(status proc.affinity "$j")"
	status proc.page_faults "$j" | grep -q '^fail' && fail "float: page_faults fired"
fi

# Text output names the RT thread and the findings come first.
pid=$(start prio99)
out=$("$RTREADY" inspect "$pid" -w 200ms) && fail "prio99 should exit 1"
echo "$out" | head -3 | grep -q 'proc.prio99' || fail "text: findings not first"
echo "$out" | grep -q 'rt-loop' || fail "text: thread table missing"

# Usage errors and missing processes: exit 2 with a message.
expect_rc 2 "$RTREADY" inspect
expect_rc 2 "$RTREADY" inspect 999999999
expect_rc 2 "$RTREADY" inspect --name no-such-process-here
expect_rc 2 "$RTREADY" inspect 1 --window forever
expect_rc 2 "$RTREADY" inspect 1 --all
expect_rc 2 "$RTREADY" inspect 12abc

# SIGINT ends a long window promptly and still prints the result.
"$RTREADY" inspect 1 --window 30s --format json >/tmp/rtr-int.$$ &
ip=$!
sleep 0.5
kill -INT $ip
for _ in $(seq 30); do kill -0 $ip 2>/dev/null || break; sleep 0.1; done
kill -0 $ip 2>/dev/null && fail "inspect did not stop on SIGINT"
grep -q '"interrupted": true' /tmp/rtr-int.$$ || fail "interrupted run printed no result"
rm -f /tmp/rtr-int.$$ "$good"

# A busy non-RT loop allowed on the RT CPU, in a cgroup without a limit, is
# flagged when it got at least half a CPU (the machine may be too loaded).
taskset -c "$(($(nproc) - 1))" timeout 5 sh -c 'while :; do :; done' &
hog=$!
sleep 0.5
hogsh=$(pgrep -P $hog sh || echo $hog)
j=$(mktemp)
"$RTREADY" inspect "$hogsh" --rt-cpus "$(($(nproc) - 1))" -w 1s --format json >"$j" || true
pct=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(d["processes"][0]["threads"][0].get("cpu_percent", 0)))' "$j")
if [ "$pct" -ge 50 ]; then
	status proc.busy_non_rt "$j" | grep -q '^warn.*no CPU limit' ||
		fail "busy loop at $pct% not flagged: $(status proc.busy_non_rt "$j")"
else
	echo "busy loop got only $pct% of a CPU here: proc.busy_non_rt not asserted"
fi
kill $hog 2>/dev/null
rm -f "$j"

# perf counters: every one counts, or is explained (never a bare null or "n/a").
# Where the hardware counter exists (not in this project's VM) it must count.
pid=$(start good)
j=$(mktemp)
"$RTREADY" inspect --window 200ms --format json "$pid" >"$j" || true
python3 - "$j" <<'PY' || fail "perf counters: see above"
import json, sys
d = json.load(open(sys.argv[1]))
perf = d["perf"]
assert perf["requested"] is True, perf
if not perf["available"]:
    assert perf.get("reason"), perf
    sys.exit(0)
gaps = perf.get("unavailable", {})
for p in d["processes"]:
    for t in p["threads"]:
        for name, v in t["perf"].items():
            if v is None:
                assert name in gaps and gaps[name]["reason"], (name, perf)
            else:
                assert isinstance(v, int) and v >= 0, (name, v)
for name, g in gaps.items():
    assert g["threads"] >= 1 and len(g["reason"]) > 20, g
print("perf counters: %s" % (", ".join("%s unavailable: %s" % (n, g["reason"][:60])
                                        for n, g in gaps.items()) or "all count"))
PY
text=$("$RTREADY" inspect -v --window 200ms "$pid" || true)
echo "$text" | grep -q ' n/a' && fail "a counter printed as n/a: $text"
if grep -q '"cache-misses"' "$j" && python3 -c '
import json, sys; sys.exit(0 if "cache-misses" in json.load(open(sys.argv[1]))["perf"].get("unavailable", {}) else 1)' "$j"; then
	echo "$text" | grep -q '^perf counter cache-misses: not counted on .*hardware counter' ||
		fail "no reason for the missing cache-misses counter: $text"
fi
rm -f "$j"
cleanup

# --all finds the program at 99 among everything else; with no window it is quick.
pid=$(start prio99)
expect_rc 1 "$RTREADY" inspect --all --window 0 --no-perf
"$RTREADY" inspect --all -w 0 --format json | grep -q "\"pid\": $pid" || fail "--all missed $pid"
cleanup
# Other programs may run RT threads here: only ask for a clean, bounded run.
rc=0
timeout 10 "$RTREADY" inspect --all --window 0 --no-perf >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "--all exited $rc"
echo ok
