// SPDX-License-Identifier: MIT
/* The sched.* checks as pure functions of hand-made facts: every status path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit.h"

#include "checks-helper.h"

static void add_task(struct facts *f, int pid, int tid, const char *comm, int policy, int prio,
		     bool kthread, const char *cpus)
{
	struct task_info t = { .pid = pid, .tid = tid, .policy = policy, .rt_priority = prio,
			       .kthread = kthread, .last_cpu = 0 };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	assert_int_equal(rtr_cpuset_parse_list(&t.allowed, cpus), 0);
	f->tasks.err = 0;
	assert_int_equal(tasks_append(&f->tasks, &t), 0);
	rtr_cpuset_free(&t.allowed);
}

static void throttling(void **state)
{
	struct facts *f = facts_blank();
	struct sched_facts *s = &f->sched;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_SKIP);
	s->rt_runtime_err = 0;
	s->rt_runtime_us = 950000;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_WARN);
	assert_has(r.evidence, "sched_rt_period_us unreadable");
	s->rt_period_err = 0;
	s->rt_period_us = 1000000;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_WARN);
	assert_has(r.evidence, "none runs for 50000 us");
	assert_string_equal(r.fix, "");	/* the row's fix */
	s->rt_runtime_us = -1;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_PASS);
	s->rt_runtime_us = 1000000;	/* the whole period: no throttling either */
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_PASS);

	/* 6.12+: the fair server. */
	f->kernel.major = 6;
	f->kernel.minor = 12;
	s->rt_runtime_us = -1;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_PASS);
	assert_has(r.evidence, "not readable");
	s->fair_server_err = 0;
	s->fair_server_cpus = 4;
	s->fair_runtime_min_ns = s->fair_runtime_max_ns = 50000000;
	s->fair_period_ns = 1000000000;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_WARN);
	assert_has(r.evidence, "50000000..50000000 ns per 1000000000 ns");
	assert_has(r.fix, "fair_server/cpuN/runtime");
	s->rt_runtime_us = 950000;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_WARN);
	assert_has(r.fix, "sched_rt_runtime_us=-1");
	assert_has(r.fix, "fair_server");
	/* Reserved only on CPUs 0-1, the RT CPUs are 2-3: as it should be. */
	s->rt_runtime_us = -1;
	s->fair_runtime_min_ns = 0;
	assert_int_equal(rtr_cpuset_parse_list(&s->fair_reserving, "0-1"), 0);
	assert_int_equal(run_check(f, "2-3", "sched.rt_throttling", &r), RTR_PASS);
	assert_has(r.evidence, "0 on every RT CPU");
	assert_int_equal(run_check(f, "1-2", "sched.rt_throttling", &r), RTR_WARN);
	s->fair_runtime_min_ns = s->fair_runtime_max_ns = 0;
	rtr_cpuset_clear(&s->fair_reserving);
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_PASS);
	/* Before 6.12 there is no fair server to speak of. */
	f->kernel.minor = 6;
	s->fair_runtime_max_ns = 50000000;
	assert_int_equal(run_check(f, "", "sched.rt_throttling", &r), RTR_PASS);
	facts_blank_free(f);
}

