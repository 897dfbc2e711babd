#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Writes a synthetic `rtready verify` result (verify.json, schema_version 2)
for a machine of any size, to test and time `rtready report` on big hosts
(tests/integration/test-report-scale.sh, bench/report-scale.sh).

The document has the shape verify writes: host, config, the check result,
an idle and a loaded latency result with one thread per measured CPU
(sparse 1 us histograms up to 10 ms, overflows with the largest values
kept exactly, percentiles read from the histogram as latency does) and the
judged verdict. The latencies are drawn from a fixed seed, so a size always
gives the same file:

- housekeeping CPUs (outside --rt-cpus) are noisier than the RT CPUs;
- under load every CPU is slower and has a longer tail;
- a few RT CPUs are outliers: one with a 30 ms spike past the histogram
  (kept exactly), one with overflows of which only some were kept, one
  with a tail to a few hundred us, one that took no sample under load
  (a CPU that never ran its thread);
- --max-latency judges every CPU and phase, as verify does.

    tools/gen-verify.py --cpus 256 -o verify-256.json
    tools/gen-verify.py --cpus 16 --rt-cpus 2-7,10-15 --samples 60000
"""
import argparse
import json
import math
import random
import sys

BUCKET_NS = 1000
RANGE_NS = 10_000_000
NBUCKETS = RANGE_NS // BUCKET_NS
MAX_OUTLIERS = 100
VERSION = "0.1.0"


def parse_cpulist(text, ncpus):
    cpus = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        lo, hi = int(a), int(b or a)
        if not 0 <= lo <= hi < ncpus:
            raise ValueError("CPU list %r is outside 0-%d" % (text, ncpus - 1))
        cpus.update(range(lo, hi + 1))
    return cpus


def cpulist(cpus):
    out, cpus = [], sorted(cpus)
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def default_rt(ncpus):
    """Housekeeping: CPUs 0-1 and their SMT siblings in the upper half."""
    if ncpus < 4:
        return set()
    half = ncpus // 2
    house = {0, 1, half, half + 1}
    return set(range(ncpus)) - house


def poisson(rng, lam):
    if lam <= 0:
        return 0
    if lam > 30:
        return max(0, int(round(rng.gauss(lam, math.sqrt(lam)))))
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def thread(rng, cpu, samples, base_us, spread, tail_frac, tail_us, spikes=(), lost=0):
    """
    One measuring thread: a log-normal body around base_us, an exponential
    tail of tail_frac of the samples, and @spikes (ns) past the histogram.
    @lost of the spikes' neighbours overflow without being kept exactly.
    """
    counts = {}
    body = samples - int(samples * tail_frac)
    # The body: expected counts per bucket of a log-normal, with Poisson noise.
    mu, sigma = math.log(base_us), spread
    for b in range(max(0, int(base_us * math.exp(-4 * sigma))),
                   min(NBUCKETS, int(base_us * math.exp(5 * sigma)) + 2)):
        lo, hi = max(b, 1e-3), b + 1
        p = 0.5 * (math.erf((math.log(hi) - mu) / (sigma * math.sqrt(2))) -
                   math.erf((math.log(lo) - mu) / (sigma * math.sqrt(2))))
        c = poisson(rng, body * p)
        if c:
            counts[b] = counts.get(b, 0) + c
    # The tail: individual samples.
    for _ in range(samples - body):
        v = base_us + rng.expovariate(1 / tail_us)
        b = min(NBUCKETS - 1, int(v))
        counts[b] = counts.get(b, 0) + 1
    kept = sorted(spikes, reverse=True)[:MAX_OUTLIERS]
    overflows = len(spikes) + lost
    n = sum(counts.values()) + overflows
    last = max(counts) if counts else 0
    maxv = kept[0] if kept else (last * BUCKET_NS + rng.randrange(BUCKET_NS))
    minv = min(counts) * BUCKET_NS + rng.randrange(BUCKET_NS) if counts else maxv

    def pct(q):
        want, seen = q * n, 0
        for b in sorted(counts):
            seen += counts[b]
            if seen >= want:
                return (b + 1) * BUCKET_NS - 1
        return RANGE_NS
    total = sum(b * c for b, c in counts.items()) * BUCKET_NS + sum(kept) + \
        lost * RANGE_NS + n * BUCKET_NS // 2
    return {"cpu": cpu, "tid": 20000 + cpu, "samples": n, "min_ns": minv,
            "avg_ns": total // max(n, 1), "max_ns": maxv, "p50_ns": pct(0.5),
            "p99_ns": pct(0.99), "p999_ns": pct(0.999), "overflows": overflows, "missed": 0,
            "outliers": kept,
            "histogram": {"bucket_ns": BUCKET_NS, "range_ns": RANGE_NS,
                          "counts": [[b, counts[b]] for b in sorted(counts)]}}


def no_samples(cpu):
    return {"cpu": cpu, "tid": 20000 + cpu, "samples": 0, "min_ns": 0, "avg_ns": 0,
            "max_ns": 0, "p50_ns": 0, "p99_ns": 0, "p999_ns": 0, "overflows": 0, "missed": 0,
            "outliers": [], "histogram": {"bucket_ns": BUCKET_NS, "range_ns": RANGE_NS,
                                          "counts": []}}


def summary(threads):
    live = [t for t in threads if t["samples"]]
    if not live:
        live = threads
    n = sum(t["samples"] for t in threads)
    return {"cpus": len(threads), "samples": n,
            "min_ns": min(t["min_ns"] for t in live),
            "avg_ns": sum(t["avg_ns"] * t["samples"] for t in live) // max(n, 1),
            "max_ns": max(t["max_ns"] for t in live),
            "p50_ns": sorted(t["p50_ns"] for t in live)[len(live) // 2],
            "p99_ns": max(t["p99_ns"] for t in live),
            "p999_ns": max(t["p999_ns"] for t in live),
            "overflows": sum(t["overflows"] for t in threads), "missed": 0, "outliers": []}


def outliers_of(ncpus, rt):
    """Which CPUs misbehave, and how: spread over the machine, all RT CPUs when known."""
    pool = sorted(rt) or list(range(ncpus))
    pick = [pool[len(pool) * k // 5] for k in (1, 2, 3, 4)] if len(pool) >= 8 else pool[:1]
    roles = ["spike", "lost", "tail", "silent"]
    return dict(zip(pick, roles)) if len(pool) >= 8 else {pool[0]: "tail"}


def latency(rng, host, ncpus, rt, loaded, samples, odd, duration_ns):
    threads = []
    for cpu in range(ncpus):
        house = bool(rt) and cpu not in rt
        base = (3.0 if not loaded else 5.5) * (1.8 if house else 1.0) * rng.uniform(0.9, 1.15)
        tail = (4 if not loaded else 8) * (3 if house else 1)
        role = odd.get(cpu)
        if role == "silent" and loaded:
            threads.append(no_samples(cpu))
            continue
        spikes, lost, frac = (), 0, 0.002 if not loaded else 0.005
        if role == "spike" and loaded:
            spikes = (30_000_000, 12_400_000)
        elif role == "lost" and loaded:
            spikes = tuple(10_500_000 + 37_000 * k for k in range(MAX_OUTLIERS))
            lost = 25
        elif role == "tail":
            tail, frac = tail * 10, frac * 3
        threads.append(thread(rng, cpu, samples, base, 0.22 if not house else 0.35, frac, tail,
                              spikes, lost))
    cfg = {"cpus": cpulist(range(ncpus)), "policy": "FIFO", "priority": 80,
           "interval_ns": 1_000_000, "duration_ns": duration_ns, "bucket_ns": BUCKET_NS,
           "hist_max_ns": RANGE_NS, "threshold_ns": None, "loops": None, "mlock": True,
           "clock": "CLOCK_MONOTONIC", "load": "all" if loaded else None}
    doc = {"tool": "rtready", "version": VERSION, "command": "latency", "schema_version": 2,
           "host": host, "config": cfg,
           "dma_latency": {"present": True, "current_us": 2000000000, "held": False,
                           "held_us": None,
                           "state": "no request (idle states unrestricted); left alone"}}
    if loaded:
        doc["load"] = {"kind": "all", "policy": "OTHER", "runs": 10, "messages": 4_000_000,
                       "cpu_loops": 120_000, "memory_cycles": 800, "error": None}
    doc.update(threads=threads, summary=summary(threads),
               stop={"reason": "duration", "elapsed_ns": duration_ns})
    return doc


CHECKS = [
    ("kernel.preempt", "kernel", "Kernel preemption model", "pass",
     "/sys/kernel/realtime = 1: PREEMPT_RT"),
    ("kernel.high_res_timers", "kernel", "High-resolution timers", "pass",
     "CONFIG_HIGH_RES_TIMERS=y, clockevent lapic-deadline"),
    ("kernel.nohz", "kernel", "Tickless RT CPUs", "warn",
     "nohz_full is not set: the tick interrupts every RT CPU 1000 times a second"),
    ("kernel.threadirqs", "kernel", "Threaded interrupts", "pass", "forced by PREEMPT_RT"),
    ("kernel.log", "kernel", "Realtime failures in the kernel log", "pass",
     "no realtime failure among 4096 records"),
    ("sched.rt_throttling", "sched", "RT throttling", "pass", "sched_rt_runtime_us = -1"),
    ("sched.prio99", "sched", "Threads at priority 99", "pass", "no thread runs at 99"),
    ("cpu.isolation", "cpu", "RT CPU isolation", "info", "isolcpus={rt} rcu_nocbs={rt}"),
    ("cpu.governor", "cpu", "CPU frequency governor", "pass", "performance on {rt}"),
    ("cpu.idle", "cpu", "Deep idle states", "warn",
     "C6 (133 us exit latency) is enabled on {rt}"),
    ("cpu.smt", "cpu", "SMT siblings of RT CPUs", "info", "SMT is on"),
    ("cpu.timer_migration", "cpu", "Timer migration", "pass", "timer_migration = 0"),
    ("cpu.workqueue", "cpu", "Unbound workqueues", "pass", "cpumask {house}"),
    ("cpu.tasks_on_rt_cpus", "cpu", "Other tasks on RT CPUs", "fail",
     "12 threads of 3 processes may run on {rt} (irqbalance, chronyd, rsyslogd)"),
    ("irq.affinity", "irq", "IRQs on RT CPUs", "pass", "no IRQ may run on {rt}"),
    ("irq.balance", "irq", "irqbalance", "warn", "irqbalance.service is running"),
    ("irq.default_affinity", "irq", "Default IRQ affinity", "pass", "{house}"),
    ("mem.swap", "mem", "Swap", "pass", "no swap area is active"),
    ("mem.thp", "mem", "Transparent huge pages", "pass", "never"),
    ("mem.ksm", "mem", "Kernel same-page merging", "pass", "run = 0"),
    ("mem.numa_balancing", "mem", "NUMA balancing", "pass", "numa_balancing = 0"),
    ("limits.rtprio", "limits", "RLIMIT_RTPRIO", "pass", "unlimited (root)"),
    ("limits.memlock", "limits", "RLIMIT_MEMLOCK", "pass", "unlimited (root)"),
    ("clock.source", "clock", "Clock source", "pass", "tsc"),
    ("sys.virtualized", "sys", "Virtual machine", "pass", "bare metal"),
    ("sys.tuned", "sys", "tuned profile", "info", "tuned is not installed"),
]


def check_result(host, rt, house):
    checks = []
    for cid, area, title, status, evidence in CHECKS:
        checks.append({"id": cid, "area": area, "status": status, "title": title,
                       "evidence": evidence.format(rt=cpulist(rt) or "none",
                                                   house=cpulist(house) or "none"),
                       "why": "" if status == "pass" else
                       "Generated for the report's tests: what a real check would say.",
                       "fix": "" if status in ("pass", "info") else
                       "See docs/checks/%s.md." % cid})
    s = {k: 0 for k in ("pass", "warn", "fail", "info", "skip")}
    for c in checks:
        s[c["status"]] += 1
    return {"tool": "rtready", "version": VERSION, "command": "check", "schema_version": 2,
            "host": host, "checks": checks, "summary": s}


def verdict(check, idle, load, limit_us):
    ths = []
    for ph, lat in (("idle", idle), ("load", load)):
        for t in lat["threads"]:
            st = "skip" if not t["samples"] else \
                "fail" if t["max_ns"] > limit_us * 1000 else "pass"
            ths.append({"name": "latency.%s.cpu%d.max" % (ph, t["cpu"]), "phase": ph,
                        "cpu": t["cpu"], "limit_ns": limit_us * 1000.0,
                        "value_ns": float(t["max_ns"]), "status": st})
    failed = [c["id"] for c in check["checks"] if c["status"] == "fail"]
    over = [t for t in ths if t["status"] == "fail"]
    parts = []
    if failed:
        parts.append("%d check%s failed (%s)" % (len(failed), "s" * (len(failed) > 1),
                                                  ", ".join(failed)))
    if over:
        w = max(over, key=lambda t: t["value_ns"])
        parts.append("%d CPU run%s over the %g us limit, worst %s max %.1f us on CPU %d"
                     % (len(over), "s" * (len(over) > 1), limit_us,
                        "loaded" if w["phase"] == "load" else "idle", w["value_ns"] / 1000,
                        w["cpu"]))
    status = "fail" if parts else "pass"
    return {"status": status, "reason": "; ".join(parts) or "no check failed",
            "max_latency_us": limit_us, "thresholds": ths}


def main(argv):
    ap = argparse.ArgumentParser(description="Write a synthetic rtready verify result.")
    ap.add_argument("--cpus", type=int, required=True, help="online CPUs, all measured (1..8192)")
    ap.add_argument("--rt-cpus", help="the RT CPUs (default: all but 0-1 and their siblings; "
                                      "'' for none known)")
    ap.add_argument("--samples", type=int, default=600_000,
                    help="wake-ups per CPU and phase (default 600000: 10 min at 1 ms)")
    ap.add_argument("--max-latency", type=float, default=100.0, help="limit in us (default 100)")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args(argv)
    if not 1 <= a.cpus <= 8192:
        ap.error("--cpus must be 1..8192")
    if not 1 <= a.samples <= 100_000_000:
        ap.error("--samples must be 1..100000000")
    try:
        rt = parse_cpulist(a.rt_cpus, a.cpus) if a.rt_cpus is not None else default_rt(a.cpus)
    except ValueError as e:
        ap.error(str(e))
    house = set(range(a.cpus)) - rt if rt else set()
    rng = random.Random(a.seed * 100003 + a.cpus)
    host = {"kernel": "6.12.0-rt5", "cpus_online": cpulist(range(a.cpus)),
            "rt_cpus": cpulist(rt), "root": "/", "hostname": "synthetic-%d" % a.cpus}
    odd = outliers_of(a.cpus, rt)
    duration = a.samples * 1_000_000
    idle = latency(rng, host, a.cpus, rt, False, a.samples, odd, duration)
    load = latency(rng, host, a.cpus, rt, True, a.samples, odd, duration)
    check = check_result(host, rt, house)
    doc = {"tool": "rtready", "version": VERSION, "command": "verify", "schema_version": 2,
           "host": host,
           "config": {"duration_ns": duration, "interval_ns": 1_000_000,
                      "measured_cpus": cpulist(range(a.cpus)), "load": "all",
                      "load_cpus": cpulist(range(a.cpus)), "max_latency_us": a.max_latency},
           "check": check, "latency_idle": idle, "latency_load": load,
           "verdict": verdict(check, idle, load, a.max_latency)}
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
