// SPDX-License-Identifier: MIT
/*
 * Unit tests of `rtready noise` without a kernel: the gap-to-event matcher
 * on hand-made event lists (a higher-priority task, RT throttling, an IRQ,
 * a softirq inside a vector, an NMI, a gap that starts inside an
 * interrupt, nothing at all with and without steal, lost events), the
 * cause table, the default CPUs, the option parsing and the /proc parsers
 * of steal time and softirqs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_noise.h"
#include "measure/noise.h"
#include "probe/noisesrc.h"

#define TID 4242
#define US 1000LL

static struct trace_ev sw(int64_t ts, int prev_pid, const char *prev_comm, int prev_prio, int pid,
			  const char *comm, int prio)
{
	struct trace_ev e = { .ts_ns = ts, .type = TEV_SWITCH, .pid = pid, .prio = prio,
			      .prev_pid = prev_pid, .prev_prio = prev_prio };

	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	snprintf(e.prev_comm, sizeof(e.prev_comm), "%s", prev_comm);
	return e;
}

static struct trace_ev ev(int64_t ts, enum trace_ev_type type, int num, uint64_t ptr,
			  const char *name)
{
	struct trace_ev e = { .ts_ns = ts, .type = type, .num = num, .ptr = ptr };

	snprintf(e.name, sizeof(e.name), "%s", name ? name : "");
	return e;
}

static struct noise_match_input input(const struct trace_ev *e, size_t n)
{
	struct noise_match_input in = { .ev = e, .n_ev = n, .tid = TID, .rt = true,
					.throttling = true, .smi_delta = -1 };

	return in;
}

/* The spinner (FIFO 80: kernel prio 19) at first; an injector at FIFO 98 takes 50 us, twice. */
static void test_thread(void **state)
{
	const struct trace_ev e[] = {
		sw(0, 1, "x", 120, TID, "rtr-noise/1", 19),
		ev(1000 * US, TEV_VECTOR_ENTRY, 0, 0, "local_timer"),
		ev(1002 * US, TEV_VECTOR_EXIT, 0, 0, "local_timer"),
		sw(1003 * US, TID, "rtr-noise/1", 19, 77, "noise-inject", 1),
		sw(1053 * US, 77, "noise-inject", 1, TID, "rtr-noise/1", 19),
		/* Between the gaps: a tick under the threshold. */
		ev(5000 * US, TEV_VECTOR_ENTRY, 0, 0, "local_timer"),
		ev(5001 * US, TEV_VECTOR_EXIT, 0, 0, "local_timer"),
		sw(11003 * US, TID, "rtr-noise/1", 19, 77, "noise-inject", 1),
		sw(11053 * US, 77, "noise-inject", 1, TID, "rtr-noise/1", 19),
	};
	const struct noise_gap g[] = { { 999 * US, 1054 * US }, { 11002 * US, 11054 * US } };
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a[2];
	struct noise_cause *c = NULL;
	size_t n = 0;

	(void)state;
	noise_match(&in, g, 2, a);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(a[i].kind, NOISE_THREAD);
		assert_int_equal(a[i].id, 77);
		assert_string_equal(a[i].name, "noise-inject");
		assert_int_equal(noise_causes_add(&c, &n, &a[i],
						  (uint64_t)(g[i].end_ns - g[i].start_ns)), 0);
	}
	/* One line, counted twice (once per gap), its max the larger gap. */
	assert_int_equal(n, 1);
	assert_int_equal(c[0].count, 2);
	assert_int_equal(c[0].max_ns, 55 * US);
	assert_int_equal(c[0].total_ns, 107 * US);
	assert_string_equal(noise_kind_name(c[0].kind), "thread");
	free(c);
}

/* A normal task or idle runs while our FIFO thread is runnable: only throttling does that. */
static void test_throttling(void **state)
{
	const struct trace_ev e[] = {
		sw(0, 1, "x", 120, TID, "rtr-noise/1", 19),
		sw(100 * US, TID, "rtr-noise/1", 19, 33, "kworker/1:1", 120),
		sw(110 * US, 33, "kworker/1:1", 120, 0, "swapper/1", 120),
		sw(50100 * US, 0, "swapper/1", 120, TID, "rtr-noise/1", 19),
	};
	const struct noise_gap g[] = { { 99 * US, 50101 * US } };
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a;

	(void)state;
	noise_match(&in, g, 1, &a);
	assert_int_equal(a.kind, NOISE_RT_THROTTLING);
	assert_string_equal(noise_kind_name(a.kind), "rt_throttling");
	/* Without throttling (or for a SCHED_OTHER spinner) it is the task that ran most. */
	in.throttling = false;
	noise_match(&in, g, 1, &a);
	assert_int_equal(a.kind, NOISE_THREAD);
	assert_string_equal(a.name, "swapper/1");
	in.throttling = true;
	in.rt = false;
	noise_match(&in, g, 1, &a);
	assert_int_equal(a.kind, NOISE_THREAD);
}

