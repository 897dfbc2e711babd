#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/deadline_trace.py, the ruler that judges issue 29's goal, on a trace
# written by hand: one SCHED_DEADLINE thread (tid 101 of process 100), a
# 4 ms period, three jobs:
#   1. its timer fires 30 us late on an idle CPU, it is switched in 20 us
#      later and its yield returns 5 us after that (ruler 50, user 55);
#   2. the timer fires 10 us late on a CPU running another task (pid 200),
#      switch-in 15 us later (ruler 25, user 30);
#   3. no timer: the thread yields 5 us after its next period began, and
#      the kernel replenishes it at once (untimed, late 5).
# A timer of another process (tgid 300) and a thread that never runs at
# DEADLINE priority must not count.
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || exit 1
command -v python3 >/dev/null || skip "needs python3"
python3 - <<'PY'
import sys
sys.path.insert(0, "bench")
import deadline_trace as r

def ev(comm, pid, tgid, cpu, ts, event, rest, arrow=False):
    return "%16s-%-7d (%7s) [%03d] d..2. %12s: %s%s%s" % (
        comm, pid, tgid, cpu, ts, event, " -> " if arrow else ": ", rest)

def switch(cpu, ts, nxt, prio, prev=0):
    return ev("x", prev, "-------" if prev == 0 else 100, cpu, ts, "sched_switch",
              "prev_comm=x prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=y "
              "next_pid=%d next_prio=%d" % (prev, nxt, prio))

def arm(pid, tgid, cpu, ts, timer, expires):
    return ev("t", pid, tgid, cpu, ts, "hrtimer_start",
              "hrtimer=%s function=dl_task_timer expires=%d softexpires=%d mode=ABS|HARD"
              % (timer, expires, expires))

def fire(cpu, ts, timer, now):
    return ev("<idle>", 0, "-------", cpu, ts, "hrtimer_expire_entry",
              "hrtimer=%s now=%d function=dl_task_timer/0x0" % (timer, now))

def yret(pid, cpu, ts):
    return ev("t", pid, 100, cpu, ts, "sys_sched_yield", "0x0", arrow=True)

lines = [
    switch(0, "1.000000", 101, -1),
    yret(101, 0, "1.000010"),
    arm(101, 100, 0, "1.000011", "0xa", 1004000000),
    arm(301, 300, 1, "1.000012", "0xb", 1004000000),	# another process's timer
    switch(0, "1.000012", 0, 120, prev=101),		# CPU 0 idles
    fire(0, "1.004030", "0xa", 1004030000),
    switch(0, "1.004050", 101, -1),
    yret(101, 0, "1.004055"),
    arm(101, 100, 0, "1.004060", "0xa", 1008000000),
    switch(0, "1.004061", 200, 120, prev=101),		# CPU 0 runs pid 200
    fire(0, "1.008010", "0xa", 1008010000),
    switch(0, "1.008025", 101, -1, prev=200),
    yret(101, 0, "1.008030"),
    yret(101, 0, "1.012005"),			# no timer: untimed
    switch(1, "1.000020", 102, 120),		# tid 102 never runs as DEADLINE
    arm(102, 100, 1, "1.000021", "0xc", 1004000000),
]
jobs = r.analyze("\n".join(lines) + "\n", 100, 4000000, 4000000)
want = {
    "threads": 1, "untimed": 1,
    "latency": [50000, 25000, 5000], "user": [55000, 30000, 5000],
    "timer": [30000, 10000], "sched": [20000, 15000],
    "timer_idle": [30000], "timer_busy": [10000],
}
bad = []
for k, v in want.items():
    got = getattr(jobs, k)
    if got != v:
        bad.append("%s: got %r, want %r" % (k, got, v))
p50, p99, mx, avg = r.summary(jobs.latency)
if (p50, mx) != (25.0, 50.0) or abs(avg - 80 / 3) > 1e-9:
    bad.append("summary: got %r" % ((p50, p99, mx, avg),))
if bad:
    sys.exit("FAIL: " + "; ".join(bad))
print("ok: the ruler reads the hand-written trace as expected")
PY