static void rt_group(void **state)
{
	struct facts *f = facts_blank();
	struct rtgroup_facts *g = &f->sched.rtg;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_SKIP);
	set_config(f, "# CONFIG_RT_GROUP_SCHED is not set\n");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	set_config(f, "CONFIG_RT_GROUP_SCHED=y\n");
	/* No hierarchy holds cpu, but this process's group was not read: never a pass. */
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	assert_has(r.evidence, "/proc/self/cgroup");
	g->self = RTGROUP_SELF_ROOT;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	assert_has(r.evidence, "root group");

	/* cgroup v1: groups with budgets, two without, neither busy, we are in the root. */
	g->err = 0;
	g->hier = RTGROUP_V1;
	strcpy(g->mount, "/sys/fs/cgroup/cpu");
	strcpy(g->self_group, "/sys/fs/cgroup/cpu");
	g->groups = 5;
	g->zero = 2;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	g->zero_busy = 1;
	strcpy(g->zero_example, "/sys/fs/cgroup/cpu/system.slice/app.service");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	assert_has(r.evidence, "app.service");
	assert_has(r.fix, "/sys/fs/cgroup/cpu/system.slice/app.service");
	assert_has(r.fix, "cpu.rt_runtime_us");
	/* We are in a v1 group without a budget: fail, with that group's remedy. */
	g->self = RTGROUP_SELF_ZERO;
	g->self_runtime_us = 0;
	strcpy(g->self_cgroup, "/user.slice");
	strcpy(g->self_group, "/sys/fs/cgroup/cpu/user.slice");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_FAIL);
	assert_has(r.evidence, "/sys/fs/cgroup/cpu/user.slice) has cpu.rt_runtime_us = 0");
	assert_has(r.evidence, "EPERM");
	assert_has(r.fix, "down to /sys/fs/cgroup/cpu/user.slice");

	/* cgroup v2, the host of the report: the shell's group takes cpu, no budget. */
	g->hier = RTGROUP_V2;
	g->zero_busy = 0;
	strcpy(g->mount, "/sys/fs/cgroup");
	strcpy(g->self_cgroup, "/process_api/7f3e");
	strcpy(g->self_group, "/sys/fs/cgroup/process_api/7f3e");
	strcpy(g->self_controllers, "cpuset cpu io memory pids");
	strcpy(g->self_enabled_in, "/sys/fs/cgroup/process_api");
	g->self_runtime_us = -1;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_FAIL);
	assert_has(r.evidence, "cgroup v2");
	assert_has(r.evidence, "cpuset cpu io memory pids");
	assert_has(r.evidence, "/sys/fs/cgroup/process_api/cgroup.subtree_control");
	assert_has(r.evidence, "v2 has no cpu.rt_runtime_us");
	assert_has(r.fix, "echo $$ > /sys/fs/cgroup/cgroup.procs");
	assert_has(r.fix, "echo -cpu > CGROUP/cgroup.subtree_control");
	assert_has(r.fix, "(Linux 6.16+) boot with rt_group_sched=0");
	f->kernel.major = 6;
	f->kernel.minor = 18;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_FAIL);
	assert_has(r.fix, "this kernel has the parameter");
	/* A group below the one with the controller is charged to it. */
	strcpy(g->self_cgroup, "/process_api/7f3e/leaf");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_FAIL);
	assert_has(r.evidence, "/process_api/7f3e/leaf is charged to /sys/fs/cgroup/process_api/7f3e");
	/* Throttling off: the kernel skips the budget test (seen on this kernel). */
	f->sched.rt_runtime_err = 0;
	f->sched.rt_runtime_us = -1;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	assert_has(r.evidence, "sched_rt_runtime_us = -1");
	f->sched.rt_runtime_us = 950000;
	/* Off by default in the build, or on the command line. */
	set_config(f, "CONFIG_RT_GROUP_SCHED=y\nCONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED=y\n");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	set_cmdline(f, "rt_group_sched=1");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_FAIL);
	set_cmdline(f, "rt_group_sched=0");
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	set_cmdline(f, "quiet");
	set_config(f, "CONFIG_RT_GROUP_SCHED=y\n");
	/* Our group out of sight, or unread while groups without budget exist. */
	g->self = RTGROUP_SELF_HIDDEN;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	g->self = RTGROUP_SELF_UNKNOWN;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	g->zero = 0;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	g->truncated = true;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	g->truncated = false;
	/* A group that could not be read leaves the verdict open, even from the root. */
	g->self = RTGROUP_SELF_ROOT;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_PASS);
	g->unread = 2;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_WARN);
	assert_has(r.evidence, "2 groups under /sys/fs/cgroup could not be read");
	g->unread = 0;
	/* The mounts could not be read at all. */
	g->err = -EACCES;
	assert_int_equal(run_check(f, "", "sched.rt_group", &r), RTR_SKIP);
	facts_blank_free(f);
}

