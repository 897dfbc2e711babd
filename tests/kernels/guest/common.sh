# SPDX-License-Identifier: MIT
# Helpers of the guest scenarios (sourced by /init as /lib/rtr-common.sh).
# The guest only runs things and prints them; the host judges (matrix.py).

# run NAME SECONDS CMD...: run CMD bounded by a timeout; print its exit
# status, stdout and stderr as blocks NAME (rc), NAME.out and NAME.err.
run() {
	_n=$1 _t=$2
	shift 2
	_s=$(cut -d' ' -f1 /proc/uptime)
	timeout "$_t" "$@" >/tmp/rtr.out 2>/tmp/rtr.err </dev/null
	_rc=$?
	_e=$(cut -d' ' -f1 /proc/uptime)
	echo "@@RTR-RC $_n $_rc $_s $_e"
	block "$_n.out" /tmp/rtr.out
	block "$_n.err" /tmp/rtr.err
}

# block NAME FILE: print FILE between markers.
block() {
	echo "@@RTR-BEGIN $1"
	cat "$2" 2>/dev/null
	echo
	echo "@@RTR-END $1"
}

# capture NAME CMD...: stdout of CMD as block NAME (no timeout, no rc).
capture() {
	_n=$1
	shift
	"$@" >/tmp/rtr.cap 2>&1
	block "$_n" /tmp/rtr.cap
}

# The values tune may change, one "path=value" per line, and the CPU
# affinity of every task ("task PID COMM=list"): compared before --apply
# and after --revert. RTR_NO_TASKS=1 leaves the tasks out (they are not
# compared across boots, and the walk is slow under TCG).
tunables() {
	for f in /proc/sys/kernel/sched_rt_runtime_us /proc/sys/kernel/sched_rt_period_us \
		/proc/sys/kernel/timer_migration /proc/sys/kernel/watchdog_cpumask \
		/proc/sys/kernel/watchdog /proc/sys/kernel/nmi_watchdog \
		/proc/sys/vm/stat_interval /proc/irq/default_smp_affinity \
		/sys/devices/virtual/workqueue/cpumask \
		/sys/kernel/mm/transparent_hugepage/enabled \
		/sys/kernel/mm/transparent_hugepage/defrag \
		/proc/irq/*/smp_affinity_list \
		/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor \
		/sys/devices/system/cpu/cpu*/cpuidle/state*/disable \
		/proc/sys/kernel/hung_task_timeout_secs /sys/kernel/mm/ksm/run \
		/proc/sys/kernel/numa_balancing \
		/sys/kernel/debug/sched/fair_server/cpu*/runtime; do
		[ -r "$f" ] && echo "$f=$(cat "$f" 2>/dev/null)"
	done
	[ -n "${RTR_NO_TASKS:-}" ] && return 0
	for d in /proc/[0-9]*; do
		c=$(cat "$d/comm" 2>/dev/null) || continue
		a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$d/status" 2>/dev/null)
		echo "task ${d#/proc/} $c=$a"
	done
}

# The cgroup tree as `tune --isolate` and `run --isolate` may change it.
cgtree() {
	echo "subtree=$(cat /sys/fs/cgroup/cgroup.subtree_control)"
	echo "isolated=$(cat /sys/fs/cgroup/cpuset.cpus.isolated 2>/dev/null || echo none)"
	for d in /sys/fs/cgroup/*/; do
		[ -d "$d" ] && echo "group=${d%/}"
	done
}

# snapshot NAME: `rtready snapshot` of this guest, as a base64 tar.gz block.
snapshot() {
	rm -rf /tmp/snap
	if rtready snapshot /tmp/snap >/tmp/rtr.snap 2>&1; then
		tar -C /tmp/snap -czf /tmp/snap.tgz . && base64 /tmp/snap.tgz >/tmp/snap.b64
		block "$1.snapshot.b64" /tmp/snap.b64
	else
		block "$1.snapshot.err" /tmp/rtr.snap
	fi
}

# nohist NAME FILE: the JSON of `rtready noise` in FILE as block NAME, without
# the per-CPU histograms (up to 1024 buckets each, four lines a bucket: too
# much for a slow serial console, and the host judges the rest).
nohist() {
	awk '/"histogram": \{$/ { skip = 1; ind = index($0, "\""); next }
		skip { if (index($0, "}") == ind && $0 ~ /^ *\},?$/) skip = 0; next }
		{ print }' "$2" >/tmp/rtr.nohist
	block "$1" /tmp/rtr.nohist
}
