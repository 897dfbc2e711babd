#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready latency against Debian's cyclictest (rt-tests), same options:
#   cyclictest       -m -S -p 80 -i I -D D -q --laptop -h H
#   rtready latency  -m -S -p 80 -i I -D D -q --hist-max H -f json
# (--laptop keeps cyclictest off /dev/cpu_dma_latency; rtready leaves it
# alone by default.) The two alternate, ROUNDS times each, at -i 1000 and
# -i 100, so that a change in the machine's background load hits both
# alike. For every run: the CPU time (user + system) the whole process
# consumed, from getrusage of the finished child, divided by the wake-ups
# it measured; and p50 / p99 / max over all CPUs, with both percentiles
# computed the same way from each tool's 1 us histogram (overflows count as
# past the range). Prints every run, the median per tool and the ratios
# rtready / cyclictest, and in how many rounds rtready read higher. Goal
# (issue 26): p50 within 5% of cyclictest's and p99 no higher, CPU per
# wake-up no more.
#
#   bench/latency.sh [BUILD_DIR]      (default: build)
# Environment: DURATION (10, seconds), ROUNDS (8), INTERVALS ("1000 100"),
# HIST_US (10000), CYCLICTEST (cyclictest).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
cyclictest=${CYCLICTEST:-cyclictest}
duration=${DURATION:-10}
rounds=${ROUNDS:-8}
intervals=${INTERVALS:-1000 100}
hist=${HIST_US:-10000}
[ -x "$rtready" ] || { echo "no $rtready: build first (meson compile -C $build)" >&2; exit 2; }
command -v "$cyclictest" >/dev/null ||
	{ echo "no cyclictest: apt-get install rt-tests" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || echo "warning: not root; both tools may fail to get SCHED_FIFO" >&2

exec python3 - "$rtready" "$(command -v "$cyclictest")" "$duration" "$rounds" "$hist" \
	$intervals <<'PY'
import json, math, os, resource, statistics, subprocess, sys

rtready, cyclictest, duration, rounds, hist = sys.argv[1:6]
intervals = [int(i) for i in sys.argv[6:]]
rounds = int(rounds)


def run(cmd):
    """Run cmd; return its stdout and the CPU seconds it used (user + sys)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("%s exited %d: %s" % (cmd[0], p.returncode, p.stderr.strip()))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, cpu


def stats(counts, overflows, max_us):
    """p50, p99 (lower bucket edge in us, the same rule for both tools), max."""
    n = sum(counts) + overflows
    out = []
    for q in (0.50, 0.99):
        rank, seen, v = max(1, math.ceil(q * n)), 0, len(counts)
        for i, c in enumerate(counts):
            seen += c
            if seen >= rank:
                v = i
                break
        out.append(v)
    return n, out[0], out[1], max_us


def rtready_run(i):
    cmd = [rtready, "latency", "-m", "-S", "-p", "80", "-i", str(i), "-D", duration, "-q",
           "--hist-max", hist, "-f", "json"]
    text, cpu = run(cmd)
    d = json.loads(text)
    counts, ovf = [0] * int(hist), 0
    for t in d["threads"]:
        # schema_version 2: sparse [bucket, count] pairs; 1: every bucket.
        pairs = t["histogram"]["counts"]
        if pairs and isinstance(pairs[0], list):
            for k, c in pairs:
                counts[k] += c
        else:
            for k, c in enumerate(pairs):
                counts[k] += c
        ovf += t["overflows"]
    n, p50, p99, mx = stats(counts, ovf, d["summary"]["max_ns"] / 1000.0)
    return cpu, n, p50, p99, mx


def cyclictest_run(i):
    cmd = [cyclictest, "-m", "-S", "-p", "80", "-i", str(i), "-D", duration, "-q", "--laptop",
           "-h", hist]
    text, cpu = run(cmd)
    counts, ovf, mx = [0] * int(hist), 0, 0
    for line in text.splitlines():
        f = line.split()
        if f and f[0].isdigit():
            counts[int(f[0])] += sum(int(x) for x in f[1:])
        elif line.startswith("# Histogram Overflows:"):
            ovf = sum(int(x) for x in line.split(":")[1].split())
        elif line.startswith("# Max Latencies:"):
            mx = max(int(x) for x in line.split(":")[1].split())
    n, p50, p99, mx = stats(counts, ovf, float(mx))
    return cpu, n, p50, p99, mx


print("duration %s s, %d rounds, histogram %s us, load average %s" %
      (duration, rounds, hist, " ".join(open("/proc/loadavg").read().split()[:3])))
summary = []
for i in intervals:
    res = {"rtready": [], "cyclictest": []}
    for r in range(rounds):
        order = (("rtready", rtready_run), ("cyclictest", cyclictest_run))
        # Who goes first alternates too: a drift in the background load
        # within a round must not always favour the same tool.
        for name, fn in (order if r % 2 == 0 else order[::-1]):
            cpu, n, p50, p99, mx = fn(i)
            res[name].append((cpu / n * 1e6, p50, p99, mx, n))
            print("-i %-5d round %d %-10s wake-ups %7d  cpu/wake-up %6.2f us  "
                  "p50 %4d us  p99 %5d us  max %8.1f us" %
                  (i, r + 1, name, n, cpu / n * 1e6, p50, p99, mx), flush=True)
    med = {k: [statistics.median(x[j] for x in v) for j in range(4)] for k, v in res.items()}
    # Round by round: in how many rounds rtready read higher than cyclictest.
    higher = [sum(1 for x, y in zip(res["rtready"], res["cyclictest"]) if x[j] > y[j])
              for j in (1, 2)]
    summary.append((i, med, higher))

print()
print("medians and ratios rtready / cyclictest")
for i, med, higher in summary:
    a, b = med["rtready"], med["cyclictest"]
    ratio = [x / y if y else float("nan") for x, y in zip(a, b)]
    ok_cpu = ratio[0] <= 1.0
    # Issue 26: p50 within 5% of cyclictest's, p99 no higher (1 us buckets:
    # a 1 us difference is the resolution, not a gap).
    ok_p50 = abs(a[1] - b[1]) <= max(1, 0.05 * b[1])
    ok_p99 = a[2] <= b[2] + 1
    print("-i %-5d cpu/wake-up %.2f vs %.2f us (x%.2f)  p50 %d vs %d us (x%.2f)  "
          "p99 %d vs %d us (x%.2f)  max %.0f vs %.0f us (x%.2f)" %
          (i, a[0], b[0], ratio[0], a[1], b[1], ratio[1], a[2], b[2], ratio[2], a[3], b[3],
           ratio[3]))
    print("         rounds where rtready read higher: p50 %d of %d, p99 %d of %d" %
          (higher[0], rounds, higher[1], rounds))
    print("         goal cpu <= 1.0x: %s; p50 within 5%%: %s; p99 no higher: %s" %
          ("met" if ok_cpu else "NOT met", "met" if ok_p50 else "NOT met",
           "met" if ok_p99 else "NOT met"))
PY
