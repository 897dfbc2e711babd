#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready latency --policy deadline, as root: one SCHED_DEADLINE thread per
# CPU with the asked reservation, jobs paced by the period (each ends with
# sched_yield), every job a sample or a missed period, the jobs spread over
# the CPUs, the same JSON as FIFO plus the DEADLINE fields, cyclicdeadline's
# T: lines with -q, -A aligning the periods, and a threshold stopping the run
# with exit 1.
# Never asserts absolute latencies: this may be a noisy VM.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Is SCHED_DEADLINE allowed here at all (a container may refuse it)?
rc=0
"$RTREADY" latency --policy deadline --runtime 100 --period 10ms -D 100ms -q \
	>"$tmp/probe.txt" 2>&1 || rc=$?
if [ "$rc" -eq 2 ] && grep -Eq "refused|not permitted" "$tmp/probe.txt"; then
	skip "SCHED_DEADLINE refused here: $(head -1 "$tmp/probe.txt")"
fi

t0=$(date +%s%N)
"$RTREADY" latency --policy deadline --runtime 200 --deadline 900 --period 1ms -D 2 -q \
	-f json --output "$tmp/r.json" || fail "2 s DEADLINE run exited $?"
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
[ "$ms" -lt 2600 ] || fail "-D 2 took ${ms} ms (limit 2600)"

python3 - "$tmp/r.json" "$(cat /sys/devices/system/cpu/online)" <<'PY' || fail "results"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["policy"] == "DEADLINE" and c["priority"] == 0, c
assert (c["runtime_ns"], c["deadline_ns"], c["period_ns"]) == (200000, 900000, 1000000), c
assert c["interval_ns"] == 1000000 and c["pinned"] is False
assert d["stop"]["reason"] == "duration"

def cpus(text):
    out = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out

online = cpus(sys.argv[2])
seen = set()
expected = 2000  # 2 s / 1 ms
for t in d["threads"]:
    n, miss = t["samples"], t["missed"]
    # Paced by the period: most periods have one job. A job that starts a whole
    # period late makes the kernel start a new period at once (its deadline has
    # passed), so a missed period can still see a job: allow a few percent more.
    assert expected * 0.9 <= n + miss <= expected * 1.05 + 2, ("jobs+missed", n, miss)
    assert n <= expected * 1.02 + 2, ("more jobs than periods", n)
    assert n >= expected // 2, ("too few jobs", n)
    assert t["min_ns"] <= t["p50_ns"] <= t["p99_ns"] <= t["max_ns"], t
    assert 0 <= t["throttled"] <= n
    s = cpus(t["cpus_seen"])
    assert s and s <= online, (t["cpus_seen"], online)
    seen |= s
    h = t["histogram"]
    assert sum(p[1] for p in h["counts"]) + t["overflows"] == n
assert len(d["threads"]) == len(online)
# As many DEADLINE threads as CPUs: the kernel spreads them over every CPU.
assert seen == online, ("CPUs never used", online - seen)
assert d["summary"]["samples"] == sum(t["samples"] for t in d["threads"])
assert d["summary"]["throttled"] == sum(t["throttled"] for t in d["threads"])
PY

# cyclicdeadline's T: lines (no P: field) and the text table.
"$RTREADY" latency --policy deadline --runtime 100 --period 2ms -D 300ms -q -t 1 >"$tmp/t.txt" ||
	fail "-q run"
grep -Eq '^T: 0 \( *[0-9]+\) I:2000 C: *[0-9]+ Min: *[0-9]+ Act: *[0-9]+ Avg: *[0-9]+ Max: *[0-9]+$' \
	"$tmp/t.txt" || { cat "$tmp/t.txt"; fail "T: line"; }
grep -q "SCHED_DEADLINE thread (runtime 100.0 us, deadline 2000.0 us, period 2000.0 us" \
	"$tmp/t.txt" || fail "text header"
grep -q "throttled  ran on CPUs" "$tmp/t.txt" || fail "throttled table"

# -A: every thread's periods begin at one instant (each becomes SCHED_DEADLINE then).
"$RTREADY" latency --policy deadline --runtime 100 --period 2ms -D 300ms -A 500 >"$tmp/a.txt" ||
	fail "-A run"
grep -q "^grid: aligned (-A 500 us): every thread's periods begin at the same instant" \
	"$tmp/a.txt" || { cat "$tmp/a.txt"; fail "-A grid line"; }
