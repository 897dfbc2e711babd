#!/bin/bash
# SPDX-License-Identifier: MIT
#
# How `rtready plan` grows with the CPU count (issue 24, 2.1): the planner
# once sorted its clusters by insertion and recomputed each one's last CPU
# on every comparison, so 8,192 CPUs took 7.8 s and 65,536 more than five
# minutes. For each size it builds two trees under /tmp (and removes them):
#
#   bare  tests/fixtures/vm (a 2-CPU VM) with online, present and possible
#         widened to 0-(N-1): the sweep's reproduction. Nothing but the
#         online list is known of the other CPUs, so each is its own core
#         and its own cluster (the most clusters the planner can get).
#   topo  a generated server: 2 threads per core (CPU n and n + N/2),
#         an L1d per core, an L2 per 2 cores, a NUMA node per 128 CPUs;
#         only the files the planner reads (siblings, caches, nodes).
#
# and times `rtready plan --root TREE` (text and --format json) and
# `rtready tune --rt-cpus auto --root TREE` (the dry run, which plans the
# same way), best of RUNS (default 3) after one untimed run that warms the
# page cache. `rtready check --root TREE` is timed too: plan gathers the
# same facts and runs the same checklist on the planned machine, so check
# is the floor, and the column "-check" (plan's CPU time minus check's) is
# what planning adds. It prints wall and CPU time (user + system), the CPU
# time per CPU, and the ratio to the same tree and command at the first
# size.
#
# Asserts (exit 1 when not met), in CPU time: on the 8,192-CPU trees every
# command under LIMIT_MS (1000) and planning (the "-check" column) under
# PLAN_LIMIT_MS (150); on every tree every command under MAX_MS (20000), so
# that no size hangs. CPU time is asserted rather than wall time: the
# commands are single-threaded and read cached files, so on a shared
# machine wall time mostly measures the other tenants.
#
#   bench/plan-scale.sh [BUILD_DIR]          (default: build)
#   RUNS=5 SIZES="8192 65536" LIMIT_MS=1000 bench/plan-scale.sh build
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
build=${1:-build}
case $build in /*) ;; *) build=$src/$build ;; esac
RTREADY=${RTREADY:-$build/src/rtready}
RUNS=${RUNS:-3}
SIZES=${SIZES:-"8192 65536"}
LIMIT_MS=${LIMIT_MS:-1000}
PLAN_LIMIT_MS=${PLAN_LIMIT_MS:-150}
LIMIT_CPUS=8192
MAX_MS=${MAX_MS:-20000}

[ -x "$RTREADY" ] || { echo "plan-scale: no rtready at $RTREADY (build first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "plan-scale: needs python3" >&2; exit 2; }
tmp=$(mktemp -d /tmp/rtr-plan-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# measure RUNS CMD...: run CMD RUNS times (stdout to /dev/null); print the
# best wall and the best CPU (user+sys) time in ms. Exit codes 0 and 1 are
# results (check fails checks on these trees); anything else is an error.
measure() {
	python3 - "$@" <<'PY'
import os, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
wall, cpu = [], []
for _ in range(runs):
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        try:
            os.execv(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall.append((time.monotonic() - t0) * 1000)
    cpu.append((ru.ru_utime + ru.ru_stime) * 1000)
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 1):
        sys.exit("'%s' exited %d" % (" ".join(cmd), rc))
print("%.1f %.1f" % (min(wall), min(cpu)))
PY
}

# bare DEST N: the VM fixture with N CPUs online.
bare() {
	cp -r "$src/tests/fixtures/vm" "$1"
	for f in online present possible; do
		echo "0-$(($2 - 1))" >"$1/sys/devices/system/cpu/$f"
	done
}

# topo DEST N: a server of N CPUs (N a multiple of 256).
topo() {
	python3 - "$1" "$2" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
half = n // 2
cpu = os.path.join(root, "sys/devices/system/cpu")

def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")

def lst(cpus):
    return ",".join(str(c) for c in sorted(cpus))

for f in ("online", "present", "possible"):
    put(os.path.join(cpu, f), "0-%d" % (n - 1))
put(os.path.join(cpu, "isolated"), "")
put(os.path.join(cpu, "smt/active"), "1")
put(os.path.join(cpu, "smt/control"), "on")
for c in range(n):
    core = c % half
    d = os.path.join(cpu, "cpu%d" % c)
    put(os.path.join(d, "topology/thread_siblings_list"), lst((core, core + half)))
    l2 = core - core % 2
    for idx, level, kind, sharers in (
            ("index0", 1, "Data", (core, core + half)),
            ("index2", 2, "Unified", (l2, l2 + 1, l2 + half, l2 + 1 + half))):
        put(os.path.join(d, "cache", idx, "level"), str(level))
        put(os.path.join(d, "cache", idx, "type"), kind)
        put(os.path.join(d, "cache", idx, "shared_cpu_list"), lst(sharers))
node = 0
for base in range(0, half, 64):
    cpus = list(range(base, base + 64)) + list(range(base + half, base + half + 64))
    put(os.path.join(root, "sys/devices/system/node/node%d/cpulist" % node),
        "%d-%d,%d-%d" % (base, base + 63, base + half, base + half + 63))
    node += 1
put(os.path.join(root, "proc/cmdline"), "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet")
put(os.path.join(root, "proc/sys/kernel/osrelease"), "6.12.0-rt")
PY
}

echo "rtready plan --root on widened and generated trees (best of $RUNS; $(nproc) CPUs" \
	"here, load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%6s %5s %-10s %9s %9s %9s %11s %8s  %s\n' CPUs tree command "wall ms" "cpu ms" \
	"-check" "cpu us/CPU" "x first" "plan"
rc=0
declare -A first
for n in $SIZES; do
	for kind in bare topo; do
		tree=$tmp/$kind-$n
		rm -rf "$tree"
		case $kind in
		bare) bare "$tree" "$n" ;;
		topo) topo "$tree" "$n" ;;
		esac
		"$RTREADY" plan --root "$tree" --format json >"$tmp/plan.json"
		got=$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["plan"]
rt = sum(int(b or a) - int(a) + 1 for a, _, b in (r.partition("-") for r in p["rt_cpus"].split(",")))
print("%d RT of %s, %d clusters" % (rt, sys.argv[2], len(p["clusters"])))' \
			"$tmp/plan.json" "$n")
		for cmd in check plan plan-json tune-auto; do
			case $cmd in
			check) args=(check --root "$tree") ;;
			plan) args=(plan --root "$tree") ;;
			plan-json) args=(plan --root "$tree" --format json) ;;
			tune-auto) args=(tune --rt-cpus auto --root "$tree") ;;
			esac
			read -r wall cpu < <(measure "$RUNS" "$RTREADY" "${args[@]}")
			key=$kind/$cmd
			[ -n "${first[$key]:-}" ] || first[$key]=$cpu
			[ "$cmd" = check ] && floor=$cpu
			extra=$(awk -v c="$cpu" -v f="$floor" 'BEGIN { printf "%.1f", c - f }')
			printf '%6d %5s %-10s %9.1f %9.1f %9s %11.2f %7.1fx  %s\n' "$n" "$kind" "$cmd" \
				"$wall" "$cpu" "$([ "$cmd" = check ] && echo - || echo "$extra")" \
				"$(awk -v c="$cpu" -v n="$n" 'BEGIN { print c * 1000 / n }')" \
				"$(awk -v a="$cpu" -v b="${first[$key]}" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
				"$([ "$cmd" = check ] || echo "$got")"
			if [ "$n" -le "$LIMIT_CPUS" ] && [ "$cmd" != check ] &&
				! awk -v c="$extra" -v l="$PLAN_LIMIT_MS" 'BEGIN { exit !(c < l) }'; then
				echo "  $n CPUs, $kind, $cmd: planning ${extra} ms CPU >= ${PLAN_LIMIT_MS} ms: NOT MET"
				rc=1
			fi
			if [ "$n" -le "$LIMIT_CPUS" ] &&
				! awk -v c="$cpu" -v l="$LIMIT_MS" 'BEGIN { exit !(c < l) }'; then
				echo "  $n CPUs, $kind, $cmd: ${cpu} ms CPU >= ${LIMIT_MS} ms: NOT MET"
				rc=1
			fi
			if ! awk -v c="$cpu" -v l="$MAX_MS" 'BEGIN { exit !(c < l) }'; then
				echo "  $n CPUs, $kind, $cmd: ${cpu} ms CPU >= ${MAX_MS} ms: NOT MET"
				rc=1
			fi
		done
		rm -rf "$tree"
	done
done
if [ "$rc" -eq 0 ]; then
	echo "up to $LIMIT_CPUS CPUs: under $LIMIT_MS ms of CPU, planning under $PLAN_LIMIT_MS ms;" \
		"every size under $MAX_MS ms: ok"
fi
exit $rc