static void prio99(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_SKIP);
	f->tasks.err = 0;
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_SKIP);	/* empty list */
	f->tasks.unreadable = 3;
	f->tasks.first_unreadable_err = -EACCES;
	strcpy(f->tasks.first_unreadable, "/proc/1/task/1/stat");
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_SKIP);
	assert_has(r.evidence, "/proc/1/task/1/stat");
	f->tasks.unreadable = 0;
	add_task(f, 1, 1, "init", 0, 0, false, "0-3");
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_PASS);
	add_task(f, 15, 15, "migration/0", 1, 99, true, "0");
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_PASS);
	assert_has(r.evidence, "1 kernel threads");
	add_task(f, 500, 502, "a) (b", 2, 99, false, "2-3");
	assert_int_equal(run_check(f, "", "sched.prio99", &r), RTR_FAIL);
	assert_has(r.evidence, "a) (b (pid 500 tid 502) RR 99 cpus 2-3");
	facts_blank_free(f);
}

static void rt_tasks(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.rt_tasks", &r), RTR_SKIP);
	add_task(f, 1, 1, "init", 0, 0, false, "0-3");
	assert_int_equal(run_check(f, "", "sched.rt_tasks", &r), RTR_INFO);
	assert_has(r.evidence, "1 tasks, 0 realtime");
	add_task(f, 30, 30, "irq/9-acpi", 1, 50, true, "0");
	add_task(f, 700, 700, "cyclictest", 1, 80, false, "2");
	f->tasks.vanished = 2;
	f->tasks.unreadable = 1;
	f->tasks.first_unreadable_err = -EINVAL;
	strcpy(f->tasks.first_unreadable, "/proc/9/task/9/stat");
	assert_int_equal(run_check(f, "", "sched.rt_tasks", &r), RTR_INFO);
	assert_has(r.evidence, "cyclictest (pid 700) FIFO 80 cpus 2");
	assert_has(r.evidence, "1 of them IRQ threads");
	assert_has(r.evidence, "1 tasks unreadable");
	facts_blank_free(f);
}

static void deadline_mix(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_SKIP);
	add_task(f, 700, 700, "ctl", 1, 80, false, "2");
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_PASS);
	add_task(f, 800, 800, "dl", 6, 0, false, "3");
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_WARN);
	assert_has(r.evidence, "dl (pid 800) DEADLINE");
	probe_tasks_free(&f->tasks);
	add_task(f, 800, 800, "dl", 6, 0, false, "3");
	add_task(f, 15, 15, "migration/0", 1, 99, true, "0");	/* kernel: not counted */
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_PASS);
	/* schedutil's sugov:N kthreads are DEADLINE, but no mix of the user's. */
	probe_tasks_free(&f->tasks);
	add_task(f, 700, 700, "ctl", 1, 80, false, "2");
	add_task(f, 211, 211, "sugov:0", 6, 0, true, "0");
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_PASS);
	add_task(f, 212, 212, "sugov:1", 6, 0, false, "1");	/* a user task of that name */
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_WARN);
	/* In a child PID namespace the host's FIFO/RR tasks are not listed: no pass. */
	probe_tasks_free(&f->tasks);
	add_task(f, 800, 800, "dl", 6, 0, false, "3");
	f->tasks.pidns_child = true;
	snprintf(f->tasks.pidns_link, sizeof(f->tasks.pidns_link), "pid:[4026532174]");
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_SKIP);
	assert_has(r.evidence, "child PID namespace (/proc/self/ns/pid is pid:[4026532174]");
	assert_has(r.fix, "on the host");
	add_task(f, 700, 700, "ctl", 1, 80, false, "2");	/* a mix seen is a mix */
	assert_int_equal(run_check(f, "", "sched.deadline_mix", &r), RTR_WARN);
	facts_blank_free(f);
}

