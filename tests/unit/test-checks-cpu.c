// SPDX-License-Identifier: MIT
/*
 * The cpu.* checks as pure functions of hand-made facts: a well-tuned
 * 8-CPU machine (RT CPUs 2-3) passes; each mistake makes its check fire
 * with the CPUs named in the evidence and an exact fix; no RT CPUs gives
 * info (or warn for isolation); unreadable facts give skip. Also the
 * default RT CPUs (isolated, else the command line).
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

#include "checks-helper.h"
#include "checks/run.h"
#include "probe/rtcpus.h"

static void set(struct rtr_cpuset *s, const char *list)
{
	assert_int_equal(rtr_cpuset_parse_list(s, list), 0);
}

/* 8 CPUs, SMT pairs (n, n+4), one L2 per pair, RT CPUs 2-3 perfectly set up. */
static void tuned(struct facts *f)
{
	struct cpu_facts *c = &f->cpu;

	memset(f, 0, sizeof(*f));
	f->host = true;
	set(&c->online, "0-7");
	set(&c->present, "0-7");
	set(&c->possible, "0-7");
	set(&c->isolated, "2-3,6-7");
	set(&c->nohz_full, "2-3,6-7");
	c->smt_active = 1;
	c->isolcpus.given = true;
	c->isolcpus_flags = CPU_ISOL_DOMAIN | CPU_ISOL_MANAGED_IRQ;
	set(&c->isolcpus.cpus, "2-3,6-7");
	set(&c->workqueue, "0-1,4-5");
	c->timer_migration = 0;
	c->cpus = calloc(8, sizeof(*c->cpus));
	c->n_cpus = 8;
	for (int i = 0; i < 8; i++) {
		struct cpu_info *ci = &c->cpus[i];
		char pair[16];

		ci->cpu = i;
		snprintf(pair, sizeof(pair), "%d,%d", i % 4, i % 4 + 4);
		set(&ci->siblings, pair);
		ci->n_caches = 2;
		ci->caches[0].level = 1;
		strcpy(ci->caches[0].type, "Data");
		set(&ci->caches[0].shared, pair);
		ci->caches[1].level = 2;
		strcpy(ci->caches[1].type, "Unified");
		set(&ci->caches[1].shared, pair);
		strcpy(ci->governor, "performance");
		ci->n_idle = 2;
		strcpy(ci->idle[0].name, "POLL");
		strcpy(ci->idle[1].name, "C6");
		ci->idle[1].latency_us = 133;
		ci->idle[1].disable = 1;
	}
	f->tasks.tasks = calloc(2, sizeof(*f->tasks.tasks));
	f->tasks.n = 2;
	f->tasks.cap = 2;
	f->tasks.tasks[0] = (struct task_info){ .pid = 1, .tid = 1, .comm = "init" };
	set(&f->tasks.tasks[0].allowed, "0-1,4-5");
	f->tasks.tasks[1] = (struct task_info){ .pid = 50, .tid = 50, .comm = "rtapp", .policy = 1,
						 .rt_priority = 80 };
	set(&f->tasks.tasks[1].allowed, "2");
}

static void release(struct facts *f)
{
	probe_cpu_free(&f->cpu);
	for (size_t i = 0; i < f->tasks.n; i++)
		rtr_cpuset_free(&f->tasks.tasks[i].allowed);
	free(f->tasks.tasks);
}

/*
 * Through the shared harness: it aborts on an unknown id and on a check that
 * leaves no evidence, so a check that does nothing cannot pass a skip assertion.
 */
static struct result run(const struct facts *f, const char *rt, const char *id)
{
	struct result r;

	run_check(f, rt ? rt : "", id, &r);
	return r;
}

#define assert_contains(hay, needle)                                                     \
	do {                                                                             \
		if (!strstr((hay), (needle)))                                            \
			fail_msg("'%s' not in '%s'", (needle), (hay));                  \
	} while (0)

static void test_tuned_passes(void **state)
{
	static const char *const ids[] = { "cpu.isolation", "cpu.maxcpus", "cpu.smt",
					   "cpu.cache_sharing", "cpu.tasks_on_rt_cpus",
					   "cpu.workqueue", "cpu.governor", "cpu.idle",
					   "cpu.timer_migration" };
	struct facts f;

	(void)state;
	tuned(&f);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct result r = run(&f, "2-3,6-7", ids[i]);

		if (r.status != RTR_PASS)
			fail_msg("%s: status %d: %s", ids[i], r.status, r.evidence);
	}
	release(&f);
}

