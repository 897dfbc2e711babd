# SPDX-License-Identifier: MIT
# x86-64 PREEMPT_RT booted WITHOUT isolcpus (issue 28), cgroup2 mounted at
# /sys/fs/cgroup by /init: isolation without a reboot. tune --isolate makes
# an isolated partition of CPUs 2-3 and --revert takes it away again (the
# cgroup tree compared too); run --isolate leaves nothing behind, also when
# its program or rtready itself is killed; a partition the kernel refuses
# midway is undone whole; latency on 2-3 under load, without and with the
# partition, in this boot, and `rtready noise` on 2-3 under the same load
# without and with the partition (noise --isolate: only its spinners in it);
# every kernel thread's affinity the same after run --isolate and noise
# --isolate as before, against a partition made and removed by hand.
# Judged by matrix.py.

# Every kernel thread's affinity, "kthread TID FIXED COMM=LIST" (FIXED 1:
# PF_NO_SETAFFINITY, the kernel's own to place): a partition that comes and
# goes resets the root group's kernel threads to every CPU, IRQ threads
# included; run --isolate and noise --isolate must put them back.
kaff() {
	for _s in /proc/[0-9]*/task/[0-9]*/stat; do
		read -r _l <"$_s" 2>/dev/null || continue
		# shellcheck disable=SC2086
		set -- ${_l##*") "}
		[ $(($7 & 0x200000)) -ne 0 ] || continue
		_d=${_s%/stat}
		_c=$(cat "$_d/comm" 2>/dev/null) || continue
		_a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$_d/status" 2>/dev/null)
		echo "kthread ${_d##*/} $(($7 & 0x4000000 ? 1 : 0)) $_c=$_a"
	done
}

# A partition made and removed by hand (CPUs 2-3), waited for until the
# kernel has taken it down (6.12 does that when the group goes offline,
# after rmdir has returned).
rawpart() {
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
	mkdir /sys/fs/cgroup/rawpart
	echo 2-3 >/sys/fs/cgroup/rawpart/cpuset.cpus
	echo isolated >/sys/fs/cgroup/rawpart/cpuset.cpus.partition
	capture raw-partition cat /sys/fs/cgroup/rawpart/cpuset.cpus.partition
	rmdir /sys/fs/cgroup/rawpart
	for _i in $(seq 100); do
		[ -z "$(cat /sys/fs/cgroup/cpuset.cpus.isolated)" ] && break
		sleep 0.1
	done
	sleep 1
	echo -cpuset >/sys/fs/cgroup/cgroup.subtree_control
}

# irqflip: IRQ 4 (the serial console's, which fires as this script prints:
# the waiting lines go to the console) to the CPU of 0-1 its thread is not
# on, until the thread follows (at its next interrupt); the outcome in
# /tmp/rtr.flip. The kernel keeps a mask set with sched_setaffinity, a
# kernel thread's too (rtready's put-back sets one): the thread then runs
# where its IRQ goes, but a partition coming and going leaves it on that
# kept mask, not where it was. So each kaff comparison below that follows
# an irqflip fails when rtready does not put the thread back.
irqflip() {
	_t=
	for _d in /proc/[0-9]*; do
		case "$(cat "$_d/comm" 2>/dev/null)" in irq/4-*) _t=${_d#/proc/} ;; esac
	done
	[ -n "$_t" ] || { echo "irqflip: no irq/4 thread" >/tmp/rtr.flip; return 0; }
	_was=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$_t/status")
	_to=0
	[ "$_was" = 0 ] && _to=1
	echo "$_to" >/proc/irq/4/smp_affinity_list
	for _i in $(seq 50); do
		_now=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$_t/status")
		[ "$_now" = "$_to" ] && break
		echo "irqflip: waiting for irq/4 ($_t) to follow IRQ 4 to CPU $_to"
		sleep 0.1
	done
	echo "irqflip: irq/4 thread $_t: $_was -> $_now" >/tmp/rtr.flip
}

# First, before anything here set a kernel thread's affinity: what the
# kernel does to them when a partition comes and goes, with no rtready to
# put anything back (IRQ threads follow their IRQ: no mask of their own).
capture kaff-before-raw kaff
rawpart
capture kaff-after-raw kaff
# The same with rtready run --isolate (irq/4 on one CPU again first).
irqflip
block irqflip-run0 /tmp/rtr.flip
capture kaff-before-run0 kaff
run run-iso0 60 rtready run --isolate --cpus 2-3 -- true
capture kaff-after-run0 kaff

capture cg-before cgtree
capture tunables-before tunables
run check-before 180 rtready check --rt-cpus 2-3 --only cpu.isolation --format json

# The same load in both measurements, started from the root group: with the
# partition it cannot run on 2-3, without it can.
measure() {
	rtready load -D 14s -g 2 -f 4 -c 4 -q >/dev/null 2>&1 &
	_load=$!
	sleep 1
	run "$1" 60 sh -c "${2}exec rtready latency -a 2-3 -D 10s -q --format json --bucket 100000"
	wait "$_load"
}
measure lat-plain ""

# rtready noise on 2-3 under the same load, for the same time, without and
# with an isolated partition of 2-3 (noise --isolate makes it for the run and
# puts only its spinners in it: its main thread, which drains the trace,
# stays on 0-1). --policy other: the loop takes turns with whatever else may
# run there, so every event names the task that ran (at FIFO a normal task
# only gets in through the fair server, and the cause is then rt_throttling
# without its name). Under TCG noise takes 10 s or more around its 5 s: the
# load runs until it is done. Plain, partition, partition, plain: what the
# emulated machine drifts by weighs on both alike.
measure_noise() {
	rtready load -D 120s -g 2 -f 4 -c 4 -q >/dev/null 2>&1 &
	_load=$!
	sleep 1
	run "$1" 90 rtready noise -a 2-3 -D 5s --policy other --format json -o /tmp/noise.json $2
	nohist "$1.json" /tmp/noise.json
	rm -f /tmp/noise.json
	kill "$_load"
	wait "$_load"
}

# A process someone pinned to CPU 3 would lose its CPU: refused, named.
taskset -c 3 sleep 60 &
pinned=$!
run tune-pinned 120 rtready tune --rt-cpus 2-3 --isolate
kill "$pinned"
wait "$pinned" 2>/dev/null

run tune-apply 180 rtready tune --rt-cpus 2-3 --isolate --apply --format json
capture cg-applied cgtree
capture partition-applied cat /sys/fs/cgroup/rtready-isolated/cpuset.cpus.partition
capture tunables-applied tunables
run check-iso 180 rtready check --rt-cpus 2-3 --only cpu.isolation --format json
# Without --rt-cpus the partition's CPUs are the RT CPUs.
run check-iso-default 180 rtready check --only cpu.isolation --format json
# The latency threads join the partition: its CPUs are no one else's.
measure lat-iso "echo \$\$ > /sys/fs/cgroup/rtready-isolated/cgroup.procs && "
# noise --isolate where tune's partition already holds 2-3: refused, named.
run noise-iso-taken 60 rtready noise -a 2-3 -D 1s --isolate
# A process left in the partition: the group cannot go (exit 1, said so);
# once it is moved out, a second --revert finishes.
sleep 120 &
busy=$!
echo "$busy" >/sys/fs/cgroup/rtready-isolated/cgroup.procs
run tune-revert-busy 180 rtready tune --revert --format json
echo "$busy" >/sys/fs/cgroup/cgroup.procs
kill "$busy"
wait "$busy" 2>/dev/null
run tune-revert 180 rtready tune --revert --format json
capture cg-after cgtree
capture tunables-after tunables

# Measured here, after tune's values were compared: a partition that comes
# and goes gives the root group's tasks every CPU again (the kernel resets
# their affinity), IRQ threads included, until their IRQ's affinity is next
# set. noise --isolate puts the kernel threads back (kaff-*), but the load's
# and other user tasks are not compared here.
measure_noise noise-plain ""
capture cg-before-noise-iso cgtree
irqflip
block irqflip-noise /tmp/rtr.flip
capture kaff-before-noise-iso kaff
measure_noise noise-iso --isolate
capture cg-after-noise-iso cgtree
capture kaff-after-noise-iso kaff
measure_noise noise-iso2 --isolate
measure_noise noise-plain2 ""

# run --isolate: the partition for the program's lifetime.
capture kaff-before-run kaff
run run-iso 60 rtready run --isolate --cpus 2-3 -- sh -c \
	'cat /sys/fs/cgroup/cpuset.cpus.isolated; grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup'
capture cg-after-run cgtree
capture kaff-after-run kaff
# ... when the program is killed.
(rtready run --isolate --cpus 2-3 -- sleep 61 >/tmp/rk.out 2>&1; echo "$?" >/tmp/rk.rc) &
rr=$!
sleep 3
capture cg-during-run cgtree
# The program is what its partition holds (waited for: TCG is slow).
for i in 1 2 3 4 5 6 7 8 9 10; do
	prog=$(cat /sys/fs/cgroup/rtready-isolated-run-*/cgroup.procs 2>/dev/null)
	[ -n "$prog" ] && break
	sleep 1
done
echo "program: $prog $(cat /proc/$prog/cmdline 2>/dev/null | tr '\0' ' ')" >/tmp/rk.prog
block run-kill-prog.which /tmp/rk.prog
kill -9 $prog
wait "$rr"
block run-kill-prog.rc /tmp/rk.rc
block run-kill-prog.err /tmp/rk.out
capture cg-after-prog-kill cgtree
# ... when rtready gets SIGTERM: it ends its program and removes the partition.
rtready run --isolate --cpus 2-3 -- sleep 62 >/tmp/rt.out 2>&1 &
rr=$!
sleep 4
kill -TERM "$rr"
wait "$rr"
echo "$?" >/tmp/rt.rc
block run-term.rc /tmp/rt.rc
capture cg-after-term cgtree
# ... when rtready is killed (-9): its program gets SIGTERM; the next run cleans up.
irqflip
block irqflip-kill /tmp/rtr.flip
capture kaff-before-kill kaff
rtready run --isolate --cpus 2-3 -- sleep 60 >/tmp/rk2.out 2>&1 &
rr=$!
sleep 3
kill -9 "$rr"
wait "$rr" 2>/dev/null
sleep 2
capture cg-after-rtready-kill cgtree
run run-clean 60 rtready run -- true
capture cg-after-clean cgtree
capture kaff-after-clean kaff

# A partition the kernel refuses midway: a sibling group holds CPU 2 in its
# cpuset.cpus, so the partition is not exclusive. Everything is undone.
echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
mkdir /sys/fs/cgroup/blocker
echo 2 >/sys/fs/cgroup/blocker/cpuset.cpus
capture cg-before-fail cgtree
run tune-fail 180 rtready tune --rt-cpus 2-3 --isolate --apply --no-tasks --format json
capture cg-after-fail cgtree
run tune-fail-revert 120 rtready tune --revert --format json
rmdir /sys/fs/cgroup/blocker
echo -cpuset >/sys/fs/cgroup/cgroup.subtree_control