static void test_interrupts(void **state)
{
	const struct trace_ev e[] = {
		sw(0, 1, "x", 120, TID, "rtr-noise/1", 19),
		/* Gap 1: a device IRQ. */
		ev(100 * US, TEV_IRQ_ENTRY, 36, 0, "virtio1-req.0"),
		ev(108 * US, TEV_IRQ_EXIT, 36, 0, NULL),
		/* Gap 2: the tick (2 us), then RCU's softirq (10 us). */
		ev(200 * US, TEV_VECTOR_ENTRY, 0, 0, "local_timer"),
		ev(202 * US, TEV_VECTOR_EXIT, 0, 0, "local_timer"),
		ev(202 * US, TEV_SOFTIRQ_ENTRY, 9, 0, NULL),
		ev(212 * US, TEV_SOFTIRQ_EXIT, 9, 0, NULL),
		/* Gap 3: an NMI of 8 us (the event comes at its end). */
		ev(308 * US, TEV_NMI, 1, 8 * US, NULL),
		/* Gap 4 starts inside an IRQ: only its exit is in the gap. */
		ev(403 * US, TEV_IRQ_EXIT, 40, 0, NULL),
	};
	const struct noise_gap g[] = {
		{ 99 * US, 109 * US }, { 199 * US, 213 * US }, { 299 * US, 309 * US },
		{ 396 * US, 404 * US },
	};
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a[4];

	(void)state;
	noise_match(&in, g, 4, a);
	assert_int_equal(a[0].kind, NOISE_IRQ);
	assert_int_equal(a[0].id, 36);
	assert_string_equal(a[0].name, "virtio1-req.0");
	assert_int_equal(a[1].kind, NOISE_SOFTIRQ);
	assert_int_equal(a[1].id, 9);
	assert_string_equal(a[1].name, "RCU");
	assert_int_equal(a[2].kind, NOISE_NMI);
	assert_int_equal(a[3].kind, NOISE_IRQ);
	assert_int_equal(a[3].id, 40);
}

/* Nothing in the kernel: steal says hypervisor, else hardware; lost events leave it unknown. */
static void test_nothing_ran(void **state)
{
	const struct trace_ev e[] = {
		sw(0, 1, "x", 120, TID, "rtr-noise/1", 19),
		/* The tick that was pending when the vCPU came back: 3 us of a 2 ms gap. */
		ev(2099 * US, TEV_VECTOR_ENTRY, 0, 0, "local_timer"),
		ev(2102 * US, TEV_VECTOR_EXIT, 0, 0, "local_timer"),
	};
	const struct noise_steal_sample steal[] = {
		{ 0, 5 }, { 10000 * US, 5 }, { 20000 * US, 5 }, { 30000 * US, 6 }, { 40000 * US, 6 },
		{ 50000 * US, 6 },
	};
	const struct noise_gap g[] = { { 100 * US, 2103 * US }, { 45000 * US, 45020 * US } };
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a[2];

	(void)state;
	noise_match(&in, g, 2, a);
	/* No steal samples: the stall the kernel did not see is hardware; the tick is an IRQ. */
	assert_int_equal(a[0].kind, NOISE_IRQ);
	assert_int_equal(a[1].kind, NOISE_HARDWARE);
	in.steal = steal;
	in.n_steal = sizeof(steal) / sizeof(steal[0]);
	noise_match(&in, g, 2, a);
	/* Steal did not rise around the first gap (5 -> 5): still the tick. */
	assert_int_equal(a[0].kind, NOISE_IRQ);
	/* It rose between 20 and 30 ms, not around 45 ms: hardware there. */
	assert_int_equal(a[1].kind, NOISE_HARDWARE);
	const struct noise_gap g2[] = { { 21000 * US, 23000 * US } };
	noise_match(&in, g2, 1, a);
	assert_int_equal(a[0].kind, NOISE_HYPERVISOR);
	in.steal = NULL;
	in.n_steal = 0;
	in.smi_delta = 3;
	noise_match(&in, g2, 1, a);
	assert_int_equal(a[0].kind, NOISE_HARDWARE);
	assert_string_equal(a[0].name, "SMI");
	in.lost = 10;
	noise_match(&in, g2, 1, a);
	assert_int_equal(a[0].kind, NOISE_UNKNOWN);
	/* No event at all, and no gap: nothing to do, nothing read. */
	noise_match(&in, g2, 0, a);
}