/* dlbw's parsers: the debug file's dl_rq sections and the snapshot's task lines. */
static void dlbw_parsers(void **state)
{
	static const char debug[] =
		"Sched Debug Version: v0.11, 6.12.0 #1\n"
		"cpu#0, 2900.000 MHz\n  .nr_running                    : 1\n\n"
		"dl_rq[0]:\n  .dl_nr_running                 : 0\n"
		"  .dl_bw->bw                     : 996147\n"
		"  .dl_bw->total_bw               : 104857\n\n"
		"runnable tasks:\n S task\n\n"
		"dl_rq[1]:\n  .dl_bw->total_bw               : 5\n  .dl_bw->bw                     : -1\n";
	struct dlbw_facts f = { 0 };
	struct dlbw_cpu *c;
	size_t n;

	(void)state;
	assert_int_equal(dlbw_parse_sched_debug(debug, &c, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(c[0].cpu, 0);
	assert_int_equal(c[0].bw, 996147);
	assert_int_equal(c[0].total_bw, 104857);
	assert_int_equal(c[1].cpu, 1);
	assert_int_equal(c[1].bw, -1);
	assert_int_equal(c[1].total_bw, 5);
	free(c);
	assert_int_equal(dlbw_parse_sched_debug("cpu#0\n", &c, &n), -ENOENT);
	/* A section without its total, a bad number, a bad CPU: malformed. */
	assert_int_equal(dlbw_parse_sched_debug("dl_rq[0]:\n  .dl_bw->bw : 1\nx\n", &c, &n),
			 -EINVAL);
	assert_int_equal(dlbw_parse_sched_debug("dl_rq[0]:\n  .dl_bw->bw : x\n", &c, &n),
			 -EINVAL);
	assert_int_equal(dlbw_parse_sched_debug("dl_rq[x]:\n", &c, &n), -EINVAL);
	assert_int_equal(dlbw_ratio(1000000, 100000), 104857);
	assert_int_equal(dlbw_ratio(0, 1), 0);

	assert_int_equal(dlbw_parse_snapshot("# comment\n12 13 100000 1000000 1000000\n"
					     "12 14 500000 1000000 2000000\n", &f), 0);
	assert_int_equal(f.n_tasks, 2);
	assert_int_equal(f.tasks[1].tid, 14);
	assert_int_equal(f.tasks_bw, 104857 + 262144);
	/* A snapshot's sugov:N kthreads (named in its /proc) are left out. */
	{
		struct tasks_facts t = { 0 };
		struct task_info k = { .pid = 12, .tid = 13, .policy = 6, .kthread = true };

		snprintf(k.comm, sizeof(k.comm), "sugov:0");
		assert_int_equal(tasks_append(&t, &k), 0);
		dlbw_drop_sugov(&f, &t);
		assert_int_equal(f.n_tasks, 1);
		assert_int_equal(f.sugov, 1);
		assert_int_equal(f.tasks[0].tid, 14);
		assert_int_equal(f.tasks_bw, 262144);
		probe_tasks_free(&t);
	}
	probe_dlbw_free(&f);
	assert_int_equal(dlbw_parse_snapshot("12 13 100000\n", &f), -EINVAL);
	probe_dlbw_free(&f);
	assert_int_equal(dlbw_parse_snapshot("12 13 1 1 0\n", &f), -EINVAL);
	probe_dlbw_free(&f);
}

/* The dl.* lines of /proc/PID/task/TID/sched. */
static void dlbw_proc_sched(void **state)
{
	struct dlbw_sched_fields s;

	(void)state;
	assert_int_equal(dlbw_parse_proc_sched(
		"dl-app (4619, #threads: 2)\n----\nse.exec_start   :   12.5\n"
		"policy                                       :                    6\n"
		"dl.runtime                                   :              -175624\n"
		"dl.deadline                                  :       12529728707929\n", &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.key[0], "dl.runtime");
	assert_int_equal(s.value[0], -175624);
	assert_string_equal(s.key[1], "dl.deadline");
	assert_int_equal(s.value[1], 12529728707929LL);
	assert_int_equal(dlbw_parse_proc_sched("policy : 0\n", &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(dlbw_parse_proc_sched("dl.runtime : x\n", &s), -EINVAL);
	assert_int_equal(dlbw_parse_proc_sched("dl.runtime\n", &s), -EINVAL);
}

/* The debug file read, each of the two CPUs at @total_bw; or not readable. */
static void debug_file(struct dlbw_facts *d, struct dlbw_cpu *cpus, uint64_t total_bw)
{
	d->debug_err = 0;
	d->cpus = cpus;
	d->n_cpus = 2;
	cpus[0].total_bw = cpus[1].total_bw = total_bw;
}

static void no_debug_file(struct dlbw_facts *d)
{
	d->cpus = NULL;
	d->n_cpus = 0;
	d->debug_err = -EPERM;
}

static void deadline_bandwidth(void **state)
{
	struct facts *f = facts_blank();
	struct sched_facts *s = &f->sched;
	struct dlbw_facts *d = &f->dlbw;
	struct dlbw_cpu cpus[2] = { { 0, 996147, 0 }, { 1, 996147, 0 } };
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_SKIP);
	s->rt_runtime_err = s->rt_period_err = 0;
	s->rt_runtime_us = 950000;
	s->rt_period_us = 1000000;
	f->cpu.online_err = 0;
	f->cpu.isolated_err = -ENOENT;
	assert_int_equal(rtr_cpuset_parse_list(&f->cpu.online, "0-1"), 0);
	/* Neither the debug file nor the tasks: skip, saying both. */
	d->tasks_err = -ENOTSUP;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_SKIP);
	assert_has(r.evidence, "sched_getattr needs the live machine");

	/* The debug file: 10% of 190% allocated. */
	debug_file(d, cpus, 104857);
	snprintf(d->debug_path, sizeof(d->debug_path), "/sys/kernel/debug/sched/debug");
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "main root domain (CPU 0-1): 10.0% of a CPU allocated");
	assert_has(r.evidence, "limit 190.0%");
	assert_has(r.evidence, "180.0% left");
	/* Past 80% of the limit: warn, with the fix. */
	cpus[0].total_bw = cpus[1].total_bw = 1600000;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_WARN);
	assert_has(r.fix, "EBUSY");
	no_debug_file(d);

	/* The tasks (live), with the fair servers' default on 6.12+. */
	d->tasks_err = 0;
	add_task(f, 50, 51, "dl", 6, 0, false, "0-1");
	d->tasks = calloc(1, sizeof(*d->tasks));
	assert_non_null(d->tasks);
	*d->tasks = (struct dlbw_task){ 50, 51, "dl", 300000, 1000000, 1000000 };
	d->n_tasks = 1;
	d->tasks_bw = dlbw_ratio(1000000, 300000);
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "1 DEADLINE thread reserves 30.0% of a CPU (sched_getattr)");
	assert_has(r.evidence, "160.0% left");
	assert_null(strstr(r.evidence, "fair servers"));
	/* 6.12 leaves the fair servers out of the admission; later kernels count them. */
	f->kernel.major = 6;
	f->kernel.minor = 12;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_null(strstr(r.evidence, "fair servers"));
	f->kernel.minor = 18;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "fair servers 10.0% (their default 50 ms per second, assumed");
	assert_has(r.evidence, "150.0% left");
	/* Isolated CPU 1: a root domain of its own; the task spans 0-1, counted in both. */
	f->cpu.isolated_err = 0;
	assert_int_equal(rtr_cpuset_parse_list(&f->cpu.isolated, "1"), 0);
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "main root domain (CPU 0)");
	assert_has(r.evidence, "isolcpus root domain (CPU 1)");
	/* A child PID namespace's /proc: the sum misses the host's tasks, no pass. */
	f->tasks.pidns_child = true;
	f->tasks.pidns_levels = 2;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_SKIP);
	assert_has(r.evidence, "NSpid of /proc/self/status has 2 ids");
	assert_has(r.evidence, "covers only the DEADLINE threads of this namespace");
	assert_has(r.fix, "on the host");
	/* ... unless what it sees is already near the limit. */
	d->tasks->runtime_ns = 900000;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_WARN);
	d->tasks->runtime_ns = 300000;
	f->tasks.pidns_child = false;
	/* big.LITTLE: the limit is the capacity sum (2 x 446 here), not 2 CPUs. */
	f->cpu.isolated_err = -ENOENT;
	f->cpu.cpus = calloc(2, sizeof(*f->cpu.cpus));
	assert_non_null(f->cpu.cpus);
	f->cpu.n_cpus = 2;
	f->cpu.cpus[0] = (struct cpu_info){ .cpu = 0, .capacity = 446 };
	f->cpu.cpus[1] = (struct cpu_info){ .cpu = 1, .capacity = 446 };
	d->tasks->runtime_ns = 600000;	/* 60%, and the fair servers' 10% */
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "limit 190.0% (950000/1000000 of each of 2 CPUs)");
	f->cpu.capacity_asym = true;	/* bigger cores elsewhere: the kernel weighs all */
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_WARN);
	assert_has(r.evidence, "limit 82.8% (950000/1000000 of the capacity of its 2 CPUs");
	assert_has(r.evidence, "892/1024 in all");
	/* The same from the debug file's dl_bw->bw. */
	debug_file(d, cpus, 104857);
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_PASS);
	assert_has(r.evidence, "limit 82.8%");
	no_debug_file(d);
	f->cpu.capacity_asym = false;
	d->tasks->runtime_ns = 300000;
	/* Throttling off: admission control off. */
	s->rt_runtime_us = -1;
	assert_int_equal(run_check(f, "", "sched.deadline_bandwidth", &r), RTR_INFO);
	assert_has(r.evidence, "admission control is off");
	facts_blank_free(f);
}