static void test_isolation(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	r = run(&f, "1-3,6-7", "cpu.isolation");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "Not isolated from the scheduler: 1 ");
	assert_contains(r.fix, "isolcpus=domain,managed_irq,1-3,6-7 nohz_full=1-3,6-7 "
			       "rcu_nocbs=1-3,6-7 irqaffinity=0,4-5");
	/* irqaffinity= that includes an RT CPU. */
	f.cpu.irqaffinity.given = true;
	strcpy(f.cpu.irqaffinity.text, "0-2");
	set(&f.cpu.irqaffinity.cpus, "0-2");
	r = run(&f, "2-3,6-7", "cpu.isolation");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "irqaffinity= sends interrupts to RT CPUs");
	release(&f);

	/* No RT CPUs anywhere: warn, with an example command line. */
	tuned(&f);
	rtr_cpuset_clear(&f.cpu.isolated);
	r = run(&f, NULL, "cpu.isolation");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "--rt-cpus");
	assert_contains(r.fix, "isolcpus=domain,managed_irq,7 nohz_full=7 rcu_nocbs=7 "
			       "irqaffinity=0-6");
	release(&f);
}

/* Runtime isolation: a cpuset partition and no boot line. */
static void test_isolation_partition(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	rtr_cpuset_clear(&f.cpu.isolated);
	rtr_cpuset_clear(&f.cpu.nohz_full);
	f.cpu.isolcpus.given = false;
	f.partition.hier = PARTITION_HIER_V2;
	set(&f.partition.isolated, "2-3,6-7");
	f.partition.groups = calloc(2, sizeof(*f.partition.groups));
	f.partition.n_groups = 2;
	strcpy(f.partition.groups[0].path, "/rtready-isolated");
	strcpy(f.partition.groups[0].type, "isolated");
	f.partition.groups[0].valid = true;
	strcpy(f.partition.groups[1].path, "/broken");
	strcpy(f.partition.groups[1].type, "isolated");
	strcpy(f.partition.groups[1].reason, "Parent is not a partition root");
	r = run(&f, "2-3,6-7", "cpu.isolation");
	assert_int_equal(r.status, RTR_PASS);
	assert_contains(r.evidence, "partition /rtready-isolated (cpuset.cpus.isolated 2-3,6-7)");
	assert_contains(r.evidence, "boot line would still add: nohz_full=");
	assert_contains(r.evidence, "rcu_nocbs= (RCU callbacks still run on 2-3,6-7)");
	assert_contains(r.evidence, "isolcpus=managed_irq");
	assert_contains(r.evidence, "/broken is 'isolated invalid' (Parent is not a partition root)");
	/* A partition that covers only part of the RT CPUs is no isolation of the rest. */
	r = run(&f, "1-3,6-7", "cpu.isolation");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "Not isolated from the scheduler: 1 ");
	/* A kernel before 6.8: no cpuset.cpus.isolated, so nothing is isolated at run time. */
	f.partition.isolated_err = -ENOENT;
	r = run(&f, "2-3,6-7", "cpu.isolation");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.fix, "no cpuset.cpus.isolated");
	probe_partition_free(&f.partition);
	release(&f);
}

static void test_no_rt_is_info(void **state)
{
	static const char *const ids[] = { "cpu.smt", "cpu.cache_sharing", "cpu.tasks_on_rt_cpus",
					   "cpu.workqueue", "cpu.governor", "cpu.idle" };
	struct facts f;

	(void)state;
	tuned(&f);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct result r = run(&f, NULL, ids[i]);

		assert_int_equal(r.status, RTR_INFO);
		assert_contains(r.evidence, "no RT CPUs declared");
	}
	release(&f);
}

static void test_maxcpus(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	set(&f.cpu.online, "0-5");
	f.cpu.maxcpus_given = true;
	f.cpu.maxcpus = 6;
	r = run(&f, "2-3", "cpu.maxcpus");
	assert_int_equal(r.status, RTR_INFO);
	assert_contains(r.evidence, "Present but offline: 6-7");
	assert_contains(r.evidence, "maxcpus=6");
	r = run(&f, "2-3,6-7", "cpu.maxcpus");
	assert_int_equal(r.status, RTR_FAIL);
	assert_contains(r.fix, "echo 1 > /sys/devices/system/cpu/cpu6/online");
	f.cpu.online_err = -ENOENT;
	r = run(&f, "2-3", "cpu.maxcpus");
	assert_int_equal(r.status, RTR_SKIP);
	release(&f);
}

static void test_smt_and_cache(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	r = run(&f, "2-3", "cpu.smt");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "CPU 2 shares its core with non-RT CPU 6");
	assert_contains(r.fix, "nosmt");
	assert_contains(r.fix, "add 6-7 to --rt-cpus");
	r = run(&f, "2-3", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "L1 Data cache of CPU 2 is shared with non-RT CPU 6");
	assert_contains(r.evidence, "L2 Unified cache of CPU 2 is shared with non-RT CPU 6");
	/* A VM: no cache directories at all. */
	for (size_t i = 0; i < f.cpu.n_cpus; i++) {
		for (size_t j = 0; j < f.cpu.cpus[i].n_caches; j++)
			rtr_cpuset_free(&f.cpu.cpus[i].caches[j].shared);
		f.cpu.cpus[i].n_caches = 0;
	}
	r = run(&f, "2-3", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_SKIP);
	release(&f);
}