"$RTREADY" latency --policy deadline --runtime 100 --period 2ms -D 300ms -A 0 -f json |
	python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["config"]["aligned"], d["config"]; assert d["summary"]["samples"] > 0' ||
	fail "-A JSON"
# And their periods do lie together: with 2 threads, their kernel deadlines
# (dl.deadline of /proc/PID/task/TID/sched, CONFIG_SCHED_DEBUG) are within
# 200 us of each other (one system call apart, about 15 us, on the
# development VM; without -A each thread's periods begin when it was made,
# anywhere in the period). A second try forgives one stall of the host.
dl_phase() {
	local pid d
	"$RTREADY" latency --policy deadline --runtime 100 --period 4ms -t 2 -D 2 -A 0 -q \
		>/dev/null 2>&1 &
	pid=$!
	sleep 1
	d=$(cat /proc/"$pid"/task/*/sched 2>/dev/null | awk '$1 == "dl.deadline" && $3 > 0 {print $3}')
	wait "$pid"
	[ "$(echo "$d" | grep -c .)" -eq 2 ] || { echo "none"; return; }
	echo "$d" | python3 -c '
import sys
a, b = (int(x) for x in sys.stdin.read().split())
p = 4000000
g = (a - b) % p
print(min(g, p - g))'
}
if [ "$(nproc)" -ge 2 ] && [ -r /proc/self/sched ]; then
	gap=$(dl_phase)
	[ "$gap" != none ] && [ "$gap" -lt 200000 ] || gap=$(dl_phase)
	if [ "$gap" = none ]; then
		echo "note: -A: this kernel shows no dl.deadline in /proc/PID/sched; not checked"
	else
		[ "$gap" -lt 200000 ] ||
			fail "-A: the threads' periods are $gap ns apart (want < 200 us)"
		echo "note: -A 0, 2 threads: periods $gap ns apart"
	fi
fi

# -A in a cgroup whose RT budget is 0 (cgroup v1, CONFIG_RT_GROUP_SCHED):
# SCHED_FIFO 1 for the wait is refused there but SCHED_DEADLINE is not, so
# the run must not fail for it (it did: "SCHED_FIFO priority 1 refused").
g=/sys/fs/cgroup/cpu/rtready-test-dl-$$
if [ -f /sys/fs/cgroup/cpu/cpu.rt_runtime_us ] && mkdir "$g" 2>/dev/null; then
	rc=0
	echo 0 >"$g/cpu.rt_runtime_us" &&
		bash -c 'echo $$ >"$1/tasks" && exec "$2" latency --policy deadline --runtime 100 \
			--period 2ms -t 1 -D 300ms -A 0 -q' sh "$g" "$RTREADY" >"$tmp/g.txt" 2>&1 ||
		rc=$?
	rmdir "$g"
	[ "$rc" -eq 0 ] || { cat "$tmp/g.txt"; fail "-A in a group with no RT budget: exit $rc"; }
fi

# A threshold of 1 ns stops the run at the first late job, exit 1.
rc=0
"$RTREADY" latency --policy deadline --runtime 100 --period 1ms -D 5 -b 1 -q -f json \
	--output "$tmp/b.json" || rc=$?
[ "$rc" -eq 1 ] || fail "threshold: exit $rc, want 1"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stop"]["reason"] == "threshold", d["stop"]
assert d["stop"]["threshold"]["cpu"] >= 0
' "$tmp/b.json" || fail "threshold JSON"
# --trace: the first job later than 1 ns stops the kernel trace and is explained
# from it, the measuring thread found by its tid (it is not tied to one CPU).
rc=0
"$RTREADY" latency --policy deadline --runtime 200 --period 1ms -D 5 -b 1 --trace \
	--trace-file "$tmp/trace.txt" -q >"$tmp/trace.out" 2>&1 || rc=$?
if [ "$rc" -eq 2 ] && grep -Eiq "tracefs|trace" "$tmp/trace.out"; then
	echo "note: --trace not available here: $(head -1 "$tmp/trace.out")"
else
	[ "$rc" -eq 1 ] || { cat "$tmp/trace.out"; fail "--trace: exit $rc, want 1"; }
	grep -q "(the measuring thread)" "$tmp/trace.out" ||
		{ cat "$tmp/trace.out"; fail "--trace did not find the DEADLINE thread"; }
	[ -s "$tmp/trace.txt" ] || fail "--trace-file is empty"
fi
echo "ok"