static struct trace_ev waking(int64_t ts, int pid, int prio, const char *comm)
{
	struct trace_ev e = { .ts_ns = ts, .type = TEV_WAKING, .pid = pid, .prio = prio };

	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	return e;
}

/*
 * A late wake-up of `latency --trace`: the thread (FIFO 80) sleeps, the CPU
 * idles; its timer fires at 1005 us (deadline 1000), wakes it at 1006 and
 * then the idle task "runs" until 5466 us: 4.46 ms that this VM's trace
 * showed as "swapper/1 ran". With steal rising then, the host had taken
 * the vCPU away: hypervisor.
 */
static void test_wakeup_vcpu_stall(void **state)
{
	const struct trace_ev e[] = {
		sw(0, TID, "rtr-lat/1", 19, 0, "swapper/1", 120),
		ev(10 * US, TEV_IDLE, 1, 0, NULL),
		ev(1005 * US, TEV_IDLE, -1, 0, NULL),
		ev(1005 * US, TEV_HRTIMER_ENTRY, 0, 0xabc, "hrtimer_wakeup"),
		waking(1006 * US, TID, 19, "rtr-lat/1"),
		ev(1007 * US, TEV_HRTIMER_EXIT, 0, 0xabc, NULL),
		sw(5466 * US, 0, "swapper/1", 120, TID, "rtr-lat/1", 19),
	};
	const struct noise_steal_sample steal[] = {
		{ 0, 100 }, { 2000 * US, 100 }, { 4000 * US, 100 }, { 6000 * US, 101 },
		{ 8000 * US, 101 }, { 20000 * US, 101 },
	};
	const struct noise_gap w[] = { { 1000 * US, 5470 * US } };
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a;

	(void)state;
	in.virtual_machine = true;
	/* What the trace alone says: the idle task took the time, woken in time. */
	{
		struct trace_window tw = { .tid = TID, .expected_ns = 1000 * US,
					   .woken_ns = 5470 * US, .ev = e,
					   .n = sizeof(e) / sizeof(e[0]) };
		struct trace_result tr;

		memset(&tr, 0, sizeof(tr));
		trace_analyze(&tw, &tr);
		assert_int_equal(tr.phase, TRACE_PHASE_WAIT);
		assert_int_equal(tr.contrib[0].kind, TRACE_KIND_TASK);
		assert_int_equal(tr.contrib[0].id, 0);
		assert_string_equal(tr.contrib[0].name, "swapper/1");
	}
	in.steal = steal;
	in.n_steal = sizeof(steal) / sizeof(steal[0]);
	noise_match_wakeups(&in, w, 1, &a);
	assert_int_equal(a.kind, NOISE_HYPERVISOR);
	assert_string_equal(noise_kind_name(a.kind), "hypervisor");
	assert_int_equal(noise_steal_delta(&in, w[0].start_ns, w[0].end_ns), 1);
	/* No steal: in a guest a VM exit the host did not count; never "swapper ran". */
	in.steal = NULL;
	in.n_steal = 0;
	noise_match_wakeups(&in, w, 1, &a);
	assert_int_equal(a.kind, NOISE_HARDWARE);
	assert_string_equal(a.name, "vCPU idle, no steal (host or VM exit)");
	assert_int_equal(noise_steal_delta(&in, w[0].start_ns, w[0].end_ns), 0);
	/* On bare metal, idle at the deadline and the timer late: leaving the idle state. */
	{
		const struct trace_ev e2[] = {
			sw(0, TID, "rtr-lat/1", 19, 0, "swapper/1", 120),
			ev(10 * US, TEV_IDLE, 3, 0, NULL),
			ev(1300 * US, TEV_HRTIMER_ENTRY, 0, 0xabc, "hrtimer_wakeup"),
			waking(1301 * US, TID, 19, "rtr-lat/1"),
			ev(1302 * US, TEV_HRTIMER_EXIT, 0, 0xabc, NULL),
			sw(1304 * US, 0, "swapper/1", 120, TID, "rtr-lat/1", 19),
		};
		const struct noise_gap w2[] = { { 1000 * US, 1306 * US } };
		struct noise_match_input in2 = input(e2, sizeof(e2) / sizeof(e2[0]));

		noise_match_wakeups(&in2, w2, 1, &a);
		assert_int_equal(a.kind, NOISE_HARDWARE);
		assert_string_equal(a.name, "leaving idle state 3");
	}
}

