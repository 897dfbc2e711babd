#!/bin/bash
# SPDX-License-Identifier: MIT
#
# How fast `rtready inspect --all --window 0` looks at every process
# (issue 6, Performance): under 30 ms on this machine (printed), and under
# LIMIT_MS (1000) of CPU time on the 30,000-thread fixture of check
# (asserted: exit 1 when not met). The fixture is the largest tree of
# bench/check-scale.sh (512 CPUs, 4096 IRQs, 30,000 threads, made by
# tools/gen-fixtures.py), read with --root, in text and JSON, best of RUNS.
#
# Then the many-thread case on the live machine (the live /proc costs
# more per thread than files on disk): helper processes of PER_PROC
# sleeping threads each
# (python3, 64 KiB stacks, blocked on a lock) bring the machine to THREADS
# more threads, and inspect is timed again. The helpers are bounded: they
# take at most a third of the free PIDs (pid_max, threads-max and
# RLIMIT_NPROC all counted), die with this script (PR_SET_PDEATHSIG) and
# after LIFETIME_S in any case, and are killed by their PIDs at the end.
# Where the limits do not allow THREADS, the script says how many it
# started and extrapolates linearly to THREADS from the measured cost per
# thread (said so in the output).
#
# Prints wall and CPU time (best of RUNS) with and without the extra
# threads, and the cost per thread; LIVE_THREADS=0 skips this part. Only
# the fixture figure is asserted, on CPU time (wall time on a shared
# machine mostly measures the other tenants); the load is printed.
#
#   bench/inspect-scale.sh [BUILD_DIR]       (default: build)
#   THREADS=8000 PER_PROC=2000 RUNS=5 bench/inspect-scale.sh build
#   LIVE_THREADS=0 bench/inspect-scale.sh build      (the fixture only)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
build=${1:-build}
case $build in /*) ;; *) build=$src/$build ;; esac
RTREADY=${RTREADY:-$build/src/rtready}
RUNS=${RUNS:-5}
THREADS=${THREADS:-30000}
PER_PROC=${PER_PROC:-3000}
LIFETIME_S=${LIFETIME_S:-300}
GOAL_MS=30
LIMIT_MS=${LIMIT_MS:-1000}
LIVE_THREADS=${LIVE_THREADS:-1}

[ -x "$RTREADY" ] || { echo "inspect-scale: no rtready at $RTREADY (build first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "inspect-scale: needs python3" >&2; exit 2; }
tmp=$(mktemp -d /tmp/rtr-inspect-scale.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# measure RUNS CMD...: best wall and best CPU (user+sys) ms of RUNS runs.
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
        os.execv(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    wall.append((time.monotonic() - t0) * 1000)
    cpu.append((ru.ru_utime + ru.ru_stime) * 1000)
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 1):
        sys.exit("'%s' exited %d" % (" ".join(cmd), rc))
print("%.1f %.1f" % (min(wall), min(cpu)))
PY
}

threads_now() { find /proc/[0-9]*/task -maxdepth 1 -mindepth 1 2>/dev/null | wc -l; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

cat >"$tmp/sleepers.py" <<'PY'
# N threads that sleep on a lock until the process is killed, bounded in time.
import ctypes, os, signal, sys, threading, time
n, ready, lifetime = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
try:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
threading.stack_size(64 * 1024)
gate = threading.Lock()
gate.acquire()
for _ in range(n):
    threading.Thread(target=gate.acquire, daemon=True).start()
open(ready, "w").close()
time.sleep(lifetime)
os._exit(0)
PY

