#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write machine trees for `rtready check --root` (python3 standard library only).

A tree stands for one machine's /proc, /sys, /etc, /boot and /lib/modules,
holding exactly the files the probes in src/probe/ read, in the formats the
kernel writes them (cpu lists, "%*pb" hex masks in 32-bit groups, the
/proc/PID/stat field order, /proc/interrupts column layout, bracketed sysfs
choices). The trees are built from a small model of the machine, so every
file agrees with every other (a task's CPUs are online CPUs, an IRQ row in
/proc/interrupts has a /proc/irq/N directory, ...). Output depends only on
the arguments: no clock, no randomness, no host state, so the committed
fixtures can be regenerated and compared byte for byte.

    gen-fixtures.py fixtures [DIR]   rt-good and rt-bad under DIR (tests/fixtures)
    gen-fixtures.py tree NAME DEST   one of rt-good, rt-bad into DEST
    gen-fixtures.py scale DEST --cpus N --irqs N --threads N
                                     a large tuned machine, for bench/check-scale.sh

rt-good is a well-tuned isolated PREEMPT_RT machine (no check may warn);
rt-bad is a badly tuned one on which every check that can fire does
(audit it with --rt-cpus 2-3,8). expected.json next to each tree is the
golden result and is written by hand, not by this script.
"""

import argparse
import os
import shutil
import sys

# Top-level entries this script owns inside a tree directory (it removes
# and rewrites them); anything else there (expected.json) is left alone.
OWNED = ("proc", "sys", "etc", "boot", "lib", "dev", "README.md")
KEEP = ("expected.json",)

HZ_TICKS = 100  # USER_HZ: start times and CPU times in /proc are in these

PF_KTHREAD = 0x00200000
PF_NO_SETAFFINITY = 0x04000000
PF_USER = 0x00400100  # PF_RANDOMIZE | PF_SUPERPRIV: what a normal task shows
PF_KTHREAD_TYPICAL = 0x00208040  # PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC

OTHER, FIFO, RR, DEADLINE = 0, 1, 2, 6


# ---- cpu lists and masks, as the kernel prints them ---------------------

def cpulist(cpus):
    """{0,1,2,4} -> "0-2,4" (the kernel's "%*pbl")."""
    out, run = [], []
    for c in sorted(cpus):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
        run = [c]
    if run:
        out.append(str(run[0]) if len(run) == 1 else "%d-%d" % (run[0], run[-1]))
    return ",".join(out)


def cpumask(cpus, nbits):
    """The kernel's "%*pb": 32-bit groups, most significant first, comma-separated;
    the first group only as wide as the bits it holds, the others 8 digits."""
    value = 0
    for c in cpus:
        value |= 1 << c
    groups = []
    first = nbits % 32 or 32
    pos = ((nbits + 31) // 32 - 1) * 32
    width = (first + 3) // 4
    while pos >= 0:
        groups.append("%0*x" % (width, (value >> pos) & 0xFFFFFFFF))
        pos -= 32
        width = 8
    return ",".join(groups)


def span(a, b):
    return set(range(a, b + 1))


# ---- the model -----------------------------------------------------------

class Task:
    """One thread as /proc/PID/task/TID/{stat,status} show it."""

    def __init__(self, pid, tid, comm, ppid, allowed, policy=OTHER, prio=0, nice=0,
                 kthread=False, per_cpu=False, cpu=None, threads=1, vm_kb=0, lck_kb=0):
        self.pid, self.tid, self.comm, self.ppid = pid, tid, comm, ppid
        self.allowed = set(allowed)
        self.policy, self.prio, self.nice = policy, prio, nice
        self.kthread, self.per_cpu = kthread, per_cpu
        self.cpu = min(self.allowed) if cpu is None else cpu
        self.threads = threads
        self.vm_kb, self.lck_kb = vm_kb, lck_kb

    def flags(self):
        if not self.kthread:
            return PF_USER
        return PF_KTHREAD_TYPICAL | (PF_NO_SETAFFINITY if self.per_cpu else 0)

    def priority(self):
        # Field 18: -1 - rt_priority for FIFO/RR, -101 for DEADLINE, 20 + nice otherwise.
        if self.policy in (FIFO, RR):
            return -1 - self.prio
        if self.policy == DEADLINE:
            return -101
        return 20 + self.nice

    def stat(self):
        t = self.tid
        minflt = 0 if self.kthread else 100 + (t * 37) % 5000
        utime = 0 if self.kthread else (t * 13) % 400
        stime = (t * 7) % 300
        start = 20 + t // 4
        vsize = 0 if self.kthread else self.vm_kb * 1024
        rss = 0 if self.kthread else (self.vm_kb // 8) // 4
        rsslim = 18446744073709551615
        fields = [
            str(t), "(%s)" % self.comm, "S", str(self.ppid), str(self.pid), str(self.pid),
            "0", "-1", str(self.flags()), str(minflt), "0", "0", "0", str(utime), str(stime),
            "0", "0", str(self.priority()), str(self.nice), str(self.threads), "0",
            str(start), str(vsize), str(rss), str(rsslim),
            "1" if not self.kthread else "0", "1" if not self.kthread else "0",
            "0", "0", "0", "0", "0", "0" if not self.kthread else "2147483647", "0", "0",
            "0", "0", "17", str(self.cpu), str(self.prio), str(self.policy),
            "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
        ]
        return " ".join(fields) + "\n"

    def status(self, nbits, cap_eff):
        t = self.tid
        lines = [
            "Name:\t%s" % self.comm,
            "Umask:\t%s" % ("0000" if self.kthread else "0022"),
            "State:\tS (sleeping)",
            "Tgid:\t%d" % self.pid, "Ngid:\t0", "Pid:\t%d" % t, "PPid:\t%d" % self.ppid,
            "TracerPid:\t0",
            "Uid:\t0\t0\t0\t0" if self.kthread else "Uid:\t1000\t1000\t1000\t1000",
            "Gid:\t0\t0\t0\t0" if self.kthread else "Gid:\t1000\t1000\t1000\t1000",
            "FDSize:\t64", "Groups:\t" if self.kthread else "Groups:\t27 1000 ",
            "NStgid:\t%d" % self.pid, "NSpid:\t%d" % t, "NSpgid:\t%d" % self.pid,
            "NSsid:\t%d" % self.pid, "Kthread:\t%d" % (1 if self.kthread else 0),
        ]
        if not self.kthread:
            rss = self.vm_kb // 8
            lines += [
                "VmPeak:\t%8d kB" % (self.vm_kb + 1024), "VmSize:\t%8d kB" % self.vm_kb,
                "VmLck:\t%8d kB" % self.lck_kb, "VmPin:\t%8d kB" % 0,
                "VmHWM:\t%8d kB" % rss, "VmRSS:\t%8d kB" % rss,
                "RssAnon:\t%8d kB" % (rss // 2), "RssFile:\t%8d kB" % (rss - rss // 2),
                "RssShmem:\t%8d kB" % 0, "VmData:\t%8d kB" % (self.vm_kb // 4),
                "VmStk:\t%8d kB" % 132, "VmExe:\t%8d kB" % 64, "VmLib:\t%8d kB" % 4096,
                "VmPTE:\t%8d kB" % 60, "VmSwap:\t%8d kB" % 0, "HugetlbPages:\t%8d kB" % 0,
                "CoreDumping:\t0", "THP_enabled:\t1", "untag_mask:\t0xffffffffffffffff",
            ]
        lines += [
            "Threads:\t%d" % self.threads, "SigQ:\t0/63432",
            "SigPnd:\t0000000000000000", "ShdPnd:\t0000000000000000",
            "SigBlk:\t0000000000000000",
            "SigIgn:\t%s" % ("ffffffffffffffff" if self.kthread else "0000000000001000"),
            "SigCgt:\t%s" % ("0000000000000000" if self.kthread else "0000000180004a02"),
            "CapInh:\t0000000000000000",
            "CapPrm:\t%s" % ("000001ffffffffff" if self.kthread else cap_eff),
            "CapEff:\t%s" % ("000001ffffffffff" if self.kthread else cap_eff),
            "CapBnd:\t000001ffffffffff", "CapAmb:\t0000000000000000",
            "NoNewPrivs:\t0", "Seccomp:\t0", "Seccomp_filters:\t0",
            "Speculation_Store_Bypass:\tthread vulnerable",
            "SpeculationIndirectBranch:\tconditional enabled",
            "Cpus_allowed:\t%s" % cpumask(self.allowed, nbits),
            "Cpus_allowed_list:\t%s" % cpulist(self.allowed),
            "Mems_allowed:\t" + ",".join(["00000000"] * 31 + ["00000001"]),
            "Mems_allowed_list:\t0",
            "voluntary_ctxt_switches:\t%d" % (10 + (t * 31) % 90000),
            "nonvoluntary_ctxt_switches:\t%d" % ((t * 3) % 200),
        ]
        return "\n".join(lines) + "\n"


class Irq:
    def __init__(self, num, chip, hwirq, trigger, name, affinity, effective):
        self.num, self.chip, self.hwirq, self.trigger, self.name = \
            num, chip, hwirq, trigger, name
        self.affinity, self.effective = set(affinity), set(effective)


class Machine:
    """Everything a tree says, before it is written as files."""

    def __init__(self):
        self.files = {}          # path (absolute, as on the target) -> text
        self.possible = set()
        self.present = set()
        self.online = set()
        self.tasks = []
        self.irqs = []
        self.cap_eff = "0000000000000000"

    def put(self, path, text):
        assert path.startswith("/") and path not in self.files, path
        self.files[path] = text

    def line(self, path, value):
        self.put(path, "%s\n" % value)

    @property
    def nbits(self):
        return max(self.possible) + 1


# ---- pieces shared by the profiles ---------------------------------------

def put_cpus(m, isolated, nohz_full):
    base = "/sys/devices/system/cpu"
    m.line(base + "/possible", cpulist(m.possible))
    m.line(base + "/present", cpulist(m.present))
    m.line(base + "/online", cpulist(m.online))
    m.line(base + "/isolated", cpulist(isolated))
    m.line(base + "/nohz_full", nohz_full)


def put_topology(m, siblings, l2_of, llc):
    """siblings(cpu) and l2_of(cpu) give the CPUs sharing a core and an L2."""
    base = "/sys/devices/system/cpu"
    caches = [(1, "Data", siblings), (1, "Instruction", siblings), (2, "Unified", l2_of),
              (3, "Unified", lambda c: llc)]
    for c in sorted(m.online):
        m.line("%s/cpu%d/topology/thread_siblings_list" % (base, c), cpulist(siblings(c)))
        for i, (level, kind, shared) in enumerate(caches):
            d = "%s/cpu%d/cache/index%d" % (base, c, i)
            m.line(d + "/level", level)
            m.line(d + "/type", kind)
            m.line(d + "/shared_cpu_list", cpulist(shared(c)))


def put_cpufreq(m, governor, driver):
    for c in sorted(m.online):
        d = "/sys/devices/system/cpu/cpu%d/cpufreq" % c
        m.line(d + "/scaling_governor", governor)
        m.line(d + "/scaling_driver", driver)


# intel_idle on a recent Xeon: name, exit latency in us.
IDLE_STATES = [("POLL", 0), ("C1", 1), ("C1E", 4), ("C6", 170)]


def put_cpuidle(m, disabled_deep_on):
    """disabled_deep_on: CPUs whose states above 20 us are disabled."""
    m.line("/sys/devices/system/cpu/cpuidle/current_driver", "intel_idle")
    for c in sorted(m.online):
        for i, (name, lat) in enumerate(IDLE_STATES):
            d = "/sys/devices/system/cpu/cpu%d/cpuidle/state%d" % (c, i)
            m.line(d + "/name", name)
            m.line(d + "/latency", lat)
            m.line(d + "/disable", 1 if c in disabled_deep_on and lat > 20 else 0)


def put_cpuinfo(m, hypervisor, model):
    flags = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 "
             "clflush dts acpi mmx fxsr sse sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm "
             "constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc "
             "cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx est "
             "tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid sse4_1 sse4_2 x2apic movbe popcnt "
             "tsc_deadline_timer aes xsave avx f16c rdrand%s lahf_lm abm 3dnowprefetch "
             "cpuid_fault epb invpcid_single ssbd ibrs ibpb stibp fsgsbase tsc_adjust bmi1 "
             "avx2 smep bmi2 erms invpcid mpx rdseed adx smap clflushopt intel_pt xsaveopt "
             "xsavec xgetbv1 xsaves dtherm ida arat pln pts hwp hwp_notify hwp_act_window "
             "hwp_epp md_clear flush_l1d arch_capabilities") % (" hypervisor" if hypervisor
                                                              else "")
    blocks = []
    n = len(m.online)
    for c in sorted(m.online):
        blocks.append("\n".join([
            "processor\t: %d" % c, "vendor_id\t: GenuineIntel", "cpu family\t: 6",
            "model\t\t: 85", "model name\t: %s" % model, "stepping\t: 7",
            "microcode\t: 0x5003604", "cpu MHz\t\t: 3000.000", "cache size\t: 16384 KB",
            "physical id\t: 0", "siblings\t: %d" % n, "core id\t\t: %d" % c,
            "cpu cores\t: %d" % n, "apicid\t\t: %d" % (2 * c), "initial apicid\t: %d" % (2 * c),
            "fpu\t\t: yes", "fpu_exception\t: yes", "cpuid level\t: 22", "wp\t\t: yes",
            "flags\t\t: " + flags,
            "bugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs taa itlb_multihit "
            "mmio_stale_data retbleed gds bhi",
            "bogomips\t: 6000.00", "clflush size\t: 64", "cache_alignment\t: 64",
            "address sizes\t: 46 bits physical, 48 bits virtual", "power management:", ""]))
    m.put("/proc/cpuinfo", "\n".join(blocks) + "\n")


def put_irqs(m, default_affinity):
    """/proc/irq/N/*_list, default_smp_affinity and /proc/interrupts (online CPUs)."""
    m.line("/proc/irq/default_smp_affinity", cpumask(default_affinity, m.nbits))
    for q in m.irqs:
        m.line("/proc/irq/%d/smp_affinity_list" % q.num, cpulist(q.affinity))
        m.line("/proc/irq/%d/effective_affinity_list" % q.num, cpulist(q.effective))
    online = sorted(m.online)
    prec, j = 3, 1000
    nr_irqs = max(q.num for q in m.irqs) + 1
    while prec < 10 and j <= nr_irqs:
        prec += 1
        j *= 10
    out = [" " * (prec + 8) + "".join("CPU%-8d" % c for c in online)]
    for q in m.irqs:
        counts = "".join(" %10d" % ((q.num * 7919 + c * 104729) % 900000 + 1
                                    if c in q.effective else 0) for c in online)
        out.append("%*d:%s %8s %*s-%-8s  %s" % (prec, q.num, counts, q.chip, prec, q.hwirq,
                                               q.trigger, q.name))
    for name, desc in (("NMI", "Non-maskable interrupts"), ("LOC", "Local timer interrupts"),
                       ("RES", "Rescheduling interrupts"),
                       ("CAL", "Function call interrupts")):
        counts = "".join(" %10d" % ((len(name) * 1000 + c * 37) % 5000) for c in online)
        out.append("%*s:%s   %s" % (prec, name, counts, desc))
    out.append("%*s: %10d" % (prec, "ERR", 0))
    out.append("%*s: %10d" % (prec, "MIS", 0))
    m.put("/proc/interrupts", "\n".join(out) + "\n")


def put_sched_debug(m, release, cpus, bw, total_bw):
    """The scheduler's debug file (debugfs, 5.13+) with the per-CPU sections
    rtready reads: dl_rq[N] with the root domain's limit per CPU (dl_bw->bw)
    and what is allocated in it (dl_bw->total_bw), in units of 1 << 20."""
    out = ["Sched Debug Version: v0.11, %s #1" % release,
           "ktime                                   : 96012001.123456",
           "sysctl_sched", "  .sysctl_sched_base_slice                 : 3.000000", ""]
    for c in sorted(cpus):
        out += ["cpu#%d, 2900.000 MHz" % c,
                "  .nr_running                    : 1", "",
                "rt_rq[%d]:" % c,
                "  .rt_nr_running                 : 0",
                "  .rt_runtime                    : 950.000000", "",
                "dl_rq[%d]:" % c,
                "  .dl_nr_running                 : 0",
                "  .%-30s: %d" % ("dl_bw->bw", bw),
                "  .%-30s: %d" % ("dl_bw->total_bw", total_bw), "",
                "runnable tasks:",
                " S            task   PID       tree-key  switches  prio     wait-time", ""]
    m.put("/sys/kernel/debug/sched/debug", "\n".join(out) + "\n")


def put_tasks(m):
    for t in m.tasks:
        d = "/proc/%d/task/%d" % (t.pid, t.tid)
        m.put(d + "/stat", t.stat())
        m.put(d + "/status", t.status(m.nbits, m.cap_eff))


def put_limits(m, rtprio, memlock):
    rows = [
        ("Max cpu time", "unlimited", "unlimited", "seconds"),
        ("Max file size", "unlimited", "unlimited", "bytes"),
        ("Max data size", "unlimited", "unlimited", "bytes"),
        ("Max stack size", "8388608", "unlimited", "bytes"),
        ("Max core file size", "0", "unlimited", "bytes"),
        ("Max resident set", "unlimited", "unlimited", "bytes"),
        ("Max processes", "63432", "63432", "processes"),
        ("Max open files", "1024", "524288", "files"),
        ("Max locked memory", memlock, memlock, "bytes"),
        ("Max address space", "unlimited", "unlimited", "bytes"),
        ("Max file locks", "unlimited", "unlimited", "locks"),
        ("Max pending signals", "63432", "63432", "signals"),
        ("Max msgqueue size", "819200", "819200", "bytes"),
        ("Max nice priority", "0", "0", ""),
        ("Max realtime priority", rtprio, rtprio, ""),
        ("Max realtime timeout", "unlimited", "unlimited", "us"),
    ]
    text = "%-25s %-20s %-20s %-10s\n" % ("Limit", "Soft Limit", "Hard Limit", "Units")
    text += "".join("%-25s %-20s %-20s %-10s\n" % r for r in rows)
    m.put("/proc/self/limits", text)
    # The invoking process (rtready itself): only CapEff matters to the checks.
    me = Task(4242, 4242, "rtready", 900, m.online, vm_kb=9000)
    m.put("/proc/self/status", me.status(m.nbits, m.cap_eff))


def put_dmi(m, vendor, product):
    m.line("/sys/class/dmi/id/sys_vendor", vendor)
    m.line("/sys/class/dmi/id/product_name", product)


SWAPS_HEADER = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

CONFIG_HEAD = """#
# Automatically generated file; DO NOT EDIT.
# Linux/x86 6.12.43 Kernel Configuration
#
CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0"
CONFIG_CC_IS_GCC=y
CONFIG_64BIT=y
CONFIG_X86_64=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8192
CONFIG_CPUMASK_OFFSTACK=y
CONFIG_IKCONFIG=m
CONFIG_GENERIC_IRQ_SHOW=y
CONFIG_IRQ_FORCED_THREADING=y
CONFIG_GENERIC_CLOCKEVENTS=y
CONFIG_TICK_ONESHOT=y
CONFIG_NO_HZ_COMMON=y
# CONFIG_HZ_PERIODIC is not set
# CONFIG_NO_HZ_IDLE is not set
CONFIG_NO_HZ_FULL=y
CONFIG_CONTEXT_TRACKING_USER=y
CONFIG_NO_HZ=y
CONFIG_HZ_250=y
CONFIG_HZ=250
CONFIG_CPU_ISOLATION=y
CONFIG_RCU_NOCB_CPU=y
CONFIG_CGROUPS=y
CONFIG_CGROUP_SCHED=y
CONFIG_FAIR_GROUP_SCHED=y
CONFIG_CPUSETS=y
CONFIG_SCHED_SMT=y
CONFIG_X86_INTEL_PSTATE=y
CONFIG_CPU_IDLE=y
CONFIG_INTEL_IDLE=y
CONFIG_TRANSPARENT_HUGEPAGE=y
CONFIG_KSM=y
CONFIG_NUMA_BALANCING=y
CONFIG_LOCKUP_DETECTOR=y
CONFIG_SOFTLOCKUP_DETECTOR=y
CONFIG_HARDLOCKUP_DETECTOR=y
CONFIG_HARDLOCKUP_DETECTOR_PERF=y
CONFIG_DETECT_HUNG_TASK=y
CONFIG_DEFAULT_HUNG_TASK_TIMEOUT=120
CONFIG_DEBUG_KERNEL=y
CONFIG_DEBUG_FS=y
CONFIG_FTRACE=y
CONFIG_FUNCTION_TRACER=y
# CONFIG_IRQSOFF_TRACER is not set
# CONFIG_PREEMPT_TRACER is not set
# CONFIG_DEBUG_PREEMPT is not set
# CONFIG_DEBUG_RT_MUTEXES is not set
# CONFIG_DEBUG_SPINLOCK is not set
# CONFIG_DEBUG_MUTEXES is not set
# CONFIG_DEBUG_ATOMIC_SLEEP is not set
# CONFIG_DEBUG_VM is not set
# CONFIG_DEBUG_PAGEALLOC is not set
# CONFIG_DEBUG_OBJECTS is not set
# CONFIG_DEBUG_KMEMLEAK is not set
# CONFIG_SLUB_DEBUG_ON is not set
# CONFIG_KCSAN is not set
# CONFIG_UBSAN is not set
"""


def config(preempt_lines, extra):
    return CONFIG_HEAD + preempt_lines + extra


# ---- rt-good (and the large trees, which are scaled copies of it) --------

def good_machine(ncpus=8, nirqs=None, nthreads=None):
    """A tuned PREEMPT_RT machine. With the defaults: 8 cores without SMT, RT CPUs 2-3.
    Scaled (bench): ncpus CPUs, RT CPUs the upper half, nirqs IRQs, nthreads threads."""
    m = Machine()
    m.possible = m.present = m.online = span(0, ncpus - 1)
    if ncpus == 8:
        rt = {2, 3}
    else:
        rt = span(ncpus // 2, ncpus - 1)
    hk = m.online - rt
    irq_cpus = span(0, 1) if ncpus == 8 else span(0, min(ncpus // 2, 8) - 1)
    rtl = cpulist(rt)
    release = "6.12.43+deb13-rt-amd64"

    m.line("/proc/sys/kernel/osrelease", release)
    m.line("/proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian 6.12.43-1 (2025-08-27)")
    m.line("/sys/kernel/realtime", 1)
    # The kernel log (/dev/kmsg records, as a snapshot captures them): clean.
    m.put("/dev/kmsg",
          "6,0,0,-;Linux version %s (debian-kernel@lists.debian.org)\n"
          "6,1,812345,-;smpboot: Allowing 8 CPUs, 0 hotplug CPUs\n"
          " SUBSYSTEM=cpu\n"
          "5,2,2104511,-;random: crng init done\n" % release)
    m.line("/proc/cmdline",
           "BOOT_IMAGE=/boot/vmlinuz-%s root=UUID=2f3c9e4a-5d1b-4c6e-9a7f-0b8d2e1c4f6a ro "
           "quiet isolcpus=domain,managed_irq,%s nohz_full=%s rcu_nocbs=%s irqaffinity=%s "
           "threadirqs nmi_watchdog=0 skew_tick=1" % (release, rtl, rtl, rtl,
                                                       cpulist(irq_cpus)))
    m.put("/boot/config-%s" % release, config(
        "# CONFIG_PREEMPT_NONE is not set\n# CONFIG_PREEMPT_VOLUNTARY is not set\n"
        "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_COUNT=y\n"
        "CONFIG_PREEMPTION=y\n# CONFIG_PREEMPT_DYNAMIC is not set\n",
        "CONFIG_HIGH_RES_TIMERS=y\n# CONFIG_RT_GROUP_SCHED is not set\n"
        "# CONFIG_LOCKDEP is not set\n# CONFIG_PROVE_LOCKING is not set\n"
        "# CONFIG_KASAN is not set\n"))
    # Lockup detector on, but kept to the housekeeping CPUs (as nohz_full= does).
    m.line("/proc/sys/kernel/watchdog", 1)
    m.line("/proc/sys/kernel/soft_watchdog", 1)
    m.line("/proc/sys/kernel/nmi_watchdog", 0)
    m.line("/proc/sys/kernel/watchdog_thresh", 10)
    m.line("/proc/sys/kernel/watchdog_cpumask", cpulist(hk))
    m.line("/proc/sys/kernel/hung_task_timeout_secs", 0)
    m.line("/proc/sys/kernel/timer_migration", 0)
    m.line("/proc/sys/kernel/sched_rt_runtime_us", -1)
    m.line("/proc/sys/kernel/sched_rt_period_us", 1000000)
    m.line("/proc/sys/kernel/numa_balancing", 0)
    m.put("/proc/self/mounts",
          "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
          "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
          "/dev/nvme0n1p2 / ext4 rw,relatime,errors=remount-ro 0 0\n"
          "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,"
          "memory_recursiveprot 0 0\n")

    put_cpus(m, rt, rtl)
    m.line("/sys/devices/system/cpu/smt/active", 0)
    m.line("/sys/devices/system/cpu/smt/control", "notsupported")
    put_topology(m, lambda c: {c}, lambda c: {c}, m.online)
    put_cpufreq(m, "performance", "intel_pstate")
    put_cpuidle(m, rt)
    m.line("/sys/devices/virtual/workqueue/cpumask", cpumask(hk, m.nbits))

    # Interrupts: legacy ones, then MSI-X queues of a NIC and an NVMe disk, all
    # kept on the housekeeping CPUs (irqbalance spreads them, RT CPUs banned).
    m.irqs = [Irq(0, "IO-APIC", 2, "edge", "timer", irq_cpus, {0}),
              Irq(1, "IO-APIC", 1, "edge", "i8042", irq_cpus, {0}),
              Irq(8, "IO-APIC", 8, "edge", "rtc0", irq_cpus, {0}),
              Irq(9, "IO-APIC", 9, "fasteoi", "acpi", irq_cpus, {1}),
              Irq(16, "IO-APIC", 16, "fasteoi", "i801_smbus", irq_cpus, {1}),
              Irq(120, "DMAR-MSI", 0, "edge", "dmar0", irq_cpus, {0}),
              Irq(121, "IR-PCI-MSI-0000:00:17.0", 0, "edge", "ahci[0000:00:17.0]",
                  irq_cpus, {1}),
              Irq(122, "IR-PCI-MSI-0000:00:14.0", 0, "edge", "xhci_hcd", irq_cpus, {0})]
    hk_sorted = sorted(hk)
    total = nirqs if nirqs else 8 + 8
    n = 0
    while len(m.irqs) < total:
        num = 123 + n
        if n % 2 == 0:
            chip, name = "IR-PCI-MSIX-0000:02:00.0", "eno1-TxRx-%d" % (n // 2)
        else:
            chip, name = "IR-PCI-MSIX-0000:01:00.0", "nvme0q%d" % (n // 2 + 1)
        cpu = hk_sorted[n % len(hk_sorted)]
        m.irqs.append(Irq(num, chip, n // 2 + 1, "edge", name, {cpu}, {cpu}))
        n += 1

    # Tasks: per-CPU kernel threads, unbound kernel threads on the
    # housekeeping CPUs, IRQ threads (PREEMPT_RT threads every handler),
    # services, and the RT application with one FIFO thread per RT CPU.
    tasks = m.tasks
    pid = [2]

    def nextpid():
        pid[0] += 1
        return pid[0]

    tasks.append(Task(1, 1, "systemd", 0, hk, vm_kb=168000))
    tasks.append(Task(2, 2, "kthreadd", 0, hk, kthread=True))
    for c in sorted(m.online):
        for comm, pol, prio in (("cpuhp/%d", OTHER, 0), ("migration/%d", FIFO, 99),
                                ("ktimers/%d", FIFO, 1), ("ksoftirqd/%d", OTHER, 0),
                                ("kworker/%d:0H", OTHER, 0), ("kworker/%d:1", OTHER, 0)):
            p = nextpid()
            tasks.append(Task(p, p, comm % c, 2, {c}, pol, prio,
                              nice=-20 if comm.endswith("H") else 0,
                              kthread=True, per_cpu=True))
    for comm, pol, prio in (("rcu_preempt", FIFO, 1), ("rcub/0", FIFO, 1),
                            ("kworker/u%d:0" % (2 * ncpus), OTHER, 0),
                            ("kworker/u%d:1" % (2 * ncpus), OTHER, 0), ("kcompactd0", OTHER, 0),
                            ("khugepaged", OTHER, 0), ("kswapd0", OTHER, 0),
                            ("jbd2/nvme0n1p2-8", OTHER, 0)):
        p = nextpid()
        tasks.append(Task(p, p, comm, 2, hk, pol, prio, kthread=True))
    for c in sorted(rt):
        for comm in ("rcuop/%d", "rcuog/%d"):
            p = nextpid()
            tasks.append(Task(p, p, comm % c, 2, hk, kthread=True))
    for q in m.irqs:
        p = nextpid()
        tasks.append(Task(p, p, ("irq/%d-%s" % (q.num, q.name))[:15], 2, q.affinity, FIFO,
                          50, kthread=True))
    services = [("systemd-journal", 1), ("systemd-udevd", 1), ("dbus-daemon", 1),
                ("irqbalance", 2), ("sshd", 1), ("cron", 1), ("chronyd", 1), ("bash", 1)]
    pid[0] += 100
    for comm, nthr in services:
        p = nextpid()
        for i in range(nthr):
            tasks.append(Task(p, p + i, comm if i == 0 else "gmain", 1, hk, threads=nthr,
                              vm_kb=20000 + p))
        pid[0] = p + nthr - 1
    # The RT application: main thread on the housekeeping CPUs, one SCHED_FIFO
    # worker pinned to each RT CPU, memory locked.
    app = pid[0] + 200
    workers = sorted(rt)
    nthr = 1 + len(workers)
    tasks.append(Task(app, app, "rtapp", 1, hk, threads=nthr, vm_kb=80000, lck_kb=80000))
    for i, c in enumerate(workers):
        tasks.append(Task(app, app + 1 + i, "rtapp-ctl%d" % i, 1, {c}, FIFO,
                          80 if i == 0 else 70, threads=nthr, vm_kb=80000, lck_kb=80000))
    pid[0] = app + nthr

    # Fill up to the requested thread count with ordinary multi-threaded
    # processes on the housekeeping CPUs (bench trees only).
    if nthreads:
        k = 0
        while len(tasks) < nthreads:
            p = pid[0] + 1
            want = 1 + (k * 37) % 48
            want = min(want, nthreads - len(tasks))
            for i in range(want):
                tasks.append(Task(p, p + i, "worker%d" % k if i == 0 else "pool-%d" % i, 1, hk,
                                  threads=want, vm_kb=300000 + k))
            pid[0] = p + want
            k += 1
    put_tasks(m)

    put_irqs(m, irq_cpus)
    m.put("/etc/default/irqbalance",
          "# irqbalance is a daemon process that distributes interrupts across\n"
          "# CPUs on SMP systems.\n#IRQBALANCE_ONESHOT=\n"
          "# Keep the realtime CPUs free of device interrupts.\n"
          "IRQBALANCE_BANNED_CPULIST=%s\n#IRQBALANCE_ARGS=\n" % rtl)

    m.put("/proc/swaps", SWAPS_HEADER)
    m.line("/proc/sys/vm/swappiness", 10)
    m.line("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never")
    m.line("/sys/kernel/mm/transparent_hugepage/defrag",
           "always defer defer+madvise [madvise] never")
    m.line("/sys/kernel/mm/ksm/run", 0)
    put_limits(m, "98", "unlimited")

    m.line("/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc")
    m.line("/sys/devices/system/clocksource/clocksource0/available_clocksource",
           "tsc hpet acpi_pm ")
    put_cpuinfo(m, False, "Intel(R) Xeon(R) W-2245 CPU @ 3.90GHz")
    put_dmi(m, "Supermicro", "X11SRM-VF")
    return m


# ---- rt-bad ---------------------------------------------------------------

def bad_machine():
    """A badly tuned machine: 12 CPUs present, maxcpus=8 brings up 0-7 (4 cores
    with SMT siblings c and c+4 sharing L1/L2), nothing isolated, a generic
    PREEMPT_DYNAMIC kernel running voluntary, debug options on, every runtime
    knob at its default or worse, inside a KVM guest."""
    m = Machine()
    m.possible = m.present = span(0, 11)
    m.online = span(0, 7)
    online = m.online
    release = "6.12.43+deb13-amd64"

    m.line("/proc/sys/kernel/osrelease", release)
    m.line("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.12.43-1 (2025-08-27)")
    # The kernel log: throttling already stopped the RT tasks once, and a
    # CPU was held long enough for the soft lockup detector.
    m.put("/dev/kmsg",
          "6,0,0,-;Linux version %s (debian-kernel@lists.debian.org)\n"
          "4,211,73125004,-;sched: RT throttling activated\n"
          "0,212,96011873,-;watchdog: BUG: soft lockup - CPU#3 stuck for 22s! [rtapp:812]\n"
          "4,213,96012001,-;clocksource: Marking clocksource 'tsc' as unstable because the "
          "skew is too large:\n" % release)
    m.line("/proc/cmdline",
           "BOOT_IMAGE=/boot/vmlinuz-%s root=UUID=7d9e1b2c-3a4f-4e5d-8c6b-1a2b3c4d5e6f ro "
           "quiet maxcpus=8 highres=off" % release)
    m.line("/sys/kernel/debug/sched/preempt", "none (voluntary) full")
    # Only in the module build tree (no /proc/config.gz, no /boot/config-*).
    m.put("/lib/modules/%s/build/.config" % release, config(
        "# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n"
        "# CONFIG_PREEMPT is not set\n# CONFIG_PREEMPT_RT is not set\n"
        "CONFIG_PREEMPT_COUNT=y\nCONFIG_PREEMPTION=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
        "CONFIG_HIGH_RES_TIMERS=y\nCONFIG_RT_GROUP_SCHED=y\nCONFIG_LOCKDEP=y\n"
        "CONFIG_PROVE_LOCKING=y\nCONFIG_DEBUG_LOCK_ALLOC=y\nCONFIG_KASAN=y\n"
        "CONFIG_KASAN_GENERIC=y\n"))
    m.line("/proc/sys/kernel/watchdog", 1)
    m.line("/proc/sys/kernel/soft_watchdog", 1)
    m.line("/proc/sys/kernel/nmi_watchdog", 1)
    m.line("/proc/sys/kernel/watchdog_thresh", 10)
    m.line("/proc/sys/kernel/watchdog_cpumask", cpulist(m.possible))
    m.line("/proc/sys/kernel/hung_task_timeout_secs", 120)
    m.line("/proc/sys/kernel/timer_migration", 1)
    m.line("/proc/sys/kernel/sched_rt_runtime_us", 950000)
    m.line("/proc/sys/kernel/sched_rt_period_us", 1000000)
    m.line("/proc/sys/kernel/numa_balancing", 1)
    for c in sorted(online):
        d = "/sys/kernel/debug/sched/fair_server/cpu%d" % c
        m.line(d + "/runtime", 50000000)
        m.line(d + "/period", 1000000000)
    # DEADLINE reservations near the admission limit: 6 CPUs' worth of tasks
    # and the 8 fair servers' 5% each, of 8 x 95% (84%).
    put_sched_debug(m, release, online, 996147, (6 << 20) + 8 * ((1 << 20) // 20))
    # cgroup v1 cpu controller with RT group scheduling: the service slice
    # was created with no RT budget and holds the application.
    cg = "/sys/fs/cgroup/cpu,cpuacct"
    m.put("/proc/self/mounts",
          "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
          "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
          "/dev/vda1 / ext4 rw,relatime,errors=remount-ro 0 0\n"
          "tmpfs /sys/fs/cgroup tmpfs ro,nosuid,nodev,noexec,mode=755 0 0\n"
          "cgroup %s cgroup rw,nosuid,nodev,noexec,relatime,cpu,cpuacct 0 0\n"
          "cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,nodev,noexec,relatime,memory 0 0\n"
          % cg)
    m.line(cg + "/cpu.rt_runtime_us", 950000)
    m.line(cg + "/system.slice/cpu.rt_runtime_us", 0)
    m.put(cg + "/system.slice/cgroup.procs", "412\n1300\n")
    m.line(cg + "/user.slice/cpu.rt_runtime_us", 0)
    m.put(cg + "/user.slice/cgroup.procs", "")

    # Distribution kernels allocate tick_nohz_full_mask only for nohz_full=,
    # and print the missing mask as "(null)".
    put_cpus(m, set(), "(null)")
    m.line("/sys/devices/system/cpu/smt/active", 1)
    m.line("/sys/devices/system/cpu/smt/control", "on")

    def core(c):
        return {c % 4, c % 4 + 4}
    put_topology(m, core, core, online)
    put_cpufreq(m, "powersave", "intel_pstate")
    put_cpuidle(m, set())
    m.line("/sys/devices/virtual/workqueue/cpumask", cpumask(m.possible, m.nbits))

    everywhere = m.possible
    m.irqs = [Irq(0, "IO-APIC", 2, "edge", "timer", everywhere, {0}),
              Irq(1, "IO-APIC", 1, "edge", "i8042", everywhere, {3}),
              Irq(4, "IO-APIC", 4, "edge", "ttyS0", everywhere, {2}),
              Irq(9, "IO-APIC", 9, "fasteoi", "acpi", everywhere, {1}),
              Irq(24, "PCI-MSIX-0000:00:03.0", 0, "edge", "virtio0-config", everywhere, {5}),
              Irq(25, "PCI-MSIX-0000:00:03.0", 1, "edge", "virtio0-input.0", everywhere, {2}),
              Irq(26, "PCI-MSIX-0000:00:03.0", 2, "edge", "virtio0-output.0", everywhere,
                  {6}),
              # Asked to stay on 0-1, delivered to RT CPU 3 (a chip that cannot
              # target the requested set).
              Irq(27, "PCI-MSIX-0000:00:04.0", 0, "edge", "virtio1-req.0", {0, 1}, {3})]
    put_irqs(m, everywhere)
    m.put("/etc/default/irqbalance",
          "# irqbalance is a daemon process that distributes interrupts across\n"
          "# CPUs on SMP systems.\n#IRQBALANCE_ONESHOT=\n"
          "#IRQBALANCE_BANNED_CPULIST=\n#IRQBALANCE_ARGS=\n")

    tasks = m.tasks
    tasks.append(Task(1, 1, "systemd", 0, everywhere, vm_kb=168000))
    tasks.append(Task(2, 2, "kthreadd", 0, everywhere, kthread=True))
    p = 2
    for c in sorted(online):
        for comm, pol, prio in (("cpuhp/%d", OTHER, 0), ("migration/%d", FIFO, 99),
                                ("ksoftirqd/%d", OTHER, 0), ("kworker/%d:0H", OTHER, 0)):
            p += 1
            tasks.append(Task(p, p, comm % c, 2, {c}, pol, prio,
                              nice=-20 if comm.endswith("H") else 0,
                              kthread=True, per_cpu=True))
    for comm in ("rcu_preempt", "kworker/u24:0", "kworker/u24:1", "kcompactd0", "ksmd",
                 "khugepaged", "kswapd0", "khungtaskd", "watchdogd"):
        p += 1
        tasks.append(Task(p, p, comm, 2, everywhere, FIFO if comm == "watchdogd" else OTHER,
                          50 if comm == "watchdogd" else 0, kthread=True,
                          nice=5 if comm == "ksmd" else 0))
    # tuned applying throughput-performance, which it chose itself: it sets
    # the governors, THP and sysctls that rtready tune would change.
    m.line("/etc/tuned/active_profile", "throughput-performance")
    m.line("/etc/tuned/profile_mode", "auto")
    for comm, first, nthr in (("systemd-journal", 300, 1), ("irqbalance", 350, 2),
                              ("tuned", 360, 1), ("sshd", 380, 1), ("postgres", 400, 4),
                              ("bash", 500, 1)):
        for i in range(nthr):
            tasks.append(Task(first, first + i, comm if i == 0 else "gmain", 1, everywhere,
                              threads=nthr, vm_kb=50000))
    # The application in system.slice: a control thread at priority 99 pinned
    # to an RT CPU, a FIFO helper allowed everywhere, and memory not locked.
    tasks.append(Task(1300, 1300, "rtapp", 1, everywhere, threads=3, vm_kb=90000))
    tasks.append(Task(1300, 1301, "rtapp-ctl", 1, {2}, FIFO, 99, threads=3, vm_kb=90000))
    tasks.append(Task(1300, 1302, "rtapp-log", 1, everywhere, FIFO, 20, threads=3,
                      vm_kb=90000))
    # A SCHED_DEADLINE sampler beside them.
    tasks.append(Task(1400, 1400, "dl-sampler", 1, everywhere, DEADLINE, 0, vm_kb=12000))
    put_tasks(m)

    m.put("/proc/swaps", SWAPS_HEADER +
          "/dev/vda3                               partition\t4194300\t\t262144\t\t-2\n")
    m.line("/proc/sys/vm/swappiness", 60)
    m.line("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never")
    m.line("/sys/kernel/mm/transparent_hugepage/defrag",
           "always defer defer+madvise [madvise] never")
    m.line("/sys/kernel/mm/ksm/run", 1)
    put_limits(m, "0", "8388608")

    m.line("/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet")
    m.line("/sys/devices/system/clocksource/clocksource0/available_clocksource",
           "tsc hpet acpi_pm ")
    put_cpuinfo(m, True, "Intel Xeon Processor (Cascadelake)")
    put_dmi(m, "QEMU", "Standard PC (Q35 + ICH9, 2009)")
    return m


# ---- writing ---------------------------------------------------------------

README = {
    "rt-good": """A well-tuned, isolated PREEMPT_RT machine for `rtready check --root`:
8 cores without SMT, RT CPUs 2-3 isolated with isolcpus=domain,managed_irq,
nohz_full=, rcu_nocbs=, irqaffinity=0-1 and threadirqs; throttling off,
IRQs and unbound work on the housekeeping CPUs, performance governor, deep
C-states disabled on the RT CPUs, no swap, THP madvise, KSM off, timer
migration off, watchdog kept to the housekeeping CPUs, TSC, bare metal, an
RT application with a SCHED_FIFO thread pinned to each RT CPU, and limits
that allow rtprio 98 and unlimited memlock. No check may warn or fail here.
""",
    "rt-bad": """A badly tuned machine for `rtready check --root --rt-cpus 2-3,8`:
a voluntary-preemption PREEMPT_DYNAMIC kernel with lockdep and KASAN,
maxcpus=8 of 12 CPUs (RT CPU 8 never comes up), SMT siblings and L2 caches
shared with non-RT CPUs, nothing isolated, RT throttling on, an RT cgroup
without runtime, a user thread at priority 99 beside a SCHED_DEADLINE task,
IRQs and workqueues on the RT CPUs (one IRQ delivered outside its requested
CPUs), irqbalance without bans, powersave, deep C-states, swap, THP always,
KSM, NUMA balancing, low limits, the HPET clock, a KVM guest and tuned
running throughput-performance. Every check
that can fire does. Three cannot: kernel.config passes because kernel.debug
needs the configuration to find lockdep and KASAN, sched.rt_tasks is always
info (an inventory), and kernel.threadirqs only ever informs.
""",
}
GENERATED = "\nGenerated by tools/gen-fixtures.py: regenerate, do not edit by hand.\n" \
            "expected.json (written by hand) holds the statuses tests/golden asserts.\n"


def write_tree(m, dest, readme=None):
    if os.path.isdir(dest):
        for name in os.listdir(dest):
            if name not in OWNED and name not in KEEP:
                sys.exit("gen-fixtures: %s holds %s, which this script did not write; "
                         "refusing to touch it" % (dest, name))
        for name in OWNED:
            path = os.path.join(dest, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.unlink(path)
    os.makedirs(dest, exist_ok=True)
    made = set()
    for path in sorted(m.files):
        full = os.path.join(dest, path.lstrip("/"))
        d = os.path.dirname(full)
        if d not in made:
            os.makedirs(d, exist_ok=True)
            made.add(d)
        with open(full, "w", encoding="utf-8", newline="") as f:
            f.write(m.files[path])
    if readme:
        with open(os.path.join(dest, "README.md"), "w", encoding="utf-8") as f:
            f.write(readme + GENERATED)
    return len(m.files)


PROFILES = {"rt-good": good_machine, "rt-bad": bad_machine}


def main(argv):
    ap = argparse.ArgumentParser(description="Write machine trees for rtready check --root.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    fx = sub.add_parser("fixtures", help="write rt-good and rt-bad under DIR")
    fx.add_argument("dir", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures"))
    tr = sub.add_parser("tree", help="write one named tree into DEST")
    tr.add_argument("name", choices=sorted(PROFILES))
    tr.add_argument("dest")
    sc = sub.add_parser("scale", help="write a large tuned machine into DEST")
    sc.add_argument("dest")
    sc.add_argument("--cpus", type=int, required=True)
    sc.add_argument("--irqs", type=int, required=True)
    sc.add_argument("--threads", type=int, required=True)
    a = ap.parse_args(argv)

    if a.cmd == "fixtures":
        for name in sorted(PROFILES):
            n = write_tree(PROFILES[name](), os.path.join(a.dir, name), README[name])
            print("%s: %d files" % (os.path.normpath(os.path.join(a.dir, name)), n))
    elif a.cmd == "tree":
        n = write_tree(PROFILES[a.name](), a.dest, README[a.name])
        print("%s: %d files" % (a.dest, n))
    else:
        if not 16 <= a.cpus <= 8192 or a.cpus % 2:
            ap.error("--cpus must be even, 16..8192")
        if not 16 <= a.irqs <= 1 << 20:
            ap.error("--irqs must be 16..1048576")
        floor = 7 * a.cpus + a.irqs + 64
        if not floor <= a.threads <= 1000000:
            ap.error("--threads must be %d..1000000 for %d CPUs and %d IRQs"
                     % (floor, a.cpus, a.irqs))
        m = good_machine(a.cpus, a.irqs, a.threads)
        n = write_tree(m, a.dest)
        print("%s: %d files, %d CPUs, %d IRQs, %d threads"
              % (a.dest, n, len(m.online), len(m.irqs), len(m.tasks)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