/* Another task, throttling, an interrupt; two wake-ups in one pass, each its own cause. */
static void test_wakeup_causes(void **state)
{
	const struct trace_ev e[] = {
		sw(0, TID, "rtr-lat/1", 19, 0, "swapper/1", 120),
		/* 1: woken in time, a FIFO 90 task runs 300 us first. */
		ev(1000 * US, TEV_HRTIMER_ENTRY, 0, 0xabc, "hrtimer_wakeup"),
		waking(1001 * US, TID, 19, "rtr-lat/1"),
		ev(1002 * US, TEV_HRTIMER_EXIT, 0, 0xabc, NULL),
		sw(1003 * US, 0, "swapper/1", 120, 55, "hog", 9),
		sw(1303 * US, 55, "hog", 9, TID, "rtr-lat/1", 19),
		sw(1310 * US, TID, "rtr-lat/1", 19, 0, "swapper/1", 120),
		/* 2: an IRQ handler of 200 us holds the timer back. */
		ev(1999 * US, TEV_IRQ_ENTRY, 24, 0, "eth0"),
		ev(2199 * US, TEV_IRQ_EXIT, 24, 0, NULL),
		ev(2200 * US, TEV_HRTIMER_ENTRY, 0, 0xabc, "hrtimer_wakeup"),
		waking(2200 * US, TID, 19, "rtr-lat/1"),
		ev(2201 * US, TEV_HRTIMER_EXIT, 0, 0xabc, NULL),
		sw(2202 * US, 0, "swapper/1", 120, TID, "rtr-lat/1", 19),
	};
	const struct noise_gap w[] = { { 1000 * US, 1305 * US }, { 2000 * US, 2204 * US } };
	struct noise_match_input in = input(e, sizeof(e) / sizeof(e[0]));
	struct noise_attr a[2];
	struct trace_ev e2[sizeof(e) / sizeof(e[0])];

	(void)state;
	noise_match_wakeups(&in, w, 2, a);
	assert_int_equal(a[0].kind, NOISE_THREAD);
	assert_string_equal(a[0].name, "hog");
	assert_int_equal(a[0].id, 55);
	assert_int_equal(a[1].kind, NOISE_IRQ);
	assert_string_equal(a[1].name, "eth0");
	assert_int_equal(a[1].id, 24);
	/*
	 * A normal task keeping the woken FIFO thread waiting (a section the
	 * kernel did not preempt): that task, never throttling, which a thread
	 * that sleeps does not reach.
	 */
	memcpy(e2, e, sizeof(e));
	e2[4].prio = 120;
	e2[5].prev_prio = 120;
	in.ev = e2;
	noise_match_wakeups(&in, w, 1, a);
	assert_int_equal(a[0].kind, NOISE_THREAD);
	assert_string_equal(a[0].name, "hog");
	/* The timer late while a task ran, steal rising: the host; without steal, the timer. */
	{
		const struct trace_ev e3[] = {
			sw(0, TID, "rtr-lat/1", 19, 66, "make", 120),
			ev(3800 * US, TEV_HRTIMER_ENTRY, 0, 0xabc, "hrtimer_wakeup"),
			waking(3801 * US, TID, 19, "rtr-lat/1"),
			ev(3802 * US, TEV_HRTIMER_EXIT, 0, 0xabc, NULL),
			sw(3803 * US, 66, "make", 120, TID, "rtr-lat/1", 19),
		};
		const struct noise_steal_sample steal[] = { { 0, 7 }, { 2000 * US, 7 },
							    { 4000 * US, 8 }, { 6000 * US, 8 } };
		const struct noise_gap w3[] = { { 1000 * US, 3805 * US } };
		struct noise_match_input in3 = input(e3, sizeof(e3) / sizeof(e3[0]));

		noise_match_wakeups(&in3, w3, 1, a);
		assert_int_equal(a[0].kind, NOISE_IRQ);
		assert_string_equal(a[0].name, "timer interrupt late");
		in3.steal = steal;
		in3.n_steal = 4;
		noise_match_wakeups(&in3, w3, 1, a);
		assert_int_equal(a[0].kind, NOISE_HYPERVISOR);
	}
}

