// SPDX-License-Identifier: MIT
/*
 * rtready inspect's judge on hand-made collections (no /proc), and its
 * option parser.
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
#include "cli/cmd_inspect.h"
#include "inspect/inspect.h"

struct fixture {
	struct inspect_result res;
	struct task_info tasks[4];
	struct inspect_thread th[4];
	struct inspect_proc proc;
	struct rtr_cpuset rt;
};

static void set_cpus(struct task_info *t, const char *list)
{
	assert_int_equal(rtr_cpuset_parse_list(&t->allowed, list), 0);
}

/* A process with one RT thread (tid 11, FIFO 80 on CPU 1) and one OTHER thread. */
static struct fixture *make(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->res.window_ns = 1000000000;
	f->res.clk_tck = 100;
	f->tasks[0] = (struct task_info){ .pid = 10, .tid = 10, .comm = "app", .policy = 0 };
	set_cpus(&f->tasks[0], "0");
	f->tasks[1] = (struct task_info){ .pid = 10, .tid = 11, .comm = "rt", .policy = 1,
					  .rt_priority = 80, .last_cpu = 1 };
	set_cpus(&f->tasks[1], "1");
	f->th[0] = (struct inspect_thread){ .t = &f->tasks[0], .have_delta = true };
	f->th[1] = (struct inspect_thread){ .t = &f->tasks[1], .have_delta = true,
					    .have_ctxt_delta = true, .vcsw_d = 1000 };
	f->proc = (struct inspect_proc){ .pid = 10, .comm = "app", .vm_lck_kb = 20000,
					 .vm_rss_kb = 10000, .threads = f->th, .n_threads = 2,
					 .n_rt = 1 };
	f->res.procs = &f->proc;
	f->res.n_procs = 1;
	/* Another process's OTHER task, allowed on CPU 0 only. */
	f->tasks[2] = (struct task_info){ .pid = 20, .tid = 20, .comm = "logger" };
	set_cpus(&f->tasks[2], "0");
	f->res.before.tasks = f->tasks;
	f->res.before.n = 3;
	f->res.after = f->res.before;
	return f;
}

static void destroy(struct fixture *f)
{
	for (int i = 0; i < 4; i++)
		rtr_cpuset_free(&f->tasks[i].allowed);
	rtr_cpuset_free(&f->rt);
	free(f);
}

/* The status of finding @id (for @tid, 0 = any), -1 when absent. */
static int status_of(const struct report *r, const char *id, long tid)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (strcmp(r->findings[i].id, id) == 0 && (!tid || r->findings[i].tid == tid))
			return (int)r->findings[i].status;
	return -1;
}

static void judge(struct fixture *f, struct report *r, bool verbose)
{
	struct inspect_env env = { &f->rt, verbose };

	report_init(r, "inspect");
	assert_int_equal(inspect_judge(&f->res, &env, r), 0);
}

static void test_good(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.prio99", 0), -1);
	assert_int_equal(status_of(&r, "proc.memory_locked", 0), RTR_PASS);
	assert_int_equal(status_of(&r, "proc.page_faults", 11), RTR_PASS);
	assert_int_equal(status_of(&r, "proc.page_faults", 10), -1);	/* not RT */
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_PASS);
	assert_int_equal(status_of(&r, "proc.preempted", 11), RTR_PASS);
	assert_int_equal(status_of(&r, "proc.non_rt_on_rt_cpu", 0), RTR_PASS);
	assert_int_equal(report_exit_code(&r, 1), 0);
	report_free(&r);
	destroy(f);
}

/* The fix of finding @id for @tid, or "". */
static const char *fix_of(const struct report *r, const char *id, long tid)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (strcmp(r->findings[i].id, id) == 0 && r->findings[i].tid == tid)
			return r->findings[i].fix ? r->findings[i].fix : "";
	return "";
}

/* A DEADLINE thread cannot be pinned with taskset: its fix is a cpuset partition. */
static void test_deadline_affinity(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	f->tasks[1].policy = 6;
	f->tasks[1].rt_priority = 0;
	set_cpus(&f->tasks[1], "0-1");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_WARN);
	assert_null(strstr(fix_of(&r, "proc.affinity", 11), "taskset -p"));
	assert_non_null(strstr(fix_of(&r, "proc.affinity", 11), "rtready run --isolate"));
	assert_non_null(strstr(fix_of(&r, "proc.affinity", 11), "--isolate --apply"));
	report_free(&r);
	/* FIFO keeps taskset. */
	f->tasks[1].policy = 1;
	f->tasks[1].rt_priority = 80;
	judge(f, &r, false);
	assert_non_null(strstr(fix_of(&r, "proc.affinity", 11), "taskset -p -c CPU 11"));
	report_free(&r);
	destroy(f);
}

