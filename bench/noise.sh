#!/bin/bash
# SPDX-License-Identifier: MIT
# rtready noise against Debian's oslat (rt-tests), on the same CPU under
# the same injected noise (tests/progs/noise-inject: FIFO 98, 50 us every
# 10 ms), alternated ROUNDS times in one run so that the machine's
# background load hits both alike:
#   oslat          -c CPU -D D -f 80 -b 1024 -q --json=FILE
#   rtready noise  -a CPU -D D -p 80 -f json
# For every run: events (gaps of 5 us or more: oslat's histogram buckets
# from 5 us up, rtready's events), injected-size gaps (40 us or more), the
# largest gap, and the loop rate (clock reads a second: the sum of oslat's
# histogram over its duration, rtready's loops_per_s). Prints every run,
# the median per tool and the ratios rtready / oslat. Goal (issue 27): the
# loop rate within 5% of oslat's, event counts and max gap within this
# machine's noise.
#
#   bench/noise.sh [BUILD_DIR]      (default: build)
# Environment: DURATION (5, seconds), ROUNDS (3), CPU (the last one),
# TRACE (1; 0 runs rtready with --no-trace), OSLAT (oslat).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
rtready=$build/src/rtready
inject=$build/tests/progs/noise-inject
oslat=${OSLAT:-oslat}
duration=${DURATION:-5}
rounds=${ROUNDS:-3}
cpu=${CPU:-$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')}
trace=${TRACE:-1}
[ -x "$rtready" ] && [ -x "$inject" ] ||
	{ echo "no $rtready or $inject: build first (meson compile -C $build)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (SCHED_FIFO, tracefs)" >&2; exit 2; }
[ "$cpu" -gt 0 ] || { echo "needs two CPUs: CPU 0 stays to housekeeping" >&2; exit 2; }
if ! command -v "$oslat" >/dev/null; then
	echo "oslat is missing: installing Debian's rt-tests" >&2
	apt-get install -y rt-tests >/dev/null || { echo "cannot install rt-tests" >&2; exit 2; }
fi

exec python3 - "$rtready" "$inject" "$(command -v "$oslat")" "$duration" "$rounds" "$cpu" \
	"$trace" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time

rtready, inject, oslat, duration, rounds, cpu, trace = sys.argv[1:8]
duration, rounds = int(duration), int(rounds)
tmp = tempfile.mkdtemp()
THRESHOLD_US, INJECTED_US = 5, 40


def injected(tool_cmd):
    """Run tool_cmd with the injector running inside it; return the tool's stdout."""
    tool = subprocess.Popen(tool_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # both tools spin within this
    inj = subprocess.run([inject, cpu, "10000", "50", str(max(1, duration - 1) * 1000)],
                         stdout=subprocess.PIPE, text=True)
    out, err = tool.communicate()
    if tool.returncode != 0:
        sys.exit("%s exited %d: %s" % (tool_cmd[0], tool.returncode, err.strip()))
    n = int(inj.stdout.split("injections ")[1].split()[0])
    return out, n


def run_oslat():
    path = os.path.join(tmp, "oslat.json")
    injected([oslat, "-c", cpu, "-D", str(duration), "-f", "80", "-b", "1024", "-q",
              "--json=" + path])
    t = json.load(open(path))["thread"]
    t = t[next(iter(t))]
    hist = {int(k): v for k, v in t["histogram"].items()}
    # oslat's bucket k holds gaps of [k - 1, k) us.
    loops = sum(hist.values())
    return {"events": sum(v for k, v in hist.items() if k - 1 >= THRESHOLD_US),
            "injected": sum(v for k, v in hist.items() if k - 1 >= INJECTED_US),
            "max_us": float(t["max"]), "rate": loops / float(t["duration"])}


def run_rtready():
    cmd = [rtready, "noise", "-a", cpu, "-D", "%ds" % duration, "-p", "80", "-f", "json"]
    if trace == "0":
        cmd.append("--no-trace")
    out, _ = injected(cmd)
    c = json.loads(out)["cpus"][0]
    hist = {b: n for b, n in c["histogram"]["counts"]}
    return {"events": sum(n for b, n in hist.items() if b >= THRESHOLD_US),
            "injected": sum(n for b, n in hist.items() if b >= INJECTED_US),
            "max_us": c["max_ns"] / 1000.0, "rate": c["loops_per_s"],
            "causes": c["causes"]}


res = {"oslat": [], "rtready": []}
print("CPU %s, %d s per run, %d rounds, injection 50 us every 10 ms; rtready %s" %
      (cpu, duration, rounds, "with the trace" if trace != "0" else "--no-trace"))
print("%-8s %5s %8s %9s %10s %14s" % ("tool", "round", "events", "injected", "max us",
                                      "loops/s"))
for r in range(rounds):
    for name, fn in (("oslat", run_oslat), ("rtready", run_rtready)):
        x = fn()
        res[name].append(x)
        print("%-8s %5d %8d %9d %10.1f %14.0f" % (name, r + 1, x["events"], x["injected"],
                                                 x["max_us"], x["rate"]))
        if name == "rtready":
            top = ", ".join("%s %s %d" % (c["kind"], c["name"], c["count"])
                            for c in x["causes"][:4])
            print("         causes: %s" % top)


def med(name, key):
    return statistics.median(x[key] for x in res[name])


print("\nmedian   %14s %14s %8s" % ("oslat", "rtready", "ratio"))
for key in ("events", "injected", "max_us", "rate"):
    o, r = med("oslat", key), med("rtready", key)
    print("%-8s %14.1f %14.1f %8.3f" % (key, o, r, r / o if o else float("nan")))
rate = med("rtready", "rate") / med("oslat", "rate")
print("\nloop rate rtready/oslat: %.3f (goal >= 0.95)" % rate)
PY