/* The per-CPU log of noise and latency --trace-all: kept events, losses, steal samples, caps. */
static void test_cpu_log(void **state)
{
	struct noise_cpu_log log = { 0 };
	struct trace_ev e = ev(100, TEV_IRQ_ENTRY, 24, 0, "eth0");

	(void)state;
	noise_log_event(&log, &e, 0, true, 2);
	noise_log_event(&log, &e, 3, false, 2);	/* not kept; 3 dropped by the kernel */
	noise_log_event(&log, &e, -1, true, 2);	/* some dropped: one */
	noise_log_event(&log, &e, 0, true, 2);	/* past the cap of 2: lost */
	assert_int_equal(log.n_ev, 2);
	assert_int_equal(log.ev[1].ts_ns, 100);
	assert_int_equal(log.lost, 3 + 1 + 1);
	noise_log_steal(&log, 10, 5, 4);
	noise_log_steal(&log, 20, 7, 4);
	assert_int_equal(log.n_steal, 2);
	assert_int_equal(log.steal[1].t_ns, 20);
	assert_int_equal(log.steal[1].steal_ticks, 7);
	noise_log_free(&log);
	assert_null(log.ev);
	assert_int_equal(log.n_steal, 0);
}

static void test_causes(void **state)
{
	struct noise_cause *c = NULL;
	size_t n = 0;
	char name[16];

	(void)state;
	/* More lines than the first allocation, each counted a few times. */
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < 9; i++) {
			struct noise_attr a = { NOISE_IRQ, i, "" };

			snprintf(name, sizeof(name), "irq%d", i);
			snprintf(a.name, sizeof(a.name), "%s", name);
			assert_int_equal(noise_causes_add(&c, &n, &a, (uint64_t)(i + 1) * 1000), 0);
		}
	}
	assert_int_equal(n, 9);
	noise_causes_sort(c, n);
	assert_int_equal(c[0].id, 8);
	assert_int_equal(c[0].count, 3);
	assert_int_equal(c[0].total_ns, 27000);
	assert_int_equal(c[8].id, 0);
	free(c);
}

static void test_default_cpus(void **state)
{
	struct rtr_cpuset online = RTR_CPUSET_INIT, rt = RTR_CPUSET_INIT, out = RTR_CPUSET_INIT;
	char buf[64];

	(void)state;
	assert_int_equal(rtr_cpuset_parse_list(&online, "0-3"), 0);
	assert_int_equal(noise_default_cpus(&online, &rt, NULL, &out), 0);
	rtr_cpuset_format_list(&out, buf, sizeof(buf));
	assert_string_equal(buf, "1-3");
	assert_int_equal(rtr_cpuset_parse_list(&rt, "2-3"), 0);
	assert_int_equal(noise_default_cpus(&online, &rt, NULL, &out), 0);
	rtr_cpuset_format_list(&out, buf, sizeof(buf));
	assert_string_equal(buf, "2-3");
	/* RT CPUs that are all of them: one still stays to housekeeping. */
	assert_int_equal(rtr_cpuset_parse_list(&rt, "0-3"), 0);
	assert_int_equal(noise_default_cpus(&online, &rt, NULL, &out), 0);
	rtr_cpuset_format_list(&out, buf, sizeof(buf));
	assert_string_equal(buf, "1-3");
	/* One CPU: nothing can spin. */
	rtr_cpuset_clear(&rt);
	assert_int_equal(rtr_cpuset_parse_list(&online, "0"), 0);
	assert_int_equal(noise_default_cpus(&online, &rt, NULL, &out), -ENOENT);
	rtr_cpuset_free(&online);
	rtr_cpuset_free(&rt);
	rtr_cpuset_free(&out);
}

