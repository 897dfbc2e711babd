#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A ruler outside the measuring programs for SCHED_DEADLINE job latency.

It traces the kernel (tracefs, an instance of its own, trace clock "mono",
which is CLOCK_MONOTONIC like the hrtimer base) while a program runs, and
takes for every job of every SCHED_DEADLINE thread of that program:

  period start  the expiry programmed for the thread's replenishment timer
                (hrtimer_start of dl_task_timer, from the thread itself
                when it yields or runs out of runtime: `expires`, in ns)
  timer fired   hrtimer_expire_entry of that timer (`now`, in ns)
  switched in   the next sched_switch to the thread (trace time, 1 us
                resolution in the text output)
  in user space the exit of the thread's sched_yield (sys_exit_sched_yield),
                the last the kernel sees before the job's first instruction

The job's latency is switched in - period start, the scheduler's part;
in user space - period start is what a program's job loop reads at its
first instruction if it knows the kernel's own period start (less the
clock read). The first is split into the timer's lateness (fired - period
start: the interrupt, on a VM the hypervisor) and the rest (switched in -
fired: the scheduler and the context switch). A job that the kernel began with no
timer (the thread yielded after its next period had already begun, so it
was replenished at once and did not leave the CPU) is counted from the
yield's return against the next period of its grid, or as not late when
the kernel began a new period there (that period's deadline had passed
too): the catching-up jobs after a stall.

Used by bench/deadline.sh; by itself:

    python3 bench/deadline_trace.py PERIOD_US DEADLINE_US [--] PROGRAM ARGS...

