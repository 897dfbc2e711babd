#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready latency --policy deadline against Debian's cyclicdeadline
# (rt-tests), on the same reservation, measured by one ruler outside both:
#   cyclicdeadline   -t N -s 0 -i I -D D -q             (runtime 60% of I)
#   rtready latency  --policy deadline --runtime 0.6*I --period I -t N -D D -q -f json
# N threads (default: one per online CPU), every one SCHED_DEADLINE with
# runtime 60% of I and deadline = period = I, each job ended by
# sched_yield. The two alternate, ROUNDS times each, and who runs first
# alternates too, so that a change in the machine's background load hits
# both alike. I must be at least 3334 us: below a 2 ms runtime
# cyclicdeadline insists on HRTICK through debugfs.
#
# The ruler (bench/deadline_trace.py): the kernel's trace of each run
# (tracefs, trace clock mono), and for every job of every DEADLINE thread
# the delay from its period's start (the expiry programmed for the
# thread's replenishment timer) to the sched_switch that runs the thread,
# the same for both programs. Beside it each program's own report of the
# same run: rtready's from its histogram of every job; cyclicdeadline's
# Min/Avg/Max (it keeps no histogram, so it has no p50 of its own), and
# what a grid taken from each thread's first job (cyclicdeadline's origin)
# reads over the ruler's own switch-in times. rtready runs twice: with -A 0
# (every thread's periods begin at one instant, as cyclicdeadline's do
# after its barrier: the like-for-like run) and without (each thread's
# periods from its creation). Prints every run, the medians, the ratios
# rtready / cyclicdeadline on the ruler, and the goal (issue 29) judged on
# the ruler with -A 0: p50 within 5% (the median of each round's ratio of
# the two back-to-back runs; the ratio of the medians beside it), p99 and
# max no worse.
#
#   bench/deadline.sh [BUILD_DIR]      (default: build)
# Environment: DURATION (10, seconds), ROUNDS (3), INTERVAL (4000, us),
# THREADS (online CPUs), CYCLICDEADLINE (cyclicdeadline).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
cyclicdeadline=${CYCLICDEADLINE:-cyclicdeadline}
duration=${DURATION:-10}
rounds=${ROUNDS:-3}
interval=${INTERVAL:-4000}
threads=${THREADS:-$(nproc)}
[ -x "$rtready" ] || { echo "no $rtready: build first (meson compile -C $build)" >&2; exit 2; }
command -v "$cyclicdeadline" >/dev/null ||
	{ echo "no cyclicdeadline: apt-get install rt-tests" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
[ "$interval" -ge 3334 ] ||
	{ echo "INTERVAL must be >= 3334 us (cyclicdeadline needs HRTICK below a 2 ms runtime)" >&2
	  exit 2; }
[ "$(id -u)" -eq 0 ] || echo "warning: not root; SCHED_DEADLINE will be refused" >&2

[ -d /sys/kernel/tracing/instances ] ||
	{ echo "needs tracefs at /sys/kernel/tracing (mount -t tracefs nodev /sys/kernel/tracing)" >&2
	  exit 2; }

exec python3 - "$here" "$rtready" "$(command -v "$cyclicdeadline")" "$duration" "$rounds" \
	"$interval" "$threads" <<'PY'
import json, math, re, statistics, sys

here, rtready, cyclicdeadline, duration, rounds, interval, threads = sys.argv[1:8]
sys.path.insert(0, here)
import deadline_trace as ruler  # noqa: E402

rounds, interval = int(rounds), int(interval)
runtime = interval * 60 // 100
nan = float("nan")


def hist_quantiles(d):
    """p50 and p99 of rtready's histograms over all threads (lower bucket edge, us)."""
    counts, ovf = {}, 0
    for t in d["threads"]:
        for k, c in t["histogram"]["counts"]:
            counts[k] = counts.get(k, 0) + c
        ovf += t["overflows"]
    n = sum(counts.values()) + ovf
    out = []
    for q in (0.50, 0.99):
        rank, seen, v = max(1, math.ceil(q * n)), 0, float("inf")
        for k in sorted(counts):
            seen += counts[k]
            if seen >= rank:
                v = k
                break
        out.append(v)
    return n, out[0], out[1]


def traced(cmd, trace):
    out, err, rc, jobs, lost = ruler.run(cmd, trace, interval * 1000, interval * 1000)
    if rc != 0:
        sys.exit("%s exited %d: %s" % (cmd[0], rc, err.strip()[-400:]))
    return out, jobs, lost


def rtready_run(trace, extra=()):
    out, jobs, lost = traced([rtready, "latency", "--policy", "deadline", "--runtime",
                              str(runtime), "--period", str(interval), "-t", threads, "-D",
                              duration, "-q", "-f", "json"] + list(extra), trace)
    d = json.loads(out)
    n, p50, p99 = hist_quantiles(d)
    s = d["summary"]
    return jobs, lost, n, (p50, p99, s["max_ns"] / 1000.0, s["avg_ns"] / 1000.0)


TLINE = re.compile(r"T:\s*(\d+) \(\s*\d+\) I:\d+ C:\s*(\d+) Min:\s*(-?\d+) Act:\s*(-?\d+) "
                   r"Avg:\s*(-?\d+) Max:\s*(-?\d+)")


def cyclicdeadline_run(trace):
    out, jobs, lost = traced([cyclicdeadline, "-t", threads, "-s", "0", "-i", str(interval),
                              "-D", duration, "-q"], trace)
    last = {}
    for m in TLINE.finditer(out):
        last[int(m.group(1))] = (int(m.group(2)), int(m.group(5)), int(m.group(6)))
    n = sum(c for c, _, _ in last.values())
    avg = sum(c * a for c, a, _ in last.values()) / n if n else nan
    mx = max((x for _, _, x in last.values()), default=nan)
    return jobs, lost, n, (nan, nan, mx, avg)


def phase_gap(jobs):
    """The smallest distance, in us, between two threads' period grids (0: aligned)."""
    ph = sorted(seq[0][0] % (interval * 1000) for seq in jobs.starts.values() if seq)
    if len(ph) < 2:
        return nan
    gaps = [b - a for a, b in zip(ph, ph[1:])] + [ph[0] + interval * 1000 - ph[-1]]
    return min(gaps) / 1000.0


def fmt(v, w=6, p=0):
    return ("%*.*f" % (w, p, v)) if v == v else "%*s" % (w, "-")


print("%s threads, runtime %d us, deadline = period = %d us, %s s per run, %d rounds, "
      "load average %s" % (threads, runtime, interval, duration, rounds,
                           " ".join(open("/proc/loadavg").read().split()[:3])))
print("ruler: the kernel's trace, period start (replenishment timer's expiry) to switch-in; "
      "self: the program's own report;\nfirst-job grid: the ruler's switch-ins read against a "
      "grid begun at each thread's first job (cyclicdeadline's origin); all in us")
print("%-24s %6s %6s | %29s | %13s | %29s | %13s | %6s %6s %5s" %
      ("", "jobs", "traced", "ruler p50    p99    max   avg", "user p50  avg",
       "self p50    p99    max   avg", "1st-job p50 avg", "timer", "switch", "phase"))
tools = (("rtready", rtready_run),
         ("rtready -A 0", lambda t: rtready_run(t, ("-A", "0"))),
         ("cyclicdeadline", cyclicdeadline_run))
res = {name: [] for name, _ in tools}
trace = ruler.Trace()
try:
    for r in range(rounds):
        # The like-for-like pair (rtready -A 0, cyclicdeadline) always runs
        # back to back, who first alternating; rtready on its own grids
        # before the pair in two rounds, after it in the next two.
        pair = [tools[1], tools[2]] if r % 2 == 0 else [tools[2], tools[1]]
        order = [tools[0]] + pair if (r // 2) % 2 == 0 else pair + [tools[0]]
        for name, fn in order:
            jobs, lost, n, self_ = fn(trace)
            rul = ruler.summary(jobs.latency)
            first = ruler.summary(ruler.first_start_grid(jobs, interval * 1000))
            user = ruler.summary(jobs.user)
            n_timer = len(jobs.timer_idle) + len(jobs.timer_busy)
            row = (rul, self_, first, ruler.summary(jobs.timer)[0],
                   ruler.summary(jobs.sched)[0], phase_gap(jobs), user,
                   (100.0 * len(jobs.timer_idle) / n_timer if n_timer else nan,
                    ruler.summary(jobs.timer_idle)[0], ruler.summary(jobs.timer_busy)[0]))
            res[name].append(row)
            print("round %d %-16s %6d %6d | %6s %6s %8s %6s | %6s %6s | %6s %6s %8s %6s | %6s %6s | "
                  "%6s %6s %5s%s" % (r + 1, name, n, len(jobs.latency),
                             fmt(rul[0]), fmt(rul[1]), fmt(rul[2]), fmt(rul[3], p=1),
                             fmt(user[0]), fmt(user[3], p=1),
                             fmt(self_[0]), fmt(self_[1]), fmt(self_[2]), fmt(self_[3], p=1),
                             fmt(first[0]), fmt(first[3], p=1), fmt(row[3]), fmt(row[4]),
                             fmt(row[5], 5), "  (%d trace events lost)" % lost if lost else ""),
                  flush=True)
finally:
    trace.close()


def med(name, part, j):
    v = [row[part][j] for row in res[name]]
    v = [x for x in v if x == x]
    return statistics.median(v) if v else nan


print()
labels = ("p50", "p99", "max", "avg")
print("medians of the rounds (us); ruler: to the switch-in; user: to the return to user space;")
print("self - user: what the program's own report adds to the kernel's view of its jobs")
for name, _ in tools:
    print("%-15s ruler %s" % (name, "  ".join("%s %s" % (labels[j], fmt(med(name, 0, j), 1, 1))
                                                for j in range(4))))
    print("%-15s user  p50 %s  avg %s" % ("", fmt(med(name, 6, 0), 1, 1), fmt(med(name, 6, 3), 1, 1)))
    print("%-15s self  %s" % ("", "  ".join("%s %s" % (labels[j], fmt(med(name, 1, j), 1, 1))
                                             for j in range(4))))
    print("%-15s self - user: %s" % ("", "  ".join(
        "%s %s" % (labels[j], fmt(med(name, 1, j) - med(name, 6, j), 1, 1))
        for j in (0, 3) if med(name, 1, j) == med(name, 1, j))))
    print("%-15s timer p50 %s  switch p50 %s  phase gap %s" % (
        "", *(fmt(statistics.median(x[k] for x in res[name]), 1, 1) for k in (3, 4, 5))))
    print("%-15s timer on an idle CPU: %s %% of jobs, p50 %s; on a busy one: p50 %s" % (
        "", *(fmt(med(name, 7, j), 1, 1) for j in range(3))))
b = [med("cyclicdeadline", 0, j) for j in range(4)]
for name, _ in tools:
    v = [row[0][0] for row in res[name] if row[0][0] == row[0][0]]
    if v:
        print("%-15s p50 from round to round: %.1f to %.1f us (x%.2f)" % (
            name, min(v), max(v), max(v) / min(v) if min(v) else nan))
for name in ("rtready -A 0", "rtready"):
    a = [med(name, 0, j) for j in range(4)]
    ratio = [x / y if y else nan for x, y in zip(a, b)]
    print("ruler, %s / cyclicdeadline: " % name + "  ".join(
        "%s %.1f / %.1f (x%.2f)" % (labels[j], a[j], b[j], ratio[j]) for j in range(4)))
    ok50 = abs(a[0] - b[0]) <= 0.05 * b[0] or abs(a[0] - b[0]) <= 1
    okt = a[1] <= b[1] * 1.05 + 1 and a[2] <= b[2] * 1.05 + 1
    higher = sum(1 for x, y in zip(res[name], res["cyclicdeadline"]) if x[0][0] > y[0][0])
    # rtready -A 0 and cyclicdeadline run back to back in each round: their
    # ratio sees one state of the host, where the medians above mix rounds
    # (rtready on its own grids is one run away in half of the rounds).
    rr = [x[0][0] / y[0][0] for x, y in zip(res[name], res["cyclicdeadline"])
          if y[0][0] == y[0][0] and y[0][0] > 0 and x[0][0] == x[0][0]]
    if rr:
        print("  p50 ratio round by round: %s; their median x%.2f" % (
            " ".join("%.2f" % v for v in rr), statistics.median(rr)))
    if name == "rtready -A 0":
        # The p50 is judged on the paired ratio (each round's two runs saw
        # one state of the host; the p50 moves by x1.4 to x2.4 from round
        # to round here, which the ratio of the medians carries into the
        # comparison). Both are printed.
        pr = statistics.median(rr) if rr else nan
        okp = abs(pr - 1) <= 0.05
        print("goal (issue 29, on the ruler, periods aligned on both sides): p50 within 5%%, "
              "round by round (median x%.2f): %s (ratio of the medians x%.2f: %s); p99 and max "
              "no worse (5%% or 1 us slack): %s; rtready's p50 higher in %d of %d rounds" %
              (pr, "met" if okp else "NOT met", ratio[0], "within 5%" if ok50 else "not within 5%",
               "met" if okt else "NOT met", higher, rounds))
    else:
        print("(each rtready thread on its own grid, for reference: its p50 higher in %d of %d "
              "rounds)" % (higher, rounds))
PY
