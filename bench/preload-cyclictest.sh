#!/bin/bash
# SPDX-License-Identifier: MIT
# Does the runtime checker change a realtime program's own latency? Runs
# Debian's cyclictest (rt-tests) as is and under `rtready run --check`
# (the checker preloaded, its hooks on every clock_nanosleep), the same
# options both ways:
#   cyclictest -m -S -p 80 -i I -D D -q --laptop -h H
# The two alternate ROUNDS times (at least 6), the order swapped each
# round (ABBA), so that a change in the machine's load hits both alike.
# For each run: p50 and p99 from cyclictest's 1 us histogram over all
# CPUs (overflows count past the range) and its max. Prints every run,
# the median of each side, the ratios with / without, and whether the
# checked medians lie within the spread of the unchecked runs (this
# machine's noise, measured in the same run; issue 25: "within noise").
#
#   bench/preload-cyclictest.sh [BUILD_DIR]     (default: build; as root)
# Environment: DURATION (5, seconds), ROUNDS (6), INTERVAL (1000, us),
# HIST_US (10000), CYCLICTEST (cyclictest).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
cyclictest=${CYCLICTEST:-cyclictest}
rounds=${ROUNDS:-6}
[ -x "$rtready" ] || { echo "no $rtready: build first (meson compile -C $build)" >&2; exit 2; }
[ -f "$build/preload/librtready-check.so" ] ||
	{ echo "no checker library in $build/preload: build it first" >&2; exit 2; }
command -v "$cyclictest" >/dev/null ||
	{ echo "no cyclictest: apt-get install rt-tests" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
[ "$rounds" -ge 6 ] || { echo "ROUNDS must be at least 6" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO, mlockall)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exec python3 - "$rtready" "$(command -v "$cyclictest")" "${DURATION:-5}" "$rounds" \
	"${INTERVAL:-1000}" "${HIST_US:-10000}" "$tmp" "$build/preload/librtready-check.so" <<'PY'
import json, math, os, statistics, subprocess, sys

rtready, cyclictest, duration, rounds, interval, hist, tmp, lib = sys.argv[1:9]
rounds = int(rounds)
base = [cyclictest, "-m", "-S", "-p", "80", "-i", interval, "-D", duration, "-q", "--laptop",
        "-h", hist]
report = os.path.join(tmp, "check.json")


def parse(text):
    """p50, p99 (lower bucket edge, us) over all threads, and the max (us)."""
    counts, ovf, mx = [0] * int(hist), 0, 0
    for line in text.splitlines():
        f = line.split()
        if f and f[0].isdigit():
            counts[int(f[0])] += sum(int(x) for x in f[1:])
        elif line.startswith("# Histogram Overflows:"):
            ovf = sum(int(x) for x in line.split(":")[1].split())
        elif line.startswith("# Max Latencies:"):
            mx = max(int(x) for x in line.split(":")[1].split())
    n = sum(counts) + ovf
    if n == 0:
        sys.exit("cyclictest printed no histogram:\n" + text[-2000:])
    out = []
    for q in (0.50, 0.99):
        rank, seen, v = max(1, math.ceil(q * n)), 0, len(counts)
        for i, c in enumerate(counts):
            seen += c
            if seen >= rank:
                v = i
                break
        out.append(v)
    return n, out[0], out[1], mx


def run(checked):
    cmd = base
    if checked:
        cmd = [rtready, "run", "--check", "--format", "json", "--report", report, "--"] + base
    env = dict(os.environ, RTREADY_PRELOAD=lib)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # run --check exits 1 when it has findings (cyclictest has some: no mallopt).
    if p.returncode not in (0, 1) or (not checked and p.returncode):
        sys.exit("%s exited %d: %s" % (" ".join(cmd[:3]), p.returncode, p.stderr.strip()))
    if checked:
        r = json.load(open(report))
        if not r["checker"]["attached"]:
            sys.exit("the checker did not attach to cyclictest")
    return parse(p.stdout)


print("cyclictest -i %s -D %s s, %d rounds alternated, load average %s" %
      (interval, duration, rounds, " ".join(open("/proc/loadavg").read().split()[:3])))
res = {False: [], True: []}
for r in range(rounds):
    order = (False, True) if r % 2 == 0 else (True, False)
    for checked in order:
        n, p50, p99, mx = run(checked)
        res[checked].append((p50, p99, mx))
        print("round %d %-22s samples %7d  p50 %4d us  p99 %5d us  max %6d us" %
              (r + 1, "rtready run --check:" if checked else "cyclictest alone:", n, p50, p99,
               mx), flush=True)

print()
print("medians (us) and ratios with / without the checker")
verdict = True
for j, name in enumerate(("p50", "p99", "max")):
    a = [x[j] for x in res[True]]
    b = [x[j] for x in res[False]]
    ma, mb = statistics.median(a), statistics.median(b)
    # Noise: where the unchecked runs of this same session fell.
    inside = min(b) <= ma <= max(b)
    verdict = verdict and inside
    print("%-4s with %7.1f  without %7.1f  ratio x%.2f   unchecked runs %d..%d: %s" %
          (name, ma, mb, ma / mb if mb else float("nan"), min(b), max(b),
           "within noise" if inside else "OUTSIDE noise"))
print("checked medians within this machine's noise: %s" % ("yes" if verdict else "NO"))
PY