runs the program under the trace and prints the ruler's figures for its
DEADLINE threads.
"""
import os
import re
import subprocess
import sys
import time

TRACEFS = "/sys/kernel/tracing"
LINE = re.compile(r"^\s*(.*?)-(\d+)\s+\(\s*([-\d]+)\)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): "
                  r"(\w+)(?:: | -> )(.*)$")
FIELD = re.compile(r"(\w+)=(\S*)")
SWITCH_NEXT = re.compile(r"next_pid=(\d+)")


def _write(path, value):
    with open(path, "w") as f:
        f.write(value)


def _symbol(name):
    """The address of a kernel text symbol, for an exact event filter."""
    try:
        with open("/proc/kallsyms") as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[2] == name and int(p[0], 16):
                    return int(p[0], 16)
    except OSError:
        pass
    return None


class Trace:
    """One tracefs instance recording the events the ruler needs."""

    EVENTS = ("sched/sched_switch", "timer/hrtimer_start", "timer/hrtimer_expire_entry",
              "syscalls/sys_exit_sched_yield")

    def __init__(self, buffer_kb=32768):
        if not os.path.isdir(TRACEFS + "/instances"):
            raise RuntimeError("no %s/instances: mount tracefs (as root)" % TRACEFS)
        self.dir = "%s/instances/rtrbench-deadline-%d" % (TRACEFS, os.getpid())
        if not os.path.isdir(self.dir):
            os.mkdir(self.dir)
        _write(self.dir + "/tracing_on", "0")
        _write(self.dir + "/trace_clock", "mono")
        _write(self.dir + "/buffer_size_kb", str(buffer_kb))
        _write(self.dir + "/options/overwrite", "0")  # a full buffer drops, and says so
        _write(self.dir + "/options/record-tgid", "1")
        addr = _symbol("dl_task_timer")
        for ev in self.EVENTS:
            d = "%s/events/%s" % (self.dir, ev)
            if ev.startswith("timer/") and addr is not None:
                _write(d + "/filter", "function == 0x%x" % addr)
            _write(d + "/enable", "1")

    def start(self):
        _write(self.dir + "/trace", "")
        _write(self.dir + "/tracing_on", "1")

    def stop(self):
        """Stop recording; returns the text and the number of events lost."""
        _write(self.dir + "/tracing_on", "0")
        lost = 0
        for cpu in os.listdir(self.dir + "/per_cpu"):
            with open("%s/per_cpu/%s/stats" % (self.dir, cpu)) as f:
                for line in f:
                    k, _, v = line.partition(":")
                    if k.strip() in ("overrun", "dropped events"):
                        lost += int(v.split()[0])
        with open(self.dir + "/trace") as f:
            text = f.read()
        return text, lost

    def close(self):
        try:
            _write(self.dir + "/tracing_on", "0")
            for ev in self.EVENTS:
                _write("%s/events/%s/enable" % (self.dir, ev), "0")
            os.rmdir(self.dir)
        except OSError:
            pass


class Jobs:
    """The ruler's view of one program's DEADLINE threads."""

    def __init__(self):
        self.latency = []	# ns, switched in - period start, every timed job
        self.user = []		# ns, in user space - period start
        self.timer = []		# ns, fired - period start
        self.sched = []		# ns, switched in - fired
        self.timer_idle = []	# ns, fired - period start, the CPU idle when it fired
        self.timer_busy = []	# the same, the CPU running a task when it fired
        self.starts = {}	# tid -> [(period start, switched in)], in order
        self.threads = 0
        self.untimed = 0	# jobs begun with no timer (the kernel's period had begun)


def _events(text):
    """(time ns, pid, tgid, event, fields text, cpu) of each event line."""
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            yield (int(m.group(5)) * 1000000000 + int(m.group(6).ljust(9, "0")[:9]),
                   int(m.group(2)), m.group(3).strip(), m.group(7), m.group(8), int(m.group(4)))


def analyze(text, tgid, period_ns, deadline_ns):
    """Jobs of the SCHED_DEADLINE threads of process @tgid in a trace.

    A thread is one of them if the trace switches it in at the DEADLINE
    priority (-1) and it armed a dl_task_timer itself; its own timer is the
    one it arms most often (the per-CPU fair server's timer has the same
    function and may be armed from any thread's context).
    """
    jobs = Jobs()
    tgid = str(tgid)
    armed = {}		# tid -> {timer: count}
    dl = set()		# tids switched in at priority -1
    for ts, pid, tg, event, rest, _ in _events(text):
        if event == "hrtimer_start" and tg == tgid:
            f = dict(FIELD.findall(rest))
            if f.get("function") == "dl_task_timer":
                c = armed.setdefault(pid, {})
                c[f["hrtimer"]] = c.get(f["hrtimer"], 0) + 1
        elif event == "sched_switch" and "next_prio=-1" in rest:
            dl.add(int(SWITCH_NEXT.search(rest).group(1)))
    timer_of = {max(c, key=c.get): tid for tid, c in armed.items() if tid in dl}
    pending = {}	# tid -> [period start, fired or None]
    running = {}	# tid -> period start of the job switched in, until its yield returns
    last = {}		# tid -> period start of its latest job
    idle = {}		# cpu -> whether its latest switch was to the idle task
    for ts, pid, tg, event, rest, cpu in _events(text):
        if event == "hrtimer_start":
            # Armed by the thread, or re-armed from another context (the
            # timer of a throttled thread that moves to another CPU).
            f = dict(FIELD.findall(rest))
            tid = timer_of.get(f.get("hrtimer"))
            if tid is not None:
                pending[tid] = [int(f["expires"]), None]
        elif event == "hrtimer_expire_entry":
            f = dict(FIELD.findall(rest))
            tid = timer_of.get(f.get("hrtimer"))
            if tid in pending and pending[tid][1] is None:
                pending[tid][1] = int(f["now"])
                # A timer that wakes an idle CPU is later on a VM, whose
                # idle vCPU the host must first run again.
                (jobs.timer_idle if idle.get(cpu, True) else jobs.timer_busy).append(
                    pending[tid][1] - pending[tid][0])
        elif event == "sched_switch":
            nxt = int(SWITCH_NEXT.search(rest).group(1))
            idle[cpu] = nxt == 0
            if nxt in pending:
                start, fired = pending.pop(nxt)
                running[nxt] = start
                last[nxt] = start
                jobs.latency.append(ts - start)
                jobs.starts.setdefault(nxt, []).append((start, ts))
                if fired is not None:
                    jobs.timer.append(fired - start)
                    jobs.sched.append(ts - fired)
        elif event == "sys_sched_yield" and rest.startswith("0x") and pid in running:
            jobs.user.append(ts - running.pop(pid))
        elif (event == "sys_sched_yield" and rest.startswith("0x") and pid in last and
              pid not in pending):
            # A job with no timer: the thread yielded after its next period
            # had begun, and the kernel replenished it at once. Its period
            # is the next of the grid, or began at the yield when even that
            # one's deadline had passed (then it is not late).
            start = last[pid] + period_ns
            late = ts - start
            if late > deadline_ns:
                start, late = ts, 0
            last[pid] = start
            jobs.latency.append(late)
            jobs.user.append(late)
            jobs.untimed += 1
    jobs.threads = len(timer_of)
    return jobs


def quantile(values, q):
    """The lower value at rank ceil(q * n)."""
    v = sorted(values)
    if not v:
        return float("nan")
    return v[max(1, -(-int(q * len(v) * 1000000) // 1000000)) - 1]


def summary(values_ns):
    """p50, p99, max and mean in us."""
    if not values_ns:
        return (float("nan"),) * 4
    return (quantile(values_ns, 0.50) / 1000.0, quantile(values_ns, 0.99) / 1000.0,
            max(values_ns) / 1000.0, sum(values_ns) / len(values_ns) / 1000.0)


def first_start_grid(jobs, period_ns):
    """What a job loop reads that takes its grid's origin from its first job.

    The kernel's own periods (counted from the timer's expiries), but
    begun at the first job's switch-in and moved to any switch-in that comes
    before it: the origin of cyclicdeadline (and of rtready before it took
    the kernel's). Run over the ruler's switch-in times, it shows how much
    of a program's reading comes from where its grid begins.
    """
    out = []
    for seq in jobs.starts.values():
        origin = None
        for start, sw in seq:
            if origin is None:
                origin = sw - start	# the first job's lateness becomes the origin
            origin = min(origin, sw - start)
            out.append(sw - start - origin)
    return out


def run(cmd, trace, period_ns, deadline_ns):
    """Run @cmd under @trace; returns (stdout, stderr, returncode, jobs, lost)."""
    trace.start()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         errors="replace")
    out, err = p.communicate()
    text, lost = trace.stop()
    return out, err, p.returncode, analyze(text, p.pid, period_ns, deadline_ns), lost


def main(argv):
    if len(argv) < 3 or not argv[0].isdigit() or not argv[1].isdigit():
        sys.exit("usage: deadline_trace.py PERIOD_US DEADLINE_US [--] PROGRAM ARGS...")
    period_ns, deadline_ns = int(argv[0]) * 1000, int(argv[1]) * 1000
    argv = argv[2:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    trace = Trace()
    try:
        out, err, rc, jobs, lost = run(argv, trace, period_ns, deadline_ns)
    finally:
        trace.close()
    sys.stdout.write(out)
    sys.stderr.write(err)
    p50, p99, mx, avg = summary(jobs.latency)
    print("ruler: %d DEADLINE threads, %d jobs (%d with no timer), latency p50 %.0f us, p99 %.0f us, "
          "max %.0f us, avg %.1f us; in user space p50 %.0f us, avg %.1f us; timer p50 %.0f us, "
          "switch p50 %.0f us; %d events lost"
          % (jobs.threads, len(jobs.latency), jobs.untimed, p50, p99, mx, avg, summary(jobs.user)[0],
             summary(jobs.user)[3], summary(jobs.timer)[0], summary(jobs.sched)[0], lost))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
