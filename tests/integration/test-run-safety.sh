#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready run when things go wrong (issue 17, items 14, 15 and 18):
# --memory-max below 1M is refused; an OOM kill in the budget cgroup is said
# (the program's 137 alone looks like any SIGKILL); the warning about cgroups
# the program left busy comes once and names every one; after a kill -9 of
# rtready the program gets SIGTERM, and the next run removes the empty
# cgroups left behind, says so, and kills nothing: a group that still holds
# processes is named and left alone.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
bg=""
cleanup() {
	[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null
	[ -n "${stray:-}" ] && kill -KILL $stray 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# --- the floor of --memory-max, before anything is made ---
for size in 1K 1023K 4096; do
	rc=0
	timeout 10 "$RTREADY" run --memory-max "$size" -- true >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "--memory-max $size exited $rc, expected 2"
	grep -q 'below 1M' "$tmp/err" || fail "--memory-max $size: $(cat "$tmp/err")"
done

need_root
[ -d /sys/fs/cgroup ] || skip "no /sys/fs/cgroup"
find_cg() { find /sys/fs/cgroup -maxdepth 8 -type d -name "rtready-run-$1" 2>/dev/null; }
# alive PID: a task that runs (a zombie waiting for init to reap it does not).
alive() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}
rc=0
timeout 10 "$RTREADY" run --memory-max 64M --cpu-max 50 -- true >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || skip "no budget cgroups here: $(cat "$tmp/err")"

# --- an OOM kill in the cgroup is said, for the program or one of its children ---
rc=0
timeout 30 "$RTREADY" run --memory-max 4M -- dd if=/dev/zero of=/dev/null bs=64M count=1 \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 137 ] || fail "OOM: exit $rc, expected 137: $(cat "$tmp/err")"
grep -q 'dd was killed by the OOM killer.*--memory-max 4.0 MiB' "$tmp/err" ||
	fail "OOM: no message: $(cat "$tmp/err")"
rc=0
timeout 30 "$RTREADY" run --memory-max 4M -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null; exit 0' \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || fail "OOM of a child: exit $rc, expected 0: $(cat "$tmp/err")"
grep -q 'the OOM killer killed 1 process of sh' "$tmp/err" ||
	fail "OOM of a child: no message: $(cat "$tmp/err")"
# Without an OOM kill, nothing is said.
timeout 30 "$RTREADY" run --memory-max 64M -- true >"$tmp/out" 2>"$tmp/err" ||
	fail "run --memory-max 64M -- true: $(cat "$tmp/err")"
! grep -q 'OOM' "$tmp/err" || fail "OOM said without a kill: $(cat "$tmp/err")"

# --- groups left busy: one warning naming each, then removed by the next run ---
timeout 30 "$RTREADY" run --memory-max 64M --cpu-max 50 -- sh -c 'sleep 30 & echo $! >'"$tmp/stray" \
	>"$tmp/out" 2>"$tmp/err" || fail "busy groups: exit $?: $(cat "$tmp/err")"
stray=$(cat "$tmp/stray")
[ "$(grep -c 'still hold' "$tmp/err")" -eq 1 ] || fail "leftover warning not once: $(cat "$tmp/err")"
pid=$(grep -o 'rtready-run-[0-9]*' "$tmp/err" | head -1)
pid=${pid#rtready-run-}
left=$(find_cg "$pid")
[ -n "$left" ] || fail "the busy groups were removed: $(cat "$tmp/err")"
for d in $left; do
	grep -qF "$d" "$tmp/err" || fail "the warning does not name $d: $(cat "$tmp/err")"
done
# Busy: the next run names them and leaves them, and the process, alone.
timeout 30 "$RTREADY" run -- true >"$tmp/out" 2>"$tmp/err" || fail "next run: $(cat "$tmp/err")"
for d in $left; do
	grep -F "$d" "$tmp/err" | grep -q 'still holds processes' ||
		fail "the next run does not name busy $d: $(cat "$tmp/err")"
done
alive "$stray" || fail "the next run killed the program's leftover process"
kill -KILL "$stray"
stray=""
sleep 0.2
timeout 30 "$RTREADY" run -- true >"$tmp/out" 2>"$tmp/err" || fail "next run: $(cat "$tmp/err")"
for d in $left; do
	grep -F "$d" "$tmp/err" | grep -q 'removed the empty cgroup' ||
		fail "the next run did not say it removed $d: $(cat "$tmp/err")"
done
[ -z "$(find_cg "$pid")" ] || fail "groups left after the next run: $(find_cg "$pid")"

# --- kill -9 of rtready: the program gets SIGTERM; the next run removes the group ---
# wait_child PARENT: print the pid of PARENT's first child (up to 5 s).
wait_child() {
	local c
	for _ in $(seq 50); do
		c=$(pgrep -P "$1" | head -1)
		[ -n "$c" ] && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}
"$RTREADY" run --cpu-max 50 -- sleep 30 >/dev/null 2>&1 &
bg=$!
prog=$(wait_child "$bg") || fail "the program did not start"
kill -KILL "$bg"
wait "$bg" 2>/dev/null
for _ in $(seq 20); do
	alive "$prog" || break
	sleep 0.05
done
alive "$prog" && { stray=$prog; fail "the program outlived rtready's kill -9 by 1 s"; }
left=$(find_cg "$bg")
[ -n "$left" ] || fail "no cgroup left to clean (test set-up)"
timeout 30 "$RTREADY" run -- true >"$tmp/out" 2>"$tmp/err" || fail "next run: $(cat "$tmp/err")"
for d in $left; do
	grep -F "$d" "$tmp/err" | grep -q 'removed the empty cgroup' ||
		fail "the next run did not say it removed $d: $(cat "$tmp/err")"
done
[ -z "$(find_cg "$bg")" ] || fail "cgroup left after the next run: $(find_cg "$bg")"

# --- a program that ignores SIGTERM stays (it is the user's), and so does its group ---
"$RTREADY" run --cpu-max 50 -- sh -c 'trap "" TERM; sleep 30' >/dev/null 2>&1 &
bg=$!
prog=$(wait_child "$bg") || fail "the program did not start"
# Only once it ignores SIGTERM (SigIgn bit 15): before its trap ran, the
# signal would end it, as it should.
for _ in $(seq 50); do
	ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/"$prog"/status 2>/dev/null)
	[ -n "$ign" ] && [ $((0x$ign & 0x4000)) -ne 0 ] && break
	sleep 0.05
done
kill -KILL "$bg"
wait "$bg" 2>/dev/null
stray=$prog
sleep 0.3
alive "$prog" || fail "a program that ignores SIGTERM was killed"
timeout 30 "$RTREADY" run -- true >"$tmp/out" 2>"$tmp/err" || fail "next run: $(cat "$tmp/err")"
grep -q "rtready-run-$bg.*still holds processes" "$tmp/err" ||
	fail "the next run does not name the busy group: $(cat "$tmp/err")"
alive "$prog" || fail "the next run killed the user's program"
pkill -KILL -P "$prog"
kill -KILL "$prog"
stray=""
rp=$bg
bg=""
sleep 0.2
timeout 30 "$RTREADY" run -- true >/dev/null 2>&1
[ -z "$(find_cg "$rp")" ] || fail "cgroup left: $(find_cg "$rp")"
echo ok