static void test_each_rule(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	f->tasks[1].rt_priority = 99;
	f->proc.vm_lck_kb = 0;
	f->th[1].minflt_d = 3;
	f->th[1].nvcsw_d = 2;
	set_cpus(&f->tasks[1], "0-1");
	set_cpus(&f->tasks[2], "0-1");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.prio99", 11), RTR_FAIL);
	assert_int_equal(status_of(&r, "proc.memory_locked", 0), RTR_FAIL);
	assert_int_equal(status_of(&r, "proc.page_faults", 11), RTR_FAIL);
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_WARN);
	assert_int_equal(status_of(&r, "proc.preempted", 11), RTR_WARN);
	assert_int_equal(status_of(&r, "proc.non_rt_on_rt_cpu", 0), RTR_WARN);
	for (size_t i = 0; i < r.n_findings; i++)
		if (strcmp(r.findings[i].id, "proc.non_rt_on_rt_cpu") == 0)
			assert_non_null(strstr(r.findings[i].evidence, "logger[20]"));
	report_free(&r);
	destroy(f);
}

static void test_partial_lock_and_rt_cpus(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	/* 1 MiB short of 100 MiB is within the slack; 10 MiB is not. */
	f->proc.vm_rss_kb = 100 * 1024;
	f->proc.vm_lck_kb = 99 * 1024;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.memory_locked", 0), RTR_PASS);
	report_free(&r);
	f->proc.vm_lck_kb = 90 * 1024;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.memory_locked", 0), RTR_WARN);
	report_free(&r);
	/* The RT thread sits on CPU 1, but only CPU 2 is an RT CPU. */
	assert_int_equal(rtr_cpuset_parse_list(&f->rt, "2"), 0);
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_WARN);
	report_free(&r);
	destroy(f);
}

/* A thread pinned to one CPU has the right affinity, IRQs there or not. */
static void test_pinned_with_irq(void **state)
{
	struct fixture *f = make();
	struct irq_info q;
	struct report r;

	(void)state;
	memset(&q, 0, sizeof(q));
	q.irq = 24;
	q.effective_err = -ENOENT;
	assert_int_equal(rtr_cpuset_parse_list(&q.affinity, "0-1"), 0);
	f->res.irq.irqs = &q;
	f->res.irq.n = 1;
	set_cpus(&f->tasks[1], "1");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_PASS);
	for (size_t i = 0; i < r.n_findings; i++)
		if (strcmp(r.findings[i].id, "proc.affinity") == 0)
			assert_non_null(strstr(r.findings[i].evidence, "irq.affinity"));
	report_free(&r);
	/* Free to move between two CPUs with the IRQ: a warning. */
	set_cpus(&f->tasks[1], "0-1");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.affinity", 11), RTR_WARN);
	report_free(&r);
	f->res.irq.irqs = NULL;
	f->res.irq.n = 0;
	rtr_cpuset_free(&q.affinity);
	destroy(f);
}

static void test_no_delta_no_rt(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	f->th[1].have_delta = false;
	f->th[1].have_ctxt_delta = false;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.page_faults", 0), -1);
	assert_int_equal(status_of(&r, "proc.preempted", 0), -1);
	report_free(&r);
	f->tasks[1].policy = 0;
	f->proc.n_rt = 0;
	judge(f, &r, false);
	assert_int_equal(r.n_findings, 0);
	report_free(&r);
	judge(f, &r, true);
	assert_int_equal(status_of(&r, "proc.no_rt_threads", 0), RTR_INFO);
	report_free(&r);
	f->proc.vanished = true;
	judge(f, &r, true);
	assert_int_equal(r.n_findings, 0);
	report_free(&r);
	destroy(f);
}

static void test_cpu_percent(void **state)
{
	struct fixture *f = make();

	(void)state;
	f->th[0].cpu_ticks_d = 50;	/* 0.5 s of 1 s at 100 Hz */
	assert_true(inspect_cpu_percent(&f->res, &f->th[0]) > 49.9);
	assert_true(inspect_cpu_percent(&f->res, &f->th[0]) < 50.1);
	f->th[0].have_delta = false;
	assert_true(inspect_cpu_percent(&f->res, &f->th[0]) == 0.0);
	destroy(f);
}

