#!/bin/bash
# Crash safety of rtready tune: kill -9 the apply (and the revert) at every
# point, then revert, and every value must be byte for byte what it was.
# With strace, SIGKILL is injected at the Nth write() of an apply for N = 1,
# 4, 7, ... until a run completes: each journal update and each tunable is
# one write(), and they alternate, so both kinds of point are hit all along;
# then at every fifth fsync() (between the journal's data and its rename),
# and at every seventh write() of a revert. Without strace, and in addition, the apply is killed after random
# short delays from this shell. Only the test's
# own sleeping processes are moved (--pid). The machine is restored on any
# exit (trap).
. "$(dirname "$0")/lib.sh"
need_root
[ -w /proc/irq/default_smp_affinity ] || skip "/proc/irq is not writable here"
[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs"
grep -q '^0-' /sys/devices/system/cpu/online || skip "CPU 0 and 1 not both online"
. "$(dirname "$0")/tune-harness.sh"
tune_harness tune-k
tune_sleepers
APPLY="$RTREADY tune --rt-cpus 1 --pid $S1,$S2 --state-dir $STATE --apply"
dump >"$WORK/before"

# Revert (twice if a kill interrupted it) and compare with the start.
check_restored() {
	local what=$1 rc=0
	timeout 60 "$RTREADY" tune --revert --state-dir "$STATE" >"$WORK/rev" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$WORK/rev"; fail "$what: revert exited $rc"; }
	dump >"$WORK/now"
	cmp -s "$WORK/before" "$WORK/now" ||
		{ diff "$WORK/before" "$WORK/now"; fail "$what: not restored"; }
	timeout 60 "$RTREADY" tune --revert --state-dir "$STATE" >"$WORK/rev2" 2>&1 ||
		{ cat "$WORK/rev2"; fail "$what: second revert"; }
	grep -q "Nothing to revert" "$WORK/rev2" || fail "$what: second revert did something"
}

# Run "$@" under strace, SIGKILL at the Nth call of syscall $1. Return: its
# exit code. Through sh -c, so that bash prints no "Killed" job message.
killed_at() {
	local sc=$1 n=$2
	shift 2
	timeout 60 sh -c 'sc=$1; n=$2; shift 2
		strace -f -qq -o /dev/null -e trace="$sc" -e inject="$sc":signal=KILL:when="$n" \
			"$@" >/dev/null 2>&1
		exit $?' sh "$sc" "$n" "$@"
}

kills=0
BUDGET=$((SECONDS + 150))	# seconds: with the wait for the lock, below the timeout of 300
if command -v strace >/dev/null; then
	# Every third write: the writes alternate between the journal and a
	# tunable, so both "attempting, not landed" and "landed, not yet
	# recorded" are hit all along the run; every fifth fsync. Stop when a
	# run gets to the end untouched, or when the time budget is spent (a
	# loaded machine).
	for spec in write:3 fsync:5; do
		sc=${spec%:*}
		step=${spec#*:}
		for ((n = 1; n <= 400 && SECONDS < BUDGET; n += step)); do
			rc=0
			killed_at "$sc" "$n" $APPLY || rc=$?
			check_restored "apply killed at $sc #$n"
			if [ "$rc" -eq 0 ]; then	# ran to the end: every point was covered
				[ "$n" -gt 3 ] || fail "apply made fewer than 3 ${sc}s: no injection?"
				break
			fi
			kills=$((kills + 1))
		done
		[ "$SECONDS" -lt "$BUDGET" ] || echo "time budget spent at $sc #$n (a loaded machine)"
	done
	# Kill the revert too (every seventh write): running it again must finish the job.
	for ((n = 1; n <= 400 && SECONDS < BUDGET; n += 7)); do
		$APPLY >/dev/null 2>&1 || fail "apply before a killed revert"
		rc=0
		killed_at write "$n" "$RTREADY" tune --revert --state-dir "$STATE" || rc=$?
		check_restored "revert killed at write #$n"
		[ "$rc" -eq 0 ] && break
		kills=$((kills + 1))
	done
fi

# Random delays from a second process: real SIGKILL at unpredictable points.
for i in $(seq 1 4); do
	$APPLY >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
	kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null || true
	check_restored "apply killed after a random delay (round $i)"
done
[ "$kills" -ge 10 ] || fail "only $kills kills in the time budget"
echo "ok: $kills kills, every one restored ($SECONDS s)"
