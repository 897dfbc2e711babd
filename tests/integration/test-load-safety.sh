#!/bin/bash
# rtready load never outlives its duration (issue 17, item 4): task counts far
# beyond the CPUs are refused with the reason, the largest accepted load ends
# on time and stops at once on SIGINT, every task stops at the deadline by
# itself (even with its supervisor frozen), and a kill -9 of rtready at any
# moment of start-up or run leaves no task of it running a second later.
#
# Tasks are found by session: rtready runs under setsid, and nothing of the
# load leaves that session (the supervisor and its parts only make process
# groups), so the scan sees this test's tasks and no one else's.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
sid=""
cleanup() {
	[ -n "$sid" ] && kill_session "$sid"
	rm -rf "$tmp"
}
trap cleanup EXIT

# session_tasks SID: "pid state comm" of every live (not zombie) task of session
# SID; a zombie waits for a parent (init) to reap it and runs nothing.
session_tasks() {
	local f line rest
	for f in /proc/[0-9]*/stat; do
		{ read -r line <"$f"; } 2>/dev/null || continue
		rest=${line##*) }
		# rest: state ppid pgrp session ...
		# shellcheck disable=SC2086
		set -- $rest
		[ "$4" = "$SID_WANT" ] || continue
		[ "$1" = Z ] && continue
		line=${line%%) *}
		echo "${f//[^0-9]/} $1 ${line#*(}"
	done
}
tasks_of() { SID_WANT=$1 session_tasks; }
kill_session() {
	local p
	for p in $(tasks_of "$1" | awk '{ print $1 }'); do
		kill -KILL "$p" 2>/dev/null
	done
}

# start_load ARGS...: rtready load in a session of its own (its pid is the
# session id), output in $tmp/out and $tmp/err; sets $sid.
start_load() {
	setsid "$RTREADY" load -q "$@" >"$tmp/out" 2>"$tmp/err" &
	sid=$!
}

# gone_within MS SID: wait up to MS ms for every task of SID to be gone.
gone_within() {
	local end=$(( $(date +%s%N) / 1000000 + $1 )) left
	while :; do
		left=$(tasks_of "$2")
		[ -z "$left" ] && return 0
		[ $(( $(date +%s%N) / 1000000 )) -ge "$end" ] && break
		sleep 0.02
	done
	echo "$left" | head -5 >&2
	echo "... $(echo "$left" | wc -l) tasks" >&2
	return 1
}

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# wait_bounded PID SECONDS: wait for our child PID, killing it after SECONDS;
# its exit status is in $rc.
wait_bounded() {
	local wd
	# Its output away from ours, and its sleep ended with it: nothing holds the test's pipes.
	(sleep "$2"; kill -KILL "$1" 2>/dev/null) >/dev/null 2>&1 &
	wd=$!
	rc=0
	wait "$1" || rc=$?
	pkill -P "$wd" 2>/dev/null
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
}

ncpu=$(nproc)
hogs=$((32 * ncpu))
msg=$((400 * ncpu))
[ "$msg" -ge 400 ] || msg=400
groups=$((msg / 40))

# --- bounds: refused with the reason, before anything starts ---
for args in "-c $((hogs + 1))" "-c 1000 -D 1" "-g $((groups + 1))" "-g 1000 -D 1" \
	"-c 33 --cpus 0"; do
	rc=0
	# shellcheck disable=SC2086
	timeout 10 "$RTREADY" load -q $args >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 0 ] && [ "$args" = "-c 1000 -D 1" ] && [ "$hogs" -ge 1000 ]; then
		continue	# a machine with 32+ CPUs: 1000 hogs are within the bound
	fi
	[ "$rc" -eq 2 ] || fail "load $args exited $rc, expected 2 (refused)"
	grep -q 'per CPU' "$tmp/err" || fail "load $args: no reason: $(cat "$tmp/err")"
done
grep -q "more than" "$tmp/err" || fail "--cpus 0: $(cat "$tmp/err")"
# hackbench's default run is allowed on one CPU.
timeout 30 "$RTREADY" load -q -l 1 --cpus 0 >"$tmp/out" 2>"$tmp/err" ||
	fail "the default run on one CPU: $(cat "$tmp/err")"

# --- the largest load accepted ends on time ---
t0=$(date +%s%N)
timeout 30 "$RTREADY" load -q -D 1 -c "$hogs" >"$tmp/out" 2>"$tmp/err" ||
	fail "-c $hogs -D 1 exited $?: $(cat "$tmp/err")"
el=$(ms_since "$t0")
[ "$el" -lt 4000 ] || fail "-c $hogs -D 1 took $el ms"
grep -q "by $hogs hogs" "$tmp/out" || fail "-c $hogs: $(cat "$tmp/out")"
t0=$(date +%s%N)
timeout 30 "$RTREADY" load -q -D 1 -g "$groups" -c "$hogs" >"$tmp/out" 2>"$tmp/err" ||
	fail "-g $groups -c $hogs -D 1 exited $?: $(cat "$tmp/err")"
el=$(ms_since "$t0")
[ "$el" -lt 4000 ] || fail "-g $groups -c $hogs -D 1 took $el ms"

need_root
# This script's own turns must not wait behind the hogs it measures.
renice -n -10 $$ >/dev/null 2>&1 || true

# --- SIGINT is acted on at once, and nothing is left ---
start_load -D 60 -c "$hogs" -g "$groups"
sleep 2
t0=$(date +%s%N)
kill -INT "$sid"
wait_bounded "$sid" 20
el=$(ms_since "$t0")
[ "$rc" -eq 0 ] || fail "SIGINT: exit $rc: $(cat "$tmp/err")"
[ "$el" -lt 2000 ] || fail "SIGINT took $el ms to end the load"
grep -q 'stopped by a signal' "$tmp/out" || fail "SIGINT: $(cat "$tmp/out")"
gone_within 1000 "$sid" || fail "tasks left after SIGINT"
sid=""

# --- kill -9 of rtready at any moment: nothing left a second later ---
for delay in 0 0.01 0.05 0.2 1; do
	start_load -D 60 -c "$hogs" -g "$groups" -m 16M
	sleep "$delay"
	kill -KILL "$sid"
	wait "$sid" 2>/dev/null
	gone_within 1000 "$sid" || fail "tasks left 1 s after kill -9 of rtready at ${delay}s"
	sid=""
done

# --- every task stops at the deadline by itself: freeze the supervisor ---
start_load -D 2 -c 4 -m 16M
sup=""
for i in $(seq 100); do
	sup=$(tasks_of "$sid" | awk '$3 == "rtr-load" { print $1 }')
	[ -n "$sup" ] && [ "$(tasks_of "$sid" | grep -c rtr-load-cpu)" -eq 4 ] && break
	sleep 0.05
done
[ -n "$sup" ] || fail "no supervisor seen"
t0=$(date +%s%N)
kill -STOP "$sup"
# Everything but the frozen supervisor (and rtready waiting for it) ends at 2 s.
for i in $(seq 60); do
	left=$(tasks_of "$sid" | awk '$3 ~ /^rtr-load-/')
	[ -z "$left" ] && break
	sleep 0.1
done
kill -CONT "$sup"
[ -z "$left" ] || fail "tasks still running after the deadline with the supervisor frozen: $left"
wait_bounded "$sid" 20
[ "$rc" -eq 0 ] || fail "after the deadline kills: exit $rc: $(cat "$tmp/err")"
grep -q 'by 4 hogs' "$tmp/out" || fail "deadline run: $(cat "$tmp/out")"
gone_within 1000 "$sid" || fail "tasks left after the deadline run"
sid=""
echo ok