static void test_busy_non_rt(void **state)
{
	struct fixture *f = make();
	struct report r;

	(void)state;
	/* The OTHER thread of the app used 80% of a CPU and may run on RT CPU 1. */
	f->th[0].cpu_ticks_d = 80;
	set_cpus(&f->tasks[0], "0-1");
	f->proc.busy = true;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.busy_non_rt", 0), -1);	/* no RT CPUs declared */
	report_free(&r);
	assert_int_equal(rtr_cpuset_parse_list(&f->rt, "1"), 0);
	set_cpus(&f->tasks[1], "1");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.busy_non_rt", 10), RTR_WARN);
	report_free(&r);
	f->proc.cpu_limit_pct = 20;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.busy_non_rt", 10), RTR_INFO);
	report_free(&r);
	/* Not busy enough, or kept off the RT CPUs: nothing to say. */
	f->proc.cpu_limit_pct = 0;
	f->th[0].cpu_ticks_d = 20;
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.busy_non_rt", 0), -1);
	report_free(&r);
	f->th[0].cpu_ticks_d = 80;
	set_cpus(&f->tasks[0], "0");
	judge(f, &r, false);
	assert_int_equal(status_of(&r, "proc.busy_non_rt", 0), -1);
	report_free(&r);
	destroy(f);
}

static int parse(struct inspect_opts *o, char *err, int argc, const char **argv)
{
	return cli_parse_cmd(&inspect_cmd, argc, (char **)argv, o, err, 256);
}

static void test_opts(void **state)
{
	struct inspect_opts o;
	char err[256];
	const char *a1[] = { "inspect", "12", "34", "-w", "250ms" };
	const char *a2[] = { "inspect", "--all", "12" };
	const char *a3[] = { "inspect" };
	const char *a4[] = { "inspect", "-w", "-1", "1" };
	const char *a5[] = { "inspect", "--name", "app", "--no-perf", "-f", "json" };
	const char *a6[] = { "inspect", "0" };
	const char *a7[] = { "inspect", "--help" };
	const char *a8[] = { "inspect", "--all", "-r", "/snap" };
	const char *a9[] = { "inspect", "--all", "--root", "/snap", "-w", "2s" };
	const char *a10[] = { "inspect", "--all", "--root", "/snap", "-w", "0" };
	const char *a11[] = { "inspect", "--all", "--root", "/", "-w", "2s" };

	(void)state;
	assert_int_equal(parse(&o, err, 5, a1), 0);
	assert_int_equal(o.n_pids, 2);
	assert_int_equal(o.pids[1], 34);
	assert_int_equal(o.window_ns, 250000000);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 3, a2), -EINVAL);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 1, a3), -EINVAL);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 4, a4), -EINVAL);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 6, a5), 0);
	assert_string_equal(o.name, "app");
	assert_false(o.perf);
	assert_int_equal(o.format, FORMAT_JSON);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 2, a6), -EINVAL);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 2, a7), 0);
	assert_true(o.help);
	inspect_opts_free(&o);
	/* A tree is one look: no window, no perf; a window above 0 is refused. */
	assert_int_equal(parse(&o, err, 4, a8), 0);
	assert_string_equal(o.root, "/snap");
	assert_int_equal(o.window_ns, 0);
	assert_false(o.perf);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 6, a9), -EINVAL);
	assert_non_null(strstr(err, "live system"));
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 6, a10), 0);
	inspect_opts_free(&o);
	assert_int_equal(parse(&o, err, 6, a11), 0);	/* "/" is the live system */
	assert_int_equal(o.window_ns, 2000000000);
	assert_true(o.perf);
	inspect_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_each_rule),
		cmocka_unit_test(test_deadline_affinity),
		cmocka_unit_test(test_partial_lock_and_rt_cpus),
		cmocka_unit_test(test_pinned_with_irq),
		cmocka_unit_test(test_no_delta_no_rt),
		cmocka_unit_test(test_cpu_percent),
		cmocka_unit_test(test_busy_non_rt),
		cmocka_unit_test(test_opts),
	};

	return unit_run(tests, NULL, NULL);
}
