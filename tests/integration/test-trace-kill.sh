#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready latency --trace and kill -9 (issue 17, item 15): the instance
# "rtready-PID" goes on tracing after rtready dies unless someone removes
# it. Its guard process removes it within a second of a kill -9 of rtready;
# when the guard dies too (kill -9 of the whole process group), the next
# `rtready latency`, with --trace or without, stops and removes it and says
# so. A normal run leaves neither instance nor guard.
. "$(dirname "$0")/lib.sh"
need_root
"$RTREADY" latency --threshold 100 --trace --trace-file /nonexistent/x -D 1 2>&1 |
	grep -q 'without kernel tracing' && skip "built without libtracefs"
grep -qw tracefs /proc/filesystems || skip "kernel without tracefs"

T=/sys/kernel/tracing
tmp=$(mktemp -d)
pid=
was_mounted=
[ "$(stat -f -c %T "$T" 2>/dev/null)" = tracefs ] && was_mounted=1
cleanup() {
	[ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null
	[ -n "$pid" ] && rmdir "$T/instances/rtready-$pid" 2>/dev/null
	[ -z "$was_mounted" ] && umount "$T" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

mounted() { [ "$(stat -f -c %T "$T" 2>/dev/null)" = tracefs ]; }
instance() { mounted && [ -d "$T/instances/rtready-$1" ]; }
# Live guards of session $1 (an ended one waits as a zombie for init to reap it).
guards_of() { pgrep -s "$1" -x rtr-trace-guard -r R,S,D,T; }

# start_traced: a long --trace run in a session of its own; waits (10 s at
# most) until its instance is tracing; sets $pid.
start_traced() {
	setsid "$RTREADY" latency -q -D 60 --threshold 1000000 --trace \
		--trace-file "$tmp/trace.txt" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 100); do
		instance "$pid" && [ "$(cat "$T/instances/rtready-$pid/tracing_on")" = 1 ] && return 0
		sleep 0.1
	done
	cat "$tmp/err"
	fail "no tracing instance rtready-$pid within 10 s"
}

# --- kill -9 of rtready alone: its guard removes the instance ---
start_traced
[ -n "$(guards_of "$pid")" ] || fail "no rtr-trace-guard beside rtready"
kill -KILL "$pid"
{ wait "$pid"; } 2>/dev/null
for _ in $(seq 20); do
	instance "$pid" || [ -n "$(guards_of "$pid")" ] || break
	sleep 0.05
done
! instance "$pid" || fail "instance rtready-$pid left 1 s after kill -9 of rtready"
[ -z "$(guards_of "$pid")" ] || fail "the guard did not end"
pid=

# --- kill -9 of the whole group, guard included: the next latency removes it ---
start_traced
kill -KILL -- "-$pid"
{ wait "$pid"; } 2>/dev/null
sleep 0.2
instance "$pid" || skip "the instance went with the group: nothing left to test"
[ "$(cat "$T/instances/rtready-$pid/tracing_on")" = 1 ] || fail "the leftover is not tracing (set-up)"
timeout 60 "$RTREADY" latency -q -D 200ms >"$tmp/out2" 2>"$tmp/err2" ||
	fail "the next latency run exited $?: $(cat "$tmp/err2")"
grep -q "removed tracing instance rtready-$pid" "$tmp/err2" ||
	fail "the next run did not say it removed rtready-$pid: $(cat "$tmp/err2")"
! instance "$pid" || fail "instance rtready-$pid left after the next run"
pid=

# --- a normal --trace run leaves nothing ---
setsid "$RTREADY" latency -q -D 300ms --threshold 1000000 --trace \
	--trace-file "$tmp/trace.txt" >"$tmp/out" 2>"$tmp/err" &
pid=$!
(sleep 60; kill -KILL "$pid" 2>/dev/null) >/dev/null 2>&1 &
watchdog=$!
rc=0
wait "$pid" || rc=$?
pkill -P "$watchdog" 2>/dev/null
kill "$watchdog" 2>/dev/null
[ "$rc" -eq 0 ] || fail "latency --trace exited $rc: $(cat "$tmp/err")"
! instance "$pid" || fail "instance rtready-$pid left by a normal run"
[ -z "$(guards_of "$pid")" ] || fail "a guard outlived its run"
pid=
echo ok
