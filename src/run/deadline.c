// SPDX-License-Identifier: MIT
/* The admission message of a refused SCHED_DEADLINE program; see deadline.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/cpu.h"
#include "probe/dlbw.h"
#include "probe/kernel.h"
#include "probe/partition.h"
#include "probe/rootfs.h"
#include "probe/sched.h"
#include "probe/tasks.h"
#include "run/deadline.h"

static double pct(uint64_t bw)
{
	return 100.0 * (double)bw / DLBW_UNIT;
}

/*
 * The program's root domain: the CPUs it may run on decide it (a DEADLINE
 * task spans its domain), so rtready's own: the domain (dlbw_domains():
 * main, the default one of isolcpus and isolated partitions, a root
 * partition) that holds all of them, else the first they meet.
 */
static int own_domain(const struct cpu_facts *c, const struct partition_facts *p,
		      struct rtr_cpuset *out)
{
	struct rtr_cpuset mine = RTR_CPUSET_INIT;
	struct dlbw_domains doms;
	const struct rtr_cpuset *pick = NULL;
	int err = dlbw_domains(c, p, &doms);

	if (!err)
		err = rtr_cpuset_get_affinity(&mine);
	for (size_t i = 0; !err && i < doms.n && !pick; i++)
		if (rtr_cpuset_is_subset(&mine, &doms.d[i].cpus))
			pick = &doms.d[i].cpus;
	for (size_t i = 0; !err && i < doms.n && !pick; i++)
		if (rtr_cpuset_intersects(&mine, &doms.d[i].cpus))
			pick = &doms.d[i].cpus;
	if (!err)
		err = pick ? rtr_cpuset_copy(out, pick) : -ENOENT;
	rtr_cpuset_free(&mine);
	dlbw_domains_free(&doms);
	return err;
}

/*
 * "sched_rt_runtime_us/sched_rt_period_us = R/P of each of its N CPUs", or
 * on unequal cores "... of its N CPUs' capacity (cpu_capacity C/1024 in
 * all)": the kernel weighs big.LITTLE CPUs by capacity.
 */
static void share_of(const struct sched_facts *s, const struct rtr_cpuset *dom,
		     const struct dlbw_usage *u, char *buf, size_t len)
{
	size_t n = rtr_cpuset_count(dom);

	if (u->capacity)
		snprintf(buf, len, "sched_rt_runtime_us/sched_rt_period_us = %lld/%lld of its %zu "
			 "CPUs' capacity (unequal cores: cpu_capacity %llu/1024 in all)",
			 (long long)s->rt_runtime_us, (long long)s->rt_period_us, n,
			 (unsigned long long)u->capacity);
	else
		snprintf(buf, len, "sched_rt_runtime_us/sched_rt_period_us = %lld/%lld of each of "
			 "its %zu CPU%s", (long long)s->rt_runtime_us, (long long)s->rt_period_us,
			 n, n == 1 ? "" : "s");
}

void run_deadline_admission(uint64_t runtime_ns, uint64_t period_ns, char *buf, size_t len)
{
	uint64_t asked = dlbw_ratio(period_ns, runtime_ns);
	struct rtr_cpuset dom = RTR_CPUSET_INIT;
	struct kernel_facts k;
	struct sched_facts s;
	struct tasks_facts t;
	struct cpu_facts c;
	struct partition_facts p;
	struct dlbw_facts d;
	struct dlbw_usage u;
	struct rootfs fs;
	char cpus[256], share[200];
	int n;

	n = snprintf(buf, len, "SCHED_DEADLINE admission refused (EBUSY): the program asks "
		     "runtime/period = %llu/%llu ns = %.1f%% of a CPU", (unsigned long long)runtime_ns,
		     (unsigned long long)period_ns, pct(asked));
	if (n < 0 || (size_t)n >= len || rootfs_open(&fs, "/"))
		return;
	probe_kernel(&fs, &k);
	probe_sched(&fs, &s);
	probe_cpu(&fs, &c);	/* with cpu_capacity: big.LITTLE scales the limit */
	probe_partition(&fs, &p);
	probe_tasks(&fs, &t);
	probe_dlbw(&fs, &t, &d);
	rootfs_close(&fs);
	if (s.rt_runtime_err || s.rt_period_err || c.online_err || own_domain(&c, &p, &dom)) {
		snprintf(buf + n, len - (size_t)n, ", more than the deadline bandwidth left in its "
			 "root domain (the limit, sched_rt_runtime_us/sched_rt_period_us of each "
			 "CPU, could not be read)");
	} else if (dlbw_usage(&d, &s, &k, &t, &c, &dom, &u)) {
		rtr_cpuset_format_list(&dom, cpus, sizeof(cpus));
		share_of(&s, &dom, &u, share, sizeof(share));
		snprintf(buf + n, len - (size_t)n, "; the root domain (CPU %s) admits at most "
			 "%s = %.1f%% in all, for every DEADLINE task together (what is in use "
			 "could not be read)", cpus, share, pct(u.limit));
	} else {
		rtr_cpuset_format_list(&dom, cpus, sizeof(cpus));
		share_of(&s, &dom, &u, share, sizeof(share));
		snprintf(buf + n, len - (size_t)n, ", but its root domain (CPU %s) has %.1f%% left: "
			 "its limit is %s = %.1f%%, of which %.1f%% is in use (%s%zu DEADLINE "
			 "thread%s %.1f%%%s%s%s); shrink the runtime, lengthen the period, stop "
			 "another DEADLINE task, or raise sched_rt_runtime_us", cpus,
			 u.used < u.limit ? pct(u.limit - u.used) : 0.0, share, pct(u.limit),
			 pct(u.used), u.from_debug ? "the scheduler's debug file; " : "",
			 u.n_tasks, u.n_tasks == 1 ? "" : "s", pct(u.tasks),
			 u.fair ? ", the fair servers " : "",
			 u.fair ? (u.fair_assumed ? "5% of each CPU (their default)" :
				   "their reservations") : "",
			 u.ns_only ? "; only the threads of this PID namespace are seen, not the "
			 "host's" : "");
	}
	rtr_cpuset_free(&dom);
	probe_dlbw_free(&d);
	probe_tasks_free(&t);
	probe_cpu_free(&c);
	probe_partition_free(&p);
	probe_sched_free(&s);
	probe_kernel_free(&k);
}