/* The root domains that cpuset partitions and isolcpus make (dlbw_domains). */
static void add_group(struct partition_facts *p, const char *path, const char *type, bool valid,
		      const char *cpus)
{
	struct partition_group *g;

	p->groups = realloc(p->groups, (p->n_groups + 1) * sizeof(*p->groups));
	assert_non_null(p->groups);
	g = &p->groups[p->n_groups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s", path);
	snprintf(g->type, sizeof(g->type), "%s", type);
	g->valid = valid;
	assert_int_equal(rtr_cpuset_parse_list(&g->cpus, cpus), 0);
}

static void dlbw_domain_split(void **state)
{
	struct facts *f = facts_blank();
	struct dlbw_domains d;
	char list[64];

	(void)state;
	f->cpu.online_err = 0;
	assert_int_equal(rtr_cpuset_parse_list(&f->cpu.online, "0-7"), 0);
	f->cpu.isolated_err = 0;
	assert_int_equal(rtr_cpuset_parse_list(&f->cpu.isolated, "7"), 0);
	/* No partitions: main and isolcpus, as before. */
	assert_int_equal(dlbw_domains(&f->cpu, &f->partition, &d), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.d[1].name, "isolcpus");
	assert_false(d.partitions);
	dlbw_domains_free(&d);
	/* A root partition is a domain; an isolated one joins isolcpus; an invalid one is nothing. */
	f->partition.hier = PARTITION_HIER_V2;
	add_group(&f->partition, "/rt", "root", true, "2-3");
	add_group(&f->partition, "/iso", "isolated", true, "5-6");
	add_group(&f->partition, "/bad", "root", false, "4");
	assert_int_equal(dlbw_domains(&f->cpu, &f->partition, &d), 0);
	assert_int_equal(d.n, 3);
	rtr_cpuset_format_list(&d.d[0].cpus, list, sizeof(list));
	assert_string_equal(d.d[0].name, "main");
	assert_string_equal(list, "0-1,4");
	rtr_cpuset_format_list(&d.d[1].cpus, list, sizeof(list));
	assert_string_equal(d.d[1].name, "default (isolcpus and isolated partitions)");
	assert_string_equal(list, "5-7");
	assert_string_equal(d.d[2].name, "cpuset partition /rt");
	assert_true(d.partitions);
	assert_string_equal(d.unmapped, "");
	dlbw_domains_free(&d);
	/* A partition whose CPUs were not read: the split is not known. */
	add_group(&f->partition, "/lost", "root", true, "");
	assert_int_equal(dlbw_domains(&f->cpu, &f->partition, &d), 0);
	assert_non_null(strstr(d.unmapped, "/lost"));
	dlbw_domains_free(&d);
	/* cpuset v1 with a root that balances nothing. */
	f->partition.hier = PARTITION_HIER_V1;
	f->partition.v1_balance = 0;
	assert_int_equal(dlbw_domains(&f->cpu, &f->partition, &d), 0);
	assert_int_equal(d.n, 2);
	assert_non_null(strstr(d.unmapped, "sched_load_balance 0"));
	dlbw_domains_free(&d);
	facts_blank_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(throttling),
		cmocka_unit_test(rt_group),
		cmocka_unit_test(prio99),
		cmocka_unit_test(rt_tasks),
		cmocka_unit_test(deadline_mix),
		cmocka_unit_test(dlbw_parsers),
		cmocka_unit_test(dlbw_proc_sched),
		cmocka_unit_test(deadline_bandwidth),
		cmocka_unit_test(dlbw_domain_split),
	};

	return unit_run(tests, NULL, NULL);
}
