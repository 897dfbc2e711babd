#!/bin/bash
# SPDX-License-Identifier: MIT
# What a latency measurement costs in CPU, against its floor (issue 19):
# the whole process's task-clock (perf stat: exact, where getrusage samples
# by ticks) of
#   floor       bench/latency-floor.c: one SCHED_FIFO thread per CPU,
#               mlockall, absolute clock_nanosleep, a maximum and nothing else
#   rtready     rtready latency -D D -i I -p 80 -q -f json
#   cyclictest  cyclictest -m -S -p 80 -i I -l LOOPS -q --laptop
# in ABBA order (floor, rtready, cyclictest, cyclictest, rtready, floor, ...)
# ROUNDS times, so that drifts of the machine hit all alike. Prints each run,
# the medians, and the ratios to the floor; the whole-run difference is
# start-up plus per-wake-up work. Goal: rtready within 1.10x of the floor.
# In a VM a wake-up costs what the hypervisor makes it cost, and runs vary
# by 2x: read the medians of many rounds, never one run.
#
#   bench/latency-cpu.sh [BUILD_DIR]
# Environment: DURATION (5, s), INTERVAL (1000, us), ROUNDS (6), CYCLICTEST.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
duration=${DURATION:-5}
interval=${INTERVAL:-1000}
rounds=${ROUNDS:-6}
cyclictest=${CYCLICTEST:-cyclictest}
[ -x "$rtready" ] || { echo "no $rtready: build first" >&2; exit 2; }
command -v perf >/dev/null || { echo "needs perf (linux-perf)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO, mlockall)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -pthread -o "$tmp/floor" "$here/latency-floor.c"
have_ct=1
command -v "$cyclictest" >/dev/null || { have_ct=0; echo "no cyclictest: left out" >&2; }
loops=$(python3 -c "print(int($duration * 1e6 / $interval))")

# clock NAME CMD...: task-clock in ms of CMD, appended to $tmp/NAME.
clock() {
	local name=$1
	shift
	perf stat -x, -e task-clock -o "$tmp/stat" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; echo "$name failed" >&2; exit 1; }
	awk -F, '/task-clock/ {print $1}' "$tmp/stat" | tee -a "$tmp/$name.ms"
}
floor() { clock floor "$tmp/floor" "$duration" "$interval" 80; }
ours() { clock rtready "$rtready" latency -D "${duration}s" -i "$interval" -p 80 -q -f json; }
theirs() {
	[ "$have_ct" -eq 1 ] || return 0
	clock cyclictest "$cyclictest" -m -S -p 80 -i "$interval" -l "$loops" -q --laptop
}
for r in $(seq "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then
		f=$(floor); o=$(ours); c=$(theirs)
	else
		c=$(theirs); o=$(ours); f=$(floor)
	fi
	printf 'round %d: floor %s ms, rtready %s ms, cyclictest %s ms\n' "$r" "$f" "$o" "${c:--}"
done
python3 - "$tmp" <<'PY'
import os, statistics, sys
d = sys.argv[1]
med = {}
for n in ("floor", "rtready", "cyclictest"):
    p = os.path.join(d, n + ".ms")
    if os.path.exists(p):
        med[n] = statistics.median(float(x) for x in open(p) if x.strip())
print("medians: " + ", ".join("%s %.1f ms" % kv for kv in med.items()))
for n in ("rtready", "cyclictest"):
    if n in med:
        print("%s / floor: %.3fx" % (n, med[n] / med["floor"]))
r = med["rtready"] / med["floor"]
print("goal rtready <= 1.10x the floor: %s" % ("met" if r <= 1.10 else "NOT met"))
PY
