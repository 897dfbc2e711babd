# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# The one save-and-restore harness of the tests that let rtready tune change
# the live machine (test-tune, test-tune-kill, test-tune-mem); sourced after
# lib.sh. tune_harness NAME takes the machine-wide lock (two build
# directories must not tune at once), makes $STATE (the journal) and $WORK,
# saves every file tune may write and puts it back on any exit: by the
# journal where a revert can, from the saved copies where it cannot.
# tune_sleepers starts the two sleeping processes ($S1, $S2, on CPUs 0-1)
# that the tests move instead of the machine's own tasks. dump prints every
# such file byte for byte, and the sleepers' CPU lists, for comparisons.

# Every file a tune row writes on this machine (the IRQ affinities in both
# spellings: the list form tune writes and the mask form the kernel derives).
TUNE_FILES="/proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/timer_migration
/proc/sys/kernel/watchdog_cpumask /proc/irq/default_smp_affinity
/sys/devices/virtual/workqueue/cpumask /sys/kernel/mm/transparent_hugepage/enabled
/proc/sys/kernel/hung_task_timeout_secs /sys/kernel/mm/ksm/run /proc/sys/kernel/numa_balancing
$(ls /proc/irq/*/smp_affinity_list /proc/irq/*/smp_affinity 2>/dev/null)
$(ls /sys/devices/system/cpu/cpu1/cpufreq/scaling_governor \
	/sys/devices/system/cpu/cpu1/cpuidle/state*/disable 2>/dev/null)"
FILES=$TUNE_FILES
SLEEPERS=

# Every affected file, byte for byte, and the sleepers' CPU lists.
dump() {
	local f p
	for f in $FILES; do
		[ -e "$f" ] || continue
		printf '== %s\n' "$f"
		cat "$f"
	done
	for p in $SLEEPERS; do printf '== pid %s\n' "$p"; taskset -pc "$p" | sed 's/.*: //'; done
}

saved_name() { echo "$WORK/saved/$(echo "$1" | tr / _)"; }

# Put back what the test may have changed, whatever happened.
restore() {
	local f v p
	# The journal puts back exactly what was changed; the saved copies are
	# only the fallback when it cannot (they may be stale on a busy machine).
	if "$RTREADY" tune --revert --state-dir "$STATE" >/dev/null 2>&1; then
		FILES=
	fi
	for f in $FILES; do
		v=$(cat "$(saved_name "$f")" 2>/dev/null) || continue
		case $f in
		*/transparent_hugepage/enabled) v=$(echo "$v" | sed 's/.*\[\(.*\)\].*/\1/') ;;
		esac
		[ "$(cat "$f" 2>/dev/null)" = "$(cat "$(saved_name "$f")")" ] ||
			printf '%s' "$v" >"$f" 2>/dev/null
	done
	for p in $SLEEPERS; do kill "$p" 2>/dev/null; done
	rm -rf "$STATE" "$WORK"
}

# tune_harness NAME: lock, $STATE and $WORK, save, restore on exit.
tune_harness() {
	local f
	exec 9>/tmp/rtready-tune-tests.lock
	flock -w 90 9 || skip "another run of the tune tests holds the machine"
	STATE=$(mktemp -d "/tmp/rtr-$1-state.XXXXXX")
	WORK=$(mktemp -d "/tmp/rtr-$1-work.XXXXXX")
	mkdir -p "$WORK/saved"
	for f in $FILES; do
		[ -r "$f" ] && cat "$f" >"$(saved_name "$f")" 2>/dev/null
	done
	trap restore EXIT
	# A signal (the test's timeout) must still run the EXIT trap.
	trap 'exit 1' TERM INT HUP
}

# Two sleepers on CPUs 0-1 for --pid; they do not hold the lock (fd 9).
tune_sleepers() {
	sleep 600 9>&- &
	S1=$!
	sleep 600 9>&- &
	S2=$!
	taskset -pc 0-1 "$S1" >/dev/null
	taskset -pc 0-1 "$S2" >/dev/null
	SLEEPERS="$S1 $S2"
}