static int parse(const char *line, struct noise_opts *o, char *err, size_t len)
{
	char buf[256], *argv[16];
	int argc = 0, rc;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	err[0] = '\0';
	rc = cli_parse_cmd(&noise_cmd, argc, argv, o, err, len);
	noise_config_free(&o->cfg);
	rtr_cpuset_free(&o->affinity.cpus);	/* the kind stays, for the assertions */
	return rc;
}

static void test_options(void **state)
{
	static const char *const bad[] = {
		"noise --prio 99", "noise -p 0", "noise --threshold 0", "noise --threshold x",
		"noise -D 0", "noise -D 25h", "noise -D 10us", "noise --policy deadline",
		"noise --policy other -p 50", "noise -a x", "noise extra", "noise --bogus",
		"noise -f xml", "noise -D", "noise --clock tsc",
	};
	struct noise_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse("noise -a 1 -D 2s --threshold 10 -p 90 -f json -o x", &o, err,
			       sizeof(err)), 0);
	assert_int_equal(o.cfg.duration_ns, 2000000000ULL);
	assert_int_equal(o.cfg.threshold_ns, 10000);
	assert_int_equal(o.cfg.priority, 90);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_int_equal(o.affinity.kind, RT_REQUEST_LIST);
	assert_int_equal(parse("noise --policy other --no-trace", &o, err, sizeof(err)), 0);
	assert_int_equal(o.cfg.policy, RTR_SCHED_OTHER);
	assert_false(o.cfg.trace);
	/* The names of rtr_policy_from_name(), as latency --policy takes them. */
	assert_int_equal(parse("noise --policy SCHED_RR", &o, err, sizeof(err)), 0);
	assert_int_equal(o.cfg.policy, RTR_SCHED_RR);
	assert_int_equal(parse("noise --policy batch", &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--policy: 'batch' is not fifo, rr or other");
	/* The threshold takes units as latency's does (a bare number is in us). */
	assert_int_equal(parse("noise --threshold 2.5us", &o, err, sizeof(err)), 0);
	assert_int_equal(o.cfg.threshold_ns, 2500);
	assert_int_equal(parse("noise", &o, err, sizeof(err)), 0);
	assert_int_equal(o.cfg.threshold_ns, NOISE_DEFAULT_THRESHOLD_NS);
	assert_int_equal(o.cfg.policy, RTR_SCHED_FIFO);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i], &o, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
	}
}

static void test_parsers(void **state)
{
	static const char stat[] =
		"cpu  10 0 20 300 4 0 5 7 0 0\n"
		"cpu0 5 0 10 150 2 0 2 3 0 0\n"
		"cpu1 5 0 10 150 2 0 3 4 0 0\n"
		"cpu12 1 2 3\n"
		"intr 100\n";
	static const char soft[] =
		"                    CPU0       CPU1\n"
		"          HI:          0          1\n"
		"       TIMER:      12011       9834\n"
		"         RCU:        500        600\n"
		"       BOGUS:          7          7\n";
	uint64_t v = 0, c[NOISESRC_SOFTIRQS];

	(void)state;
	assert_int_equal(noisesrc_parse_steal(stat, strlen(stat), 1, &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(noisesrc_parse_steal(stat, strlen(stat), 0, &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(noisesrc_parse_steal(stat, strlen(stat), 12, &v), -EINVAL);
	assert_int_equal(noisesrc_parse_steal(stat, strlen(stat), 5, &v), -ENOENT);
	assert_int_equal(noisesrc_parse_steal("", 0, 0, &v), -ENOENT);
	assert_int_equal(noisesrc_parse_softirqs(soft, strlen(soft), 1, c), 0);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 9834);
	assert_int_equal(c[9], 600);
	assert_int_equal(noisesrc_parse_softirqs(soft, strlen(soft), 3, c), -ENOENT);
	assert_int_equal(noisesrc_parse_softirqs("junk\n", 5, 0, c), -EINVAL);
	assert_int_equal(noisesrc_parse_softirqs("", 0, 0, c), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread),
		cmocka_unit_test(test_throttling),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_nothing_ran),
		cmocka_unit_test(test_wakeup_vcpu_stall),
		cmocka_unit_test(test_wakeup_causes),
		cmocka_unit_test(test_cpu_log),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_default_cpus),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_parsers),
	};

	return unit_run(tests, NULL, NULL);
}