/*
 * Cache directories whose sharing files could not be read (POWER7 without
 * shared_cpu_map support, an emptied snapshot): never a pass on them.
 */
static void test_cache_unread(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	/* RT CPUs 2-3,6-7 are whole pairs: a pass while everything is read. */
	r = run(&f, "2-3,6-7", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_PASS);
	/* Every L1/L2 of the RT CPUs unreadable: skip, saying which file and why. */
	for (size_t i = 0; i < f.cpu.n_cpus; i++)
		for (size_t j = 0; j < f.cpu.cpus[i].n_caches; j++) {
			f.cpu.cpus[i].caches[j].index = (int)j;
			f.cpu.cpus[i].caches[j].shared_err = -ENODATA;
			rtr_cpuset_clear(&f.cpu.cpus[i].caches[j].shared);
		}
	r = run(&f, "2-3,6-7", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_SKIP);
	assert_contains(r.evidence, "cpu2/cache/index0/shared_cpu_list (and shared_cpu_map) is empty");
	/* One RT CPU read in full, the others not: info, naming the unread ones. */
	set(&f.cpu.cpus[2].caches[0].shared, "2,6");
	set(&f.cpu.cpus[2].caches[1].shared, "2,6");
	f.cpu.cpus[2].caches[0].shared_err = f.cpu.cpus[2].caches[1].shared_err = 0;
	r = run(&f, "2-3,6-7", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_INFO);
	assert_contains(r.evidence, "some caches of RT CPUs 3,6-7 could not be read");
	/* Only the L2 of CPU 3 unread: CPU 3 is not complete, still info. */
	for (int c = 3; c < 8; c++)
		for (int j = 0; j < 2; j++) {
			char pair[16];

			snprintf(pair, sizeof(pair), "%d,%d", c % 4, c % 4 + 4);
			set(&f.cpu.cpus[c].caches[j].shared, pair);
			f.cpu.cpus[c].caches[j].shared_err = 0;
		}
	f.cpu.cpus[3].caches[1].shared_err = -ENOENT;
	rtr_cpuset_clear(&f.cpu.cpus[3].caches[1].shared);
	r = run(&f, "2-3,6-7", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_INFO);
	assert_contains(r.evidence, "cannot read cpu3/cache/index1/shared_cpu_list");
	/* A sharing found among what was read still warns. */
	r = run(&f, "2-3", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_WARN);
	/* Read from the masks: the evidence says so. */
	f.cpu.cpus[3].caches[1].shared_err = 0;
	set(&f.cpu.cpus[3].caches[1].shared, "3,7");
	f.cpu.cpus[3].caches[1].shared_from_mask = true;
	r = run(&f, "2-3,6-7", "cpu.cache_sharing");
	assert_int_equal(r.status, RTR_PASS);
	assert_contains(r.evidence, "shared_cpu_map");
	/* SMT siblings unreadable (an empty thread_siblings_list): skip, not pass. */
	for (size_t i = 0; i < f.cpu.n_cpus; i++) {
		f.cpu.cpus[i].siblings_err = -ENODATA;
		rtr_cpuset_clear(&f.cpu.cpus[i].siblings);
	}
	r = run(&f, "2-3,6-7", "cpu.smt");
	assert_int_equal(r.status, RTR_SKIP);
	assert_contains(r.evidence, "cpu2/topology/thread_siblings_list is empty");
	release(&f);
}

static void test_tasks(void **state)
{
	struct facts f;
	struct result r;
	struct task_info t = { .pid = 700, .tid = 701, .comm = "sshd" };
	struct task_info k = { .pid = 30, .tid = 30, .comm = "kworker/u16:1", .kthread = true };
	struct task_info pk = { .pid = 31, .tid = 31, .comm = "ksoftirqd/2", .kthread = true,
				.per_cpu = true };

	(void)state;
	tuned(&f);
	set(&t.allowed, "0-7");
	set(&k.allowed, "0-7");
	set(&pk.allowed, "2");
	assert_int_equal(tasks_append(&f.tasks, &t), 0);
	assert_int_equal(tasks_append(&f.tasks, &k), 0);
	assert_int_equal(tasks_append(&f.tasks, &pk), 0);
	r = run(&f, "2-3", "cpu.tasks_on_rt_cpus");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "1 user threads, 1 unbound kernel threads; pinned to RT CPUs "
				    "only: 1");
	assert_contains(r.evidence, "pid 700 (sshd)");
	assert_contains(r.fix, "taskset -a -p -c 0-1,4-7 PID");
	f.tasks.err = -EACCES;
	r = run(&f, "2-3", "cpu.tasks_on_rt_cpus");
	assert_int_equal(r.status, RTR_SKIP);
	rtr_cpuset_free(&t.allowed);
	rtr_cpuset_free(&k.allowed);
	rtr_cpuset_free(&pk.allowed);
	release(&f);
}