rc=0
tree=$tmp/tree
python3 "$src/tools/gen-fixtures.py" scale "$tree" --cpus 512 --irqs 4096 --threads 30000 >/dev/null
"$RTREADY" inspect --root "$tree" --all >/dev/null || [ $? -eq 1 ]	# warm the page cache
echo "rtready inspect --root FIXTURE --all (512 CPUs, 4096 IRQs, 30000 threads), best of $RUNS"
for fmt in text json; do
	read -r wall cpu < <(measure "$RUNS" "$RTREADY" inspect --root "$tree" --all --format "$fmt")
	if awk -v c="$cpu" -v l="$LIMIT_MS" 'BEGIN { exit !(c < l) }'; then
		verdict="< $LIMIT_MS ms: ok"
	else
		verdict=">= $LIMIT_MS ms: NOT MET"
		rc=1
	fi
	printf '  %-4s: %7.1f ms wall, %7.1f ms CPU (%s)\n' "$fmt" "$wall" "$cpu" "$verdict"
done
rm -rf "$tree"

base=$(threads_now)
echo "rtready inspect --all --window 0 on this machine ($(nproc) CPUs, $base threads," \
	"load average $(load)), best of $RUNS"
read -r wall cpu < <(measure "$RUNS" "$RTREADY" inspect --all --window 0 --format json)
if awk -v w="$wall" -v g="$GOAL_MS" 'BEGIN { exit !(w < g) }'; then
	verdict="goal met"
else
	verdict="goal not met on this run"
fi
printf '  %6d threads: %7.1f ms wall, %7.1f ms CPU (goal < %d ms: %s)\n' "$base" "$wall" "$cpu" \
	"$GOAL_MS" "$verdict"
base_cpu=$cpu
[ "$LIVE_THREADS" = 0 ] && exit $rc

# How many threads may be added without crowding anyone else out.
pid_max=$(cat /proc/sys/kernel/pid_max)
threads_max=$(cat /proc/sys/kernel/threads-max)
nproc_limit=$(ulimit -u)
[ "$nproc_limit" = unlimited ] && nproc_limit=$threads_max
room=$pid_max
[ "$threads_max" -lt "$room" ] && room=$threads_max
[ "$nproc_limit" -lt "$room" ] && room=$nproc_limit
room=$(((room - base) / 3))
want=$THREADS
if [ "$want" -gt "$room" ]; then
	echo "  $THREADS more threads would crowd this machine (pid_max $pid_max, threads-max" \
		"$threads_max, RLIMIT_NPROC $(ulimit -u), $base threads now): room for $room"
	want=$room
fi
if [ "$want" -lt "$PER_PROC" ]; then
	echo "  no room for the many-thread case here"
	exit $rc
fi
started=0 i=0
while [ $((started + PER_PROC)) -le "$want" ]; do
	python3 "$tmp/sleepers.py" "$PER_PROC" "$tmp/ready.$i" "$LIFETIME_S" &
	pids+=($!)
	started=$((started + PER_PROC)) i=$((i + 1))
done
for ((k = 0; k < i; k++)); do
	for _ in $(seq 600); do [ -e "$tmp/ready.$k" ] && break; sleep 0.1; done
	[ -e "$tmp/ready.$k" ] || { echo "inspect-scale: helper $k did not start its threads" >&2
		exit 1; }
done
now=$(threads_now)
read -r wall cpu < <(measure "$RUNS" "$RTREADY" inspect --all --window 0 --format json)
printf '  %6d threads: %7.1f ms wall, %7.1f ms CPU (%d helpers of %d sleeping threads)\n' \
	"$now" "$wall" "$cpu" "$i" "$PER_PROC"
per=$(awk -v a="$cpu" -v b="$base_cpu" -v n="$now" -v m="$base" \
	'BEGIN { printf "%.2f", (a - b) * 1000 / (n - m) }')
echo "  cost per added thread: $per us CPU"
if [ "$now" -lt 30000 ]; then
	awk -v a="$cpu" -v p="$per" -v n="$now" 'BEGIN { printf "  extrapolated to 30000 " \
		"threads (linear, from the cost per thread): %.0f ms CPU\n", a + p * (30000 - n) / 1000 }'
fi
echo "  load average now: $(load)"
exit $rc
