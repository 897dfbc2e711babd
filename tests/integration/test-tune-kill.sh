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
# The machine is shared: two runs of these tests (from two build
# directories) would see each other's changes. One at a time.
exec 9>/tmp/rtready-tune-tests.lock
flock -w 90 9 || skip "another run of the tune tests holds the machine"

STATE=$(mktemp -d /tmp/rtr-tune-kstate.XXXXXX)
WORK=$(mktemp -d /tmp/rtr-tune-kwork.XXXXXX)
FILES="/proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/timer_migration
/proc/sys/kernel/watchdog_cpumask /proc/irq/default_smp_affinity
/sys/devices/virtual/workqueue/cpumask /sys/kernel/mm/transparent_hugepage/enabled
$(ls /proc/irq/*/smp_affinity_list 2>/dev/null)
$(ls /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor \
	/sys/devices/system/cpu/cpu1/cpuidle/state*/disable 2>/dev/null)"

dump() {
	local f
	for f in $FILES; do
		[ -e "$f" ] || continue
		printf '== %s\n' "$f"
		cat "$f"
	done
	for p in ${SLEEPERS:-}; do printf '== pid %s\n' "$p"; taskset -pc "$p" | sed 's/.*: //'; done
}

SAVED=$WORK/saved
mkdir -p "$SAVED"
for f in $FILES; do
	[ -r "$f" ] && cat "$f" >"$SAVED/$(echo "$f" | tr / _)" 2>/dev/null
done
restore() {
	local f v
	# The journal puts back exactly what was changed; the saved copies are
	# only the fallback when it cannot (they may be stale on a busy machine).
	if "$RTREADY" tune --revert --state-dir "$STATE" >/dev/null 2>&1; then
		FILES=
	fi
	for f in $FILES; do
		v=$(cat "$SAVED/$(echo "$f" | tr / _)" 2>/dev/null) || continue
		case $f in
		*/transparent_hugepage/enabled) v=$(echo "$v" | sed 's/.*\[\(.*\)\].*/\1/') ;;
		esac
		[ "$(cat "$f" 2>/dev/null)" = "$(cat "$SAVED/$(echo "$f" | tr / _)")" ] ||
			printf '%s' "$v" >"$f" 2>/dev/null
	done
	for p in ${SLEEPERS:-}; do kill "$p" 2>/dev/null; done
	rm -rf "$STATE" "$WORK"
}
trap restore EXIT
# A signal (the test's timeout) must still run the EXIT trap.
trap 'exit 1' TERM INT HUP

sleep 600 9>&- & S1=$!
sleep 600 9>&- & S2=$!
taskset -pc 0-1 "$S1" >/dev/null
taskset -pc 0-1 "$S2" >/dev/null
SLEEPERS="$S1 $S2"
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
		fail "$what: second revert"
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