static void test_workqueue_governor_idle_timer(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	set(&f.cpu.workqueue, "0-7");
	r = run(&f, "2-3,6-7", "cpu.workqueue");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.fix, "echo 00000033 > /sys/devices/virtual/workqueue/cpumask");
	f.cpu.workqueue_err = -ENOENT;
	assert_int_equal(run(&f, "2-3", "cpu.workqueue").status, RTR_SKIP);

	strcpy(f.cpu.cpus[3].governor, "schedutil");
	r = run(&f, "2-3", "cpu.governor");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "CPU 3: schedutil");
	assert_contains(r.fix, "cpupower -c 3 frequency-set -g performance");
	assert_contains(r.fix, "cpufreq.default_governor=performance");
	for (size_t i = 0; i < f.cpu.n_cpus; i++)
		f.cpu.cpus[i].governor_err = -ENOENT;
	assert_int_equal(run(&f, "2-3", "cpu.governor").status, RTR_INFO);

	f.cpu.cpus[2].idle[1].disable = 0;
	r = run(&f, "2-3", "cpu.idle");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "C6 (state1, exit 133 us)");
	assert_contains(r.fix, "cpupower -c 2 idle-set -D 20");
	for (size_t i = 0; i < f.cpu.n_cpus; i++)
		f.cpu.cpus[i].n_idle = 0;
	r = run(&f, "2-3", "cpu.idle");
	assert_int_equal(r.status, RTR_INFO);
	assert_contains(r.evidence, "idle system");

	f.cpu.timer_migration = 1;
	assert_int_equal(run(&f, NULL, "cpu.timer_migration").status, RTR_WARN);
	f.cpu.timer_migration_err = -ENOENT;
	assert_int_equal(run(&f, NULL, "cpu.timer_migration").status, RTR_SKIP);
	release(&f);
}

static void test_default_rt_cpus(void **state)
{
	struct rtcpus rt = RTCPUS_INIT;
	struct rtr_cpuset given = RTR_CPUSET_INIT;
	struct facts f;
	char buf[64];

	(void)state;
	tuned(&f);
	assert_int_equal(rtcpus_resolve(&f.cpu, NULL, &rt), 0);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "2-3,6-7");
	assert_string_equal(rtcpus_source_name(rt.source), "isolated CPUs");
	/* --rt-cpus wins over everything. */
	set(&given, "1");
	assert_int_equal(rtcpus_resolve(&f.cpu, &given, &rt), 0);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	assert_string_equal(rtcpus_source_name(rt.source), "--rt-cpus");
	rtr_cpuset_free(&given);
	/* No sysfs file: the command line stands in. */
	f.cpu.isolated_err = -ENOENT;
	set(&f.cpu.isolcpus.cpus, "3");
	assert_int_equal(rtcpus_resolve(&f.cpu, NULL, &rt), 0);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	assert_string_equal(rtcpus_source_name(rt.source), "isolcpus=");
	/* Nothing isolated, nohz_full only. */
	f.cpu.isolcpus.given = false;
	set(&f.cpu.nohz_full, "5");
	assert_int_equal(rtcpus_resolve(&f.cpu, NULL, &rt), 0);
	assert_string_equal(rtcpus_source_name(rt.source), "nohz_full");
	/* An isolated file that exists but is empty (only nohz_full= booted). */
	f.cpu.isolated_err = 0;
	rtr_cpuset_clear(&f.cpu.isolated);
	assert_int_equal(rtcpus_resolve(&f.cpu, NULL, &rt), 0);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "5");
	assert_string_equal(rtcpus_source_name(rt.source), "nohz_full");
	/* Nothing at all. */
	rtr_cpuset_clear(&f.cpu.nohz_full);
	assert_int_equal(rtcpus_resolve(&f.cpu, NULL, &rt), 0);
	assert_null(rtcpus_source_name(rt.source));
	assert_true(rtr_cpuset_is_empty(&rt.cpus));
	rtcpus_free(&rt);
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned_passes),
		cmocka_unit_test(test_isolation),
		cmocka_unit_test(test_isolation_partition),
		cmocka_unit_test(test_no_rt_is_info),
		cmocka_unit_test(test_maxcpus),
		cmocka_unit_test(test_smt_and_cache),
		cmocka_unit_test(test_cache_unread),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_workqueue_governor_idle_timer),
		cmocka_unit_test(test_default_rt_cpus),
	};

	return unit_run(tests, NULL, NULL);
}
