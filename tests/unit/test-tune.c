// SPDX-License-Identifier: MIT
/*
 * rtready tune without touching the machine: the table's pure functions,
 * the plan, apply and revert against a fake root tree under /tmp, the
 * journal on disk (round trip, tampering, progress states), the boot files
 * and the option parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_tune.h"
#include "probe/irqbalance.h"
#include "tune/apply.h"
#include "tune/boot.h"
#include "tune/isolate.h"
#include "tune/journal.h"
#include "tune/plan.h"

static char root[] = "/tmp/rtr-tune-root-XXXXXX";
static char state[] = "/tmp/rtr-tune-state-XXXXXX";

static void put(const char *rel, const char *content)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* A file's exact content (get() drops trailing newlines). */
static void get_raw(const char *rel, char *buf, size_t len)
{
	char p[512];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void get(const char *rel, char *buf, size_t len)
{
	char p[512];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A 2-CPU machine with every tunable in need of a change. */
static void machine(void)
{
	put("sys/devices/system/cpu/online", "0-1\n");
	put("sys/devices/system/cpu/isolated", "\n");
	put("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	put("proc/sys/kernel/timer_migration", "1\n");
	put("proc/sys/kernel/watchdog_cpumask", "0-1\n");
	put("proc/sys/kernel/random/boot_id", "11111111-2222-3333-4444-555555555555\n");
	put("proc/irq/default_smp_affinity", "3\n");
	put("proc/irq/24/smp_affinity_list", "0-1\n");
	put("proc/irq/24/effective_affinity_list", "0\n");
	put("proc/irq/24/virtio0-config/.keep", "");
	put("proc/irq/25/smp_affinity_list", "0\n");
	put("proc/irq/26/smp_affinity_list", "1\n");
	put("proc/irq/26/ttyS0/.keep", "");
	/* No action directory: no handler; it cannot fire, tune leaves it alone. */
	put("proc/irq/27/smp_affinity_list", "1\n");
	put("sys/devices/virtual/workqueue/cpumask", "3\n");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_available_governors",
	    "performance powersave\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state0/latency", "0\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state0/disable", "0\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state1/latency", "2\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state1/disable", "0\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state2/latency", "150\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state2/name", "C6\n");
	put("sys/devices/system/cpu/cpu1/cpuidle/state2/disable", "0\n");
	put("sys/kernel/debug/sched/fair_server/cpu0/runtime", "50000000\n");
	put("sys/kernel/debug/sched/fair_server/cpu1/runtime", "50000000\n");
	put("sys/kernel/debug/sched/fair_server/cpu1/period", "1000000000\n");
	put("etc/default/irqbalance", "# irqbalance's file\n#IRQBALANCE_BANNED_CPULIST=\n");
}

static int setup(void **st)
{
	(void)st;
	if (!mkdtemp(root) || !mkdtemp(state))
		return -1;
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(state, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void settings(struct tune_settings *s, const char *rt)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(rtr_cpuset_parse_list(&s->rt, rt), 0);
	assert_int_equal(rtr_cpuset_parse_list(&s->nonrt, "0-1"), 0);
	rtr_cpuset_andnot(&s->nonrt, &s->rt);
	for (int i = 0; i < TUNE_COUNT; i++)
		s->enabled[i] = !tune_is_isolate((enum tune_id)i); /* as the CLI: --isolate adds */
	s->idle_max_latency_us = TUNE_IDLE_MAX_LATENCY_US_DEFAULT;
}

static void settings_free(struct tune_settings *s)
{
	rtr_cpuset_free(&s->rt);
	rtr_cpuset_free(&s->nonrt);
}

static const struct tune_change *find(const struct tune_plan *p, const char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->changes[i].path && strcmp(p->changes[i].path, path) == 0)
			return &p->changes[i];
	return NULL;
}

static void test_paths(void **st)
{
	const struct tunable *irq = tunable_get(TUNE_IRQS), *idle = tunable_get(TUNE_IDLE);
	char buf[128];

	(void)st;
	assert_true(tunable_path_allowed(irq, "/proc/irq/24/smp_affinity_list"));
	assert_false(tunable_path_allowed(irq, "/proc/irq/x/smp_affinity_list"));
	assert_false(tunable_path_allowed(irq, "/proc/irq//smp_affinity_list"));
	assert_false(tunable_path_allowed(irq, "/proc/irq/../smp_affinity_list"));
	assert_false(tunable_path_allowed(irq, "/proc/irq/24/smp_affinity_list/x"));
	assert_false(tunable_path_allowed(irq, "/etc/passwd"));
	assert_false(tunable_path_allowed(tunable_get(TUNE_TASKS), "/proc/1/stat"));
	assert_true(
	    tunable_path_allowed(idle, "/sys/devices/system/cpu/cpu12/cpuidle/state3/disable"));
	assert_false(
	    tunable_path_allowed(idle, "/sys/devices/system/cpu/cpu1/cpuidle/state/disable"));
	assert_int_equal(tunable_path(buf, sizeof(buf), idle->pattern, 3, 2), 0);
	assert_string_equal(buf, "/sys/devices/system/cpu/cpu3/cpuidle/state2/disable");
	assert_int_equal(tunable_path(buf, sizeof(buf), idle->pattern, 3, -1), -EINVAL);
	assert_int_equal(tunable_path(buf, sizeof(buf), irq->pattern, 3, 4), -EINVAL);
	assert_int_equal(tunable_path(buf, 10, irq->pattern, 3, -1), -ENAMETOOLONG);
	assert_ptr_equal(tunable_by_name("irq-affinity"), irq);
	assert_null(tunable_by_name("nope"));
}

static void test_values(void **st)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	char out[64];

	(void)st;
	assert_int_equal(
	    tunable_normalize(TUNE_VAL_SELECTOR, "always [madvise] never\n", out, sizeof(out)), 0);
	assert_string_equal(out, "madvise");
	assert_int_equal(tunable_normalize(TUNE_VAL_SELECTOR, "always madvise", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(tunable_normalize(TUNE_VAL_SELECTOR, "[]", out, sizeof(out)), -EINVAL);
	assert_int_equal(tunable_normalize(TUNE_VAL_PLAIN, "950000 \n", out, sizeof(out)), 0);
	assert_string_equal(out, "950000");

	assert_int_equal(rtr_cpuset_parse_list(&set, "0"), 0);
	assert_int_equal(tunable_format_mask_like(&set, "3", out, sizeof(out)), 0);
	assert_string_equal(out, "1");
	assert_int_equal(rtr_cpuset_parse_list(&set, "0,33"), 0);
	assert_int_equal(tunable_format_mask_like(&set, "ffffffff,ffffffff", out, sizeof(out)), 0);
	assert_string_equal(out, "00000002,00000001");
	assert_int_equal(rtr_cpuset_parse_list(&set, "4"), 0);
	assert_int_equal(tunable_format_mask_like(&set, "f", out, sizeof(out)), -ERANGE);
	assert_int_equal(tunable_format_mask_like(&set, "zz", out, sizeof(out)), -EINVAL);
	rtr_cpuset_free(&set);
}

/* tune_irqbalance_compute() of @old gives @want_rc and, on 1, the text @want. */
static void irqb(const struct rtr_cpuset *rt, const char *old, int want_rc, const char *want)
{
	char sum[600], *out = NULL;

	assert_int_equal(tune_irqbalance_compute(rt, old, &out, sum, sizeof(sum)), want_rc);
	if (want_rc == 1)
		assert_string_equal(out, want);
	else
		assert_null(out);
	free(out);
}

/* irqbalance's environment file: the RT CPUs join the banned list, nothing else changes. */
static void test_irqbalance_compute(void **st)
{
	struct rtr_cpuset rt = RTR_CPUSET_INIT;
	char sum[600], *out;

	(void)st;
	assert_int_equal(rtr_cpuset_parse_list(&rt, "2-3"), 0);
	/* Debian's file: every line a comment; the list is added at the end. */
	assert_int_equal(tune_irqbalance_compute(&rt, "# x\n#IRQBALANCE_BANNED_CPULIST=\n#IRQBALANCE_ARGS=",
						 &out, sum, sizeof(sum)), 1);
	assert_string_equal(out, "# x\n#IRQBALANCE_BANNED_CPULIST=\n#IRQBALANCE_ARGS=\n"
				 "# rtready tune: no interrupt balancing onto the RT CPUs\n"
				 "IRQBALANCE_BANNED_CPULIST=2-3\n");
	assert_string_equal(sum, "IRQBALANCE_BANNED_CPULIST: unset -> 2-3");
	free(out);
	/* A list set already: that line gets the union, in place, quotes kept. */
	assert_int_equal(tune_irqbalance_compute(&rt, "A=1\n  IRQBALANCE_BANNED_CPULIST=\"5\"\nB=2",
						 &out, sum, sizeof(sum)), 1);
	assert_string_equal(out, "A=1\n  IRQBALANCE_BANNED_CPULIST=\"2-3,5\"\nB=2");
	assert_string_equal(sum, "IRQBALANCE_BANNED_CPULIST: 5 -> 2-3,5");
	free(out);
	/* "export " and the indent stay; the last setting is the one the shell keeps. */
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=0\nexport IRQBALANCE_BANNED_CPULIST=1", 1,
	     "IRQBALANCE_BANNED_CPULIST=0\nexport IRQBALANCE_BANNED_CPULIST=1-3");
	/* export and a tab: the admin's 0 is read, and kept (issue 24, 3.1). */
	irqb(&rt, "export\tIRQBALANCE_BANNED_CPULIST=0\n", 1,
	     "export\tIRQBALANCE_BANNED_CPULIST=0,2-3\n");
	/* Blanks, single quotes, a comment and CRLF around the value all stay. */
	irqb(&rt, "\t export  IRQBALANCE_BANNED_CPULIST='0' \t# admin's\r\nX=1\r\n", 1,
	     "\t export  IRQBALANCE_BANNED_CPULIST='0,2-3' \t# admin's\r\nX=1\r\n");
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=\r\n", 1, "IRQBALANCE_BANNED_CPULIST=2-3\r\n");
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=''  \n", 1, "IRQBALANCE_BANNED_CPULIST='2-3'  \n");
	/* "export KEY" alone sets nothing; a longer key is another key. */
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=0\nexport IRQBALANCE_BANNED_CPULIST # x\n", 1,
	     "IRQBALANCE_BANNED_CPULIST=0,2-3\nexport IRQBALANCE_BANNED_CPULIST # x\n");
	/* Added lines take the file's line ending, after its unended last line. */
	irqb(&rt, "A=1\r\nIRQBALANCE_BANNED_CPULIST2=0   ", 1,
	     "A=1\r\nIRQBALANCE_BANNED_CPULIST2=0   \r\n"
	     "# rtready tune: no interrupt balancing onto the RT CPUs\r\n"
	     "IRQBALANCE_BANNED_CPULIST=2-3\r\n");
	irqb(&rt, "", 1, "# rtready tune: no interrupt balancing onto the RT CPUs\n"
			 "IRQBALANCE_BANNED_CPULIST=2-3\n");
	/* Outside the grammar: neither read nor rewritten, and the reason says why. */
	assert_int_equal(tune_irqbalance_compute(&rt, "A=1\nIRQBALANCE_BANNED_CPULIST = 0\n", &out,
						 sum, sizeof(sum)), -EINVAL);
	assert_non_null(strstr(sum, "line 2 names IRQBALANCE_BANNED_CPULIST"));
	assert_non_null(strstr(sum, "no '='"));
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=$CPUS\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=\"0\"1\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=\"$X\"\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=0\\\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=0 true\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=\"0\n1\"\n", -EINVAL, NULL);
	irqb(&rt, "readonly IRQBALANCE_BANNED_CPULIST=0\n", -EINVAL, NULL);
	irqb(&rt, "export\vIRQBALANCE_BANNED_CPULIST=0\n", -EINVAL, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=0#1\n", -EINVAL, NULL);
	/* ... but a later setting in the grammar is what counts. */
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=$X\nIRQBALANCE_BANNED_CPULIST=1\n", 1,
	     "IRQBALANCE_BANNED_CPULIST=$X\nIRQBALANCE_BANNED_CPULIST=1-3\n");
	/* Covered already, or not ours to rewrite. */
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=1-3", 0, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPUS=0000000c", -EEXIST, NULL);
	irqb(&rt, "IRQBALANCE_BANNED_CPUS=\n", 1,
	     "IRQBALANCE_BANNED_CPUS=\n# rtready tune: no interrupt balancing onto the RT CPUs\n"
	     "IRQBALANCE_BANNED_CPULIST=2-3\n");
	irqb(&rt, "IRQBALANCE_BANNED_CPULIST=x-y", -EINVAL, NULL);
	assert_true(tunable_path_allowed(tunable_get(TUNE_IRQBALANCE), "/etc/default/irqbalance"));
	assert_true(tunable_path_allowed(tunable_get(TUNE_IRQBALANCE),
					 "/etc/sysconfig/irqbalance"));
	assert_false(tunable_path_allowed(tunable_get(TUNE_IRQBALANCE), "/etc/passwd"));
	assert_false(tunable_path_allowed(tunable_get(TUNE_THP), "/etc/default/irqbalance"));
	rtr_cpuset_free(&rt);
}

/*
 * Reader and rewriter agree: whatever the reader makes of a file, the
 * rewritten file reads as that plus the RT CPUs, and a file the reader
 * cannot use is not rewritten.
 */
static void test_irqbalance_agree(void **st)
{
	static const char *const files[] = {
		"export\tIRQBALANCE_BANNED_CPULIST=0\n",
		"  IRQBALANCE_BANNED_CPULIST=\"0,5\"   # x\r\n",
		"IRQBALANCE_BANNED_CPULIST='7'\nexport IRQBALANCE_BANNED_CPULIST\n",
		"#IRQBALANCE_BANNED_CPULIST=0\n\tIRQBALANCE_BANNED_CPULIST=1\n",
		"IRQBALANCE_BANNED_CPULIST=0\n  # IRQBALANCE_BANNED_CPULIST=9\n",
		"IRQBALANCE_BANNED_CPULIST=0 #",
		"export  \t IRQBALANCE_BANNED_CPULIST=\n",
		"IRQBALANCE_BANNED_CPULIST=0;X=1\n",
		"IRQBALANCE_BANNED_CPULIST=0 ;\n",
		"IRQBALANCE_BANNED_CPULISTX=0\n",
		"X=IRQBALANCE_BANNED_CPULIST=0\n",
		"IRQBALANCE_BANNED_CPULIST='0'\"1\"\n",
		"IRQBALANCE_BANNED_CPULIST=`echo 0`\n",
		"IRQBALANCE_BANNED_CPULIST=(0)\n",
	};
	struct rtr_cpuset rt = RTR_CPUSET_INIT;

	(void)st;
	assert_int_equal(rtr_cpuset_parse_list(&rt, "2-3"), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct irqbalance_conf before, after;
		char sum[600], *out = NULL;
		int rc;

		assert_int_equal(irqbalance_conf_parse(files[i], strlen(files[i]), &before), 0);
		rc = tune_irqbalance_compute(&rt, files[i], &out, sum, sizeof(sum));
		if (before.has_cpulist && before.cpulist_err) {
			assert_int_equal(rc, -EINVAL);
		} else {
			assert_int_equal(rc, 1);
			assert_int_equal(irqbalance_conf_parse(out, strlen(out), &after), 0);
			assert_true(after.has_cpulist);
			assert_int_equal(after.cpulist_err, 0);
			assert_true(rtr_cpuset_is_subset(&rt, &after.cpulist));
			assert_true(rtr_cpuset_is_subset(&before.cpulist, &after.cpulist));
			rtr_cpuset_andnot(&after.cpulist, &rt);
			rtr_cpuset_andnot(&after.cpulist, &before.cpulist);
			assert_true(rtr_cpuset_is_empty(&after.cpulist));
			irqbalance_conf_free(&after);
		}
		irqbalance_conf_free(&before);
		free(out);
	}
	rtr_cpuset_free(&rt);
}

static void test_compute(void **st)
{
	struct tune_settings s;
	struct tune_ctx ctx;
	char out[64];

	(void)st;
	settings(&s, "2-3");
	assert_int_equal(rtr_cpuset_parse_list(&s.nonrt, "0-1"), 0);
	ctx = (struct tune_ctx){&s.rt, &s.nonrt};
	assert_int_equal(tunable_get(TUNE_RT_THROTTLING)->compute(&ctx, "950000", out, 64), 1);
	assert_string_equal(out, "-1");
	assert_int_equal(tunable_get(TUNE_RT_THROTTLING)->compute(&ctx, "-1", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_RT_THROTTLING)->compute(&ctx, "x", out, 64), -EINVAL);
	/* Keeps the user's non-RT part; widens only what was pinned to RT CPUs. */
	assert_int_equal(tunable_get(TUNE_IRQS)->compute(&ctx, "1-3", out, 64), 1);
	assert_string_equal(out, "1");
	assert_int_equal(tunable_get(TUNE_IRQS)->compute(&ctx, "3", out, 64), 1);
	assert_string_equal(out, "0-1");
	assert_int_equal(tunable_get(TUNE_IRQS)->compute(&ctx, "0", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_IRQ_DEFAULT)->compute(&ctx, "f", out, 64), 1);
	assert_string_equal(out, "3");
	assert_int_equal(tunable_get(TUNE_THP)->compute(&ctx, "always", out, 64), 1);
	assert_string_equal(out, "madvise");
	assert_int_equal(tunable_get(TUNE_THP)->compute(&ctx, "never", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_IDLE)->compute(&ctx, "2", out, 64), -EINVAL);
	assert_int_equal(tunable_get(TUNE_TIMER_MIGRATION)->compute(&ctx, "1", out, 2), 1);
	assert_int_equal(tunable_get(TUNE_TIMER_MIGRATION)->compute(&ctx, "1", out, 1), -ENOSPC);
	/* hung_task_timeout_secs and numa_balancing: off at 0. */
	assert_int_equal(tunable_get(TUNE_HUNG_TASK)->compute(&ctx, "120", out, 64), 1);
	assert_string_equal(out, "0");
	assert_int_equal(tunable_get(TUNE_HUNG_TASK)->compute(&ctx, "0", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_HUNG_TASK)->compute(&ctx, "-5", out, 64), -EINVAL);
	assert_int_equal(tunable_get(TUNE_NUMA_BALANCING)->compute(&ctx, "2", out, 64), 1);
	assert_string_equal(out, "0");
	assert_int_equal(tunable_get(TUNE_NUMA_BALANCING)->compute(&ctx, "x", out, 64), -EINVAL);
	/* KSM: a running ksmd stops and unmerges; stopped is right. */
	assert_int_equal(tunable_get(TUNE_KSM)->compute(&ctx, "1", out, 64), 1);
	assert_string_equal(out, "2");
	assert_int_equal(tunable_get(TUNE_KSM)->compute(&ctx, "0", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_KSM)->compute(&ctx, "2", out, 64), 0);
	assert_int_equal(tunable_get(TUNE_KSM)->compute(&ctx, "3", out, 64), -EINVAL);
	assert_true(tunable_path_allowed(tunable_get(TUNE_KSM), "/sys/kernel/mm/ksm/run"));
	assert_false(tunable_path_allowed(tunable_get(TUNE_KSM), "/sys/kernel/mm/ksm/pages"));
	settings_free(&s);
}

static void test_plan(void **st)
{
	struct tune_settings s;
	struct tune_plan p;
	struct rootfs fs;
	const struct tune_change *c;

	(void)st;
	machine();
	settings(&s, "1");
	assert_int_equal(rootfs_open(&fs, root), 0);
	assert_int_equal(plan_build(&fs, &s, &p), 0);
	c = find(&p, "/proc/sys/kernel/sched_rt_runtime_us");
	assert_non_null(c);
	assert_string_equal(c->old_value, "950000");
	assert_string_equal(c->new_value, "-1");
	assert_string_equal(find(&p, "/proc/irq/default_smp_affinity")->new_value, "1");
	c = find(&p, "/proc/irq/24/smp_affinity_list");
	assert_string_equal(c->new_value, "0");
	assert_string_equal(c->label, "virtio0-config");
	assert_null(find(&p, "/proc/irq/25/smp_affinity_list")); /* already off CPU 1 */
	assert_string_equal(find(&p, "/proc/irq/26/smp_affinity_list")->new_value, "0");
	assert_null(find(&p, "/proc/irq/27/smp_affinity_list"));
	{
		bool noted = false;

		for (size_t i = 0; i < p.n_notes; i++)
			noted |= strstr(p.notes[i].text, "without a handler") != NULL;
		assert_true(noted);
	}
	assert_string_equal(find(&p, "/sys/devices/virtual/workqueue/cpumask")->new_value, "1");
	c = find(&p, "/sys/kernel/mm/transparent_hugepage/enabled");
	assert_string_equal(c->old_value, "always");
	assert_string_equal(c->new_value, "madvise");
	assert_string_equal(
	    find(&p, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor")->new_value,
	    "performance");
	/* Only the state whose exit latency is above 10 us. */
	assert_null(find(&p, "/sys/devices/system/cpu/cpu1/cpuidle/state1/disable"));
	c = find(&p, "/sys/devices/system/cpu/cpu1/cpuidle/state2/disable");
	assert_string_equal(c->new_value, "1");
	assert_string_equal(c->label, "C6");
	assert_string_equal(find(&p, "/proc/sys/kernel/watchdog_cpumask")->new_value, "0");
	assert_string_equal(find(&p, "/proc/sys/kernel/timer_migration")->new_value, "0");
	/* The fair server of the RT CPU only. */
	c = find(&p, "/sys/kernel/debug/sched/fair_server/cpu1/runtime");
	assert_non_null(c);
	assert_string_equal(c->old_value, "50000000");
	assert_string_equal(c->new_value, "0");
	assert_string_equal(c->label, "CPU 1");
	assert_null(find(&p, "/sys/kernel/debug/sched/fair_server/cpu0/runtime"));
	c = find(&p, "/etc/default/irqbalance");
	assert_non_null(c);
	assert_string_equal(c->label, "IRQBALANCE_BANNED_CPULIST: unset -> 1");
	assert_int_equal(p.n, 12);
	/* Tasks are never planned from a tree that is not the live system. */
	for (size_t i = 0; i < p.n; i++)
		assert_non_null(p.changes[i].path);
	tune_plan_free(&p);

	/* Switches and missing files. */
	s.enabled[TUNE_RT_THROTTLING] = false;
	put("proc/sys/kernel/timer_migration", "0\n");
	{
		char d[512];

		snprintf(d, sizeof(d), "%s/sys/devices/system/cpu/cpu1/cpufreq", root);
		nftw(d, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	}
	assert_int_equal(plan_build(&fs, &s, &p), 0);
	assert_null(find(&p, "/proc/sys/kernel/sched_rt_runtime_us"));
	assert_null(find(&p, "/proc/sys/kernel/timer_migration"));
	assert_null(find(&p, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"));
	{
		bool noted = false;

		for (size_t i = 0; i < p.n_notes; i++)
			noted |=
			    p.notes[i].id == TUNE_GOVERNOR && strstr(p.notes[i].text, "no cpufreq");
		assert_true(noted);
	}
	tune_plan_free(&p);

	/* A kernel before 6.12 (debugfs mounted, no fair server), then no debugfs at all. */
	{
		static const char *const why[] = { "no fair server", "debugfs is not mounted" };
		static const char *const rm[] = { "sys/kernel/debug/sched/fair_server",
						  "sys/kernel/debug" };
		char d[512];

		for (int k = 0; k < 2; k++) {
			bool noted = false;

			snprintf(d, sizeof(d), "%s/%s", root, rm[k]);
			nftw(d, rm_one, 8, FTW_DEPTH | FTW_PHYS);
			mkdir(d, 0755);
			if (k == 1)
				rmdir(d);
			assert_int_equal(plan_build(&fs, &s, &p), 0);
			assert_null(find(&p, "/sys/kernel/debug/sched/fair_server/cpu1/runtime"));
			for (size_t i = 0; i < p.n_notes; i++)
				noted |= p.notes[i].id == TUNE_FAIR_SERVER &&
					 strstr(p.notes[i].text, why[k]);
			if (!noted)
				fail_msg("no note '%s'", why[k]);
			tune_plan_free(&p);
		}
	}
	rootfs_close(&fs);
	settings_free(&s);
}

static void test_apply_revert(void **st)
{
	struct journal j = {0}, k;
	struct apply_result res;
	struct tune_settings s;
	struct rootfs fs;
	char buf[256], why[256];
	int dirfd;

	(void)st;
	machine();
	settings(&s, "1");
	assert_int_equal(rootfs_open(&fs, root), 0);
	assert_int_equal(plan_build(&fs, &s, &j.plan), 0);
	strcpy(j.boot_id, "b1");
	strcpy(j.rt_cpus, "1");
	dirfd = journal_dir_open(state, true);
	assert_true(dirfd >= 0);
	assert_int_equal(journal_lock(dirfd), 0);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/etc/default/irqbalance", root);
		assert_int_equal(chmod(p, 0640), 0);
	}
	assert_int_equal(apply_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(res.done, 12);
	assert_int_equal(res.failed, 0);
	{
		char p[512], whole[1024];
		struct stat sb;

		snprintf(p, sizeof(p), "%s/etc/default/irqbalance", root);
		get_raw("etc/default/irqbalance", whole, sizeof(whole));
		assert_string_equal(whole, "# irqbalance's file\n#IRQBALANCE_BANNED_CPULIST=\n"
					   "# rtready tune: no interrupt balancing onto the RT "
					   "CPUs\nIRQBALANCE_BANNED_CPULIST=1\n");
		assert_int_equal(stat(p, &sb), 0);
		assert_int_equal(sb.st_mode & 07777, 0640);	/* replaced, mode kept */
	}
	get("sys/kernel/debug/sched/fair_server/cpu1/runtime", buf, sizeof(buf));
	assert_string_equal(buf, "0");
	get("sys/kernel/debug/sched/fair_server/cpu0/runtime", buf, sizeof(buf));
	assert_string_equal(buf, "50000000");
	get("proc/sys/kernel/sched_rt_runtime_us", buf, sizeof(buf));
	assert_string_equal(buf, "-1");
	get("proc/irq/default_smp_affinity", buf, sizeof(buf));
	assert_string_equal(buf, "1");
	get("sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	assert_string_equal(buf, "madvise");

	/* What is on disk is what apply did. */
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(k.state, JOURNAL_APPLIED);
	assert_string_equal(k.boot_id, "b1");
	assert_int_equal(k.plan.n, 12);
	assert_int_equal(journal_live_count(&k), 12);
	assert_int_equal(revert_run(&fs, dirfd, &k, &res), 0);
	assert_int_equal(res.done, 12);
	{
		char whole[1024];

		get_raw("etc/default/irqbalance", whole, sizeof(whole));
		/* Byte for byte. */
		assert_string_equal(whole, "# irqbalance's file\n#IRQBALANCE_BANNED_CPULIST=\n");
	}
	get("sys/kernel/debug/sched/fair_server/cpu1/runtime", buf, sizeof(buf));
	assert_string_equal(buf, "50000000");
	get("proc/sys/kernel/sched_rt_runtime_us", buf, sizeof(buf));
	assert_string_equal(buf, "950000");
	get("sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	assert_string_equal(buf, "always");
	get("proc/irq/24/smp_affinity_list", buf, sizeof(buf));
	assert_string_equal(buf, "0-1");
	assert_int_equal(journal_live_count(&k), 0);
	journal_free(&k);

	/* Idempotent: a second revert finds nothing live. */
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(k.state, JOURNAL_REVERTED);
	assert_int_equal(journal_live_count(&k), 0);
	assert_int_equal(revert_run(&fs, dirfd, &k, &res), 0);
	assert_int_equal(res.done + res.unchanged + res.failed, 0);
	journal_free(&k);

	/*
	 * A crash between "attempting" and the write: the journal says
	 * attempting, the file still holds the old value. Revert leaves it.
	 */
	for (size_t i = 0; i < j.plan.n; i++)
		j.plan.changes[i].state = i == 0 ? CHANGE_ATTEMPTING : CHANGE_PENDING;
	j.state = JOURNAL_APPLYING;
	assert_int_equal(journal_save(dirfd, &j), 0);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(journal_live_count(&k), 1);
	assert_int_equal(revert_run(&fs, dirfd, &k, &res), 0);
	assert_int_equal(res.done, 0);
	assert_int_equal(res.unchanged, 1);
	journal_free(&k);

	journal_free(&j);
	close(dirfd);
	rootfs_close(&fs);
	settings_free(&s);
}

/*
 * A changed file outlives a reboot, runtime values do not: a journal of an
 * earlier boot still owes the file. Revert puts back only the file; a new
 * apply keeps the file's original text journaled (or lets go of a file
 * edited since).
 */
static void test_persistent_across_boots(void **st)
{
	static const char original[] = "# irqbalance's file\n#IRQBALANCE_BANNED_CPULIST=\n";
	struct journal j = {0}, k;
	struct apply_result res;
	struct tune_settings s;
	struct tune_plan p;
	struct rootfs fs;
	char buf[1024], why[256];
	size_t dropped;
	int dirfd;

	(void)st;
	machine();
	settings(&s, "1");
	assert_int_equal(rootfs_open(&fs, root), 0);
	assert_int_equal(plan_build(&fs, &s, &j.plan), 0);
	strcpy(j.boot_id, "b1");
	strcpy(j.rt_cpus, "1");
	dirfd = journal_dir_open(state, true);
	assert_true(dirfd >= 0);
	assert_int_equal(apply_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(apply_live_persistent(&k), 1);

	/* A new apply (the next boot): the file is right already, its original carried. */
	assert_int_equal(plan_build(&fs, &s, &p), 0);
	assert_null(find(&p, "/etc/default/irqbalance"));
	assert_int_equal(apply_carry_persistent(&fs, &k, &p, &dropped), 0);
	assert_int_equal(dropped, 0);
	assert_non_null(find(&p, "/etc/default/irqbalance"));
	assert_string_equal(find(&p, "/etc/default/irqbalance")->old_value,
			    original);
	tune_plan_free(&p);

	/* Revert after the reboot: the file goes back, the runtime values are left. */
	apply_forget_runtime(&k);
	assert_int_equal(journal_live_count(&k), 1);
	assert_int_equal(revert_run(&fs, dirfd, &k, &res), 0);
	assert_int_equal(res.done, 1);
	get_raw("etc/default/irqbalance", buf, sizeof(buf));
	assert_string_equal(buf, original);
	get("proc/sys/kernel/sched_rt_runtime_us", buf, sizeof(buf));
	assert_string_equal(buf, "-1");	/* not replayed: a reboot resets it */
	journal_free(&k);

	/* A file edited by someone since is theirs: not carried. */
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	for (size_t i = 0; i < k.plan.n; i++)
		k.plan.changes[i].state = CHANGE_APPLIED;
	put("etc/default/irqbalance", "IRQBALANCE_BANNED_CPULIST=0-1\n");
	assert_int_equal(plan_build(&fs, &s, &p), 0);
	assert_int_equal(apply_carry_persistent(&fs, &k, &p, &dropped), 0);
	assert_int_equal(dropped, 1);
	assert_null(find(&p, "/etc/default/irqbalance"));
	tune_plan_free(&p);
	journal_free(&k);

	journal_free(&j);
	close(dirfd);
	rootfs_close(&fs);
	settings_free(&s);
}

/* The CPU list of @pid, as a string. */
static void affinity_of(pid_t pid, char *buf, size_t len)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	cpu_set_t cs;

	CPU_ZERO(&cs);
	assert_int_equal(sched_getaffinity(pid, sizeof(cs), &cs), 0);
	assert_int_equal(rtr_cpuset_from_sched(&set, &cs, sizeof(cs)), 0);
	rtr_cpuset_format_list(&set, buf, len);
	rtr_cpuset_free(&set);
}

/*
 * Tasks on the live system, limited to a child of this test: planned with
 * its tid and start time, moved, left alone by a revert when the start time
 * does not match (a reused tid), put back when it does.
 */
static void test_tasks_live(void **st)
{
	struct journal j = {0};
	struct apply_result res;
	struct tune_settings s;
	struct rootfs fs;
	char buf[64];
	cpu_set_t cs;
	pid_t child;
	int dirfd;

	(void)st;
	CPU_ZERO(&cs);
	CPU_SET(0, &cs);
	CPU_SET(1, &cs);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		for (;;)
			pause();
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || sched_setaffinity(child, sizeof(cs), &cs)) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		skip();
	}
	settings(&s, "1");
	for (int i = 0; i < TUNE_COUNT; i++)
		s.enabled[i] = i == TUNE_TASKS;
	s.only_pids = &child;
	s.n_only_pids = 1;
	assert_int_equal(rootfs_open(&fs, "/"), 0);
	assert_int_equal(plan_build(&fs, &s, &j.plan), 0);
	assert_int_equal(j.plan.n, 1);
	assert_int_equal(j.plan.changes[0].tid, child);
	assert_string_equal(j.plan.changes[0].old_value, "0-1");
	assert_string_equal(j.plan.changes[0].new_value, "0");
	strcpy(j.boot_id, "b");
	dirfd = journal_dir_open(state, true);
	assert_true(dirfd >= 0);
	assert_int_equal(apply_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(res.done, 1);
	affinity_of(child, buf, sizeof(buf));
	assert_string_equal(buf, "0");

	/* Another start time: not the task that was moved; left alone. */
	j.plan.changes[0].start_ticks++;
	assert_int_equal(revert_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(res.unchanged, 1);
	affinity_of(child, buf, sizeof(buf));
	assert_string_equal(buf, "0");

	j.plan.changes[0].start_ticks--;
	j.plan.changes[0].state = CHANGE_APPLIED;
	assert_int_equal(revert_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(res.done, 1);
	affinity_of(child, buf, sizeof(buf));
	assert_string_equal(buf, "0-1");

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	journal_free(&j);
	close(dirfd);
	rootfs_close(&fs);
	settings_free(&s);
}

static void test_journal_tamper(void **st)
{
	struct journal k;
	char why[256], p[512];
	int dirfd;
	FILE *f;

	(void)st;
	dirfd = journal_dir_open(state, true);
	assert_true(dirfd >= 0);
	snprintf(p, sizeof(p), "%s/%s", state, JOURNAL_NAME);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("{\"format\":\"rtready-tune-journal\",\"version\":1,\"boot_id\":\"b\",\"created\":0,"
	      "\"rt_cpus\":\"1\",\"state\":\"applied\",\"changes\":[{\"tunable\":\"thp\","
	      "\"path\":\"/etc/shadow\",\"old\":\"x\",\"new\":\"y\",\"state\":\"applied\"}]}",
	      f);
	fclose(f);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "/etc/shadow"));

	f = fopen(p, "w");
	fputs("{\"format\":\"rtready-tune-journal\",\"version\":1,\"boot_id\":\"b\",\"created\":0,"
	      "\"rt_cpus\":\"1\",\"state\":\"applied\",\"changes\":[{\"tunable\":\"tasks\","
	      "\"tid\":42,\"start_ticks\":7,\"old\":\"0-1\",\"new\":\"0\",\"state\":\"applied\"}]}",
	      f);
	fclose(f);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(k.plan.changes[0].tid, 42);
	assert_int_equal(k.plan.changes[0].start_ticks, 7);
	assert_null(k.plan.changes[0].path);
	journal_free(&k);

	/* A file's text journaled by an older rtready: stripped, and written back with "\n". */
	f = fopen(p, "w");
	fputs("{\"format\":\"rtready-tune-journal\",\"version\":1,\"boot_id\":\"b\",\"created\":0,"
	      "\"rt_cpus\":\"1\",\"state\":\"applied\",\"changes\":[{\"tunable\":\"irqbalance\","
	      "\"path\":\"/etc/default/irqbalance\",\"old\":\"A=1\",\"new\":\"A=1\\nB=2\","
	      "\"state\":\"applied\"},{\"tunable\":\"irqbalance\",\"path\":\"/etc/default/irqbalance\","
	      "\"old\":\"A=1\\r\\n \",\"new\":\"B\",\"text\":\"exact\",\"state\":\"applied\"}]}",
	      f);
	fclose(f);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_string_equal(k.plan.changes[0].old_value, "A=1\n");
	assert_string_equal(k.plan.changes[0].new_value, "A=1\nB=2\n");
	assert_string_equal(k.plan.changes[1].old_value, "A=1\r\n ");
	assert_string_equal(k.plan.changes[1].new_value, "B");
	journal_free(&k);

	f = fopen(p, "w");
	fputs("{\"format\":\"rtready-tune-journal\",", f);
	fclose(f);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), -EINVAL);
	unlink(p);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), -ENOENT);
	close(dirfd);
}

/* A cgroup v2 root with cpuset available, 6.8+, one NUMA node of CPUs 0-1. */
static void cgroup_machine(void)
{
	put("proc/self/mountinfo", "30 24 0:27 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu memory\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "cpu memory\n");
	put("sys/fs/cgroup/cgroup.procs", "1\n");
	put("sys/fs/cgroup/cpuset.cpus.isolated", "\n");
	put("sys/devices/system/node/node0/cpulist", "0-1\n");
}

/*
 * --isolate: the plan's four rows; a step that fails midway (here the
 * group's cpuset.cpus, which a directory that is not a cgroup lacks) undoes
 * every step made, so no half-made partition stays; and a revert after a
 * crash removes the group an interrupted apply made.
 */
static void test_isolate(void **st)
{
	struct journal j = {0}, k;
	struct apply_result res;
	struct tune_settings s;
	struct rootfs fs;
	char why[1024], p[512];
	struct stat sb;
	int dirfd;

	(void)st;
	cgroup_machine();
	settings(&s, "1");
	assert_int_equal(rootfs_open(&fs, root), 0);
	/* The last CPU of NUMA node 1 is refused. */
	put("sys/devices/system/node/node0/cpulist", "0\n");
	put("sys/devices/system/node/node1/cpulist", "1\n");
	assert_int_equal(isolate_plan(&fs, &s, &j.plan, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "all the CPUs of NUMA node 1"));
	assert_int_equal(j.plan.n, 0);
	snprintf(p, sizeof(p), "%s/sys/devices/system/node/node1/cpulist", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/sys/devices/system/node/node1", root);
	rmdir(p);
	put("sys/devices/system/node/node0/cpulist", "0-1\n");

	assert_int_equal(isolate_plan(&fs, &s, &j.plan, why, sizeof(why)), 0);
	assert_int_equal(j.plan.n, 4);
	assert_int_equal(j.plan.changes[0].id, TUNE_ISO_SUBTREE);
	assert_string_equal(j.plan.changes[0].new_value, "+cpuset");
	assert_string_equal(j.plan.changes[1].path, TUNE_ISO_GROUP_PATH);
	assert_string_equal(j.plan.changes[2].new_value, "1");
	assert_string_equal(j.plan.changes[3].new_value, "isolated");
	strcpy(j.boot_id, "b1");
	strcpy(j.rt_cpus, "1");
	dirfd = journal_dir_open(state, true);
	assert_true(dirfd >= 0);
	assert_int_equal(journal_lock(dirfd), 0);
	assert_int_equal(apply_run(&fs, dirfd, &j, &res), 0);
	assert_int_equal(res.failed, 1);
	snprintf(p, sizeof(p), "%s" TUNE_ISO_GROUP_PATH, root);
	assert_int_equal(stat(p, &sb), -1);	/* the group made is gone again */
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(k.plan.changes[1].state, CHANGE_REVERTED);
	assert_int_equal(k.plan.changes[2].state, CHANGE_FAILED);
	assert_non_null(k.plan.changes[2].note);	/* what the kernel said stays */
	assert_non_null(strstr(k.plan.changes[2].note, "the kernel refused it"));
	assert_int_equal(k.plan.changes[3].state, CHANGE_PENDING);
	assert_non_null(strstr(k.plan.changes[3].note, "not tried"));
	assert_int_equal(journal_live_count(&k), 0);
	journal_free(&k);

	/* kill -9 after the group was made: the journal says attempting; revert removes it. */
	assert_int_equal(mkdir(p, 0755), 0);
	for (size_t i = 0; i < j.plan.n; i++)
		j.plan.changes[i].state = i == 1 ? CHANGE_ATTEMPTING : CHANGE_PENDING;
	j.state = JOURNAL_APPLYING;
	assert_int_equal(journal_save(dirfd, &j), 0);
	assert_int_equal(journal_load(dirfd, &k, why, sizeof(why)), 0);
	assert_int_equal(revert_run(&fs, dirfd, &k, &res), 0);
	assert_int_equal(res.done, 1);
	assert_int_equal(res.failed, 0);
	assert_int_equal(stat(p, &sb), -1);
	journal_free(&k);

	/* An existing group of that name that is not this partition is refused. */
	assert_int_equal(mkdir(p, 0755), 0);
	tune_plan_free(&j.plan);
	assert_int_equal(isolate_plan(&fs, &s, &j.plan, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "exists and is not an isolated partition"));
	assert_int_equal(rmdir(p), 0);
	/* A kernel before 6.8: refused, nothing planned. */
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/cpuset.cpus.isolated", root);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(isolate_plan(&fs, &s, &j.plan, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "Linux 6.8"));
	assert_int_equal(j.plan.n, 0);

	journal_free(&j);
	close(dirfd);
	rootfs_close(&fs);
	settings_free(&s);
}

static void test_boot(void **st)
{
	struct strbuf cmd = STRBUF_INIT, conf = STRBUF_INIT, unit = STRBUF_INIT;
	struct tune_settings s;
	struct boot_settings b;
	const char *bad;

	(void)st;
	settings(&s, "1");
	s.enabled[TUNE_IRQ_DEFAULT] = s.enabled[TUNE_IRQS] = false;
	s.enabled[TUNE_TIMER_MIGRATION] = false;
	b = (struct boot_settings){&s.rt, &s.nonrt,	      s.enabled,
				   10,	  "/var/lib/rtready", "/usr/bin/rtready"};
	boot_cmdline(&b, &cmd);
	assert_string_equal(strbuf_str(&cmd),
			    "isolcpus=managed_irq,domain,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0");
	boot_sysctl_conf(&b, &conf);
	assert_non_null(strstr(strbuf_str(&conf), "\nkernel.sched_rt_runtime_us = -1\n"));
	assert_non_null(strstr(strbuf_str(&conf), "\nkernel.watchdog_cpumask = 0\n"));
	assert_null(strstr(strbuf_str(&conf), "timer_migration"));
	assert_int_equal(boot_unit(&b, &unit, &bad), 0);
	assert_non_null(strstr(strbuf_str(&unit),
			       "ExecStart=/usr/bin/rtready tune --apply --rt-cpus 1 --no-irqs "
			       "--no-timer-migration\n"));
	assert_null(strstr(strbuf_str(&unit), "--state-dir"));
	/* Sandboxed: the default journal directory is the unit's state directory. */
	assert_non_null(strstr(strbuf_str(&unit), "\nStateDirectory=rtready\n"));
	assert_non_null(strstr(strbuf_str(&unit), "\nProtectSystem=strict\n"));
	assert_non_null(strstr(strbuf_str(&unit), "\nPrivateTmp=yes\n"));
	assert_non_null(strstr(strbuf_str(&unit), "\nProtectHome=yes\n"));
	assert_null(strstr(strbuf_str(&unit), "\nProtectKernelTunables="));

	/* A state directory as systemd must read it back: one word, no specifier, no $VAR. */
	strbuf_reset(&unit);
	b.state_dir = "/srv/rt state/%h/$HOME/a\\b\"c";
	b.binary = "/opt/rt ready/bin/rtready";
	assert_int_equal(boot_unit(&b, &unit, &bad), 0);
	assert_non_null(strstr(strbuf_str(&unit),
			       "\nExecStop=\"/opt/rt ready/bin/rtready\" tune --revert "
			       "--state-dir \"/srv/rt state/%%h/$$HOME/a\\\\b\\\"c\"\n"));
	/* ReadWritePaths= cannot carry its quote and backslash: /etc and /usr read-only. */
	assert_non_null(strstr(strbuf_str(&unit), "\nProtectSystem=full\n"));
	assert_null(strstr(strbuf_str(&unit), "StateDirectory="));
	strbuf_reset(&unit);
	b.state_dir = "/home/me/rt state";
	assert_int_equal(boot_unit(&b, &unit, &bad), 0);
	assert_non_null(strstr(strbuf_str(&unit), "\nReadWritePaths=\"-/home/me/rt state\" "
						  "-/etc/default -/etc/sysconfig\n"));
	assert_non_null(strstr(strbuf_str(&unit), "\nProtectHome=read-only\n"));
	/* A newline would start a new key (ExecStartPre=...): refused, nothing emitted. */
	strbuf_reset(&unit);
	b.state_dir = "/srv/x\nExecStartPre=/bin/false";
	assert_int_equal(boot_unit(&b, &unit, &bad), -EINVAL);
	assert_string_equal(bad, "--state-dir");
	assert_string_equal(strbuf_str(&unit), "");
	b.state_dir = "/srv/\xff";
	assert_int_equal(boot_unit(&b, &unit, &bad), -EINVAL);
	b.state_dir = "/var/lib/rtready";
	b.binary = "/opt/a\tb/rtready";
	assert_int_equal(boot_unit(&b, &unit, &bad), -EINVAL);
	assert_string_equal(bad, "binary");
	/* --isolate: passed on, and the unit may write the cgroup tree. */
	b.binary = "/usr/bin/rtready";
	for (int id = TUNE_ISO_FIRST; id < TUNE_COUNT; id++)
		s.enabled[id] = true;
	strbuf_reset(&unit);
	assert_int_equal(boot_unit(&b, &unit, &bad), 0);
	assert_non_null(strstr(strbuf_str(&unit), " --no-timer-migration --isolate\n"));
	assert_null(strstr(strbuf_str(&unit), "ProtectControlGroups=yes"));
	s.enabled[TUNE_ISO_FIRST] = false;
	strbuf_reset(&unit);
	assert_int_equal(boot_unit(&b, &unit, &bad), 0);
	assert_null(strstr(strbuf_str(&unit), "--isolate"));
	assert_non_null(strstr(strbuf_str(&unit), "ProtectControlGroups=yes"));
	strbuf_free(&cmd);
	strbuf_free(&conf);
	strbuf_free(&unit);
	settings_free(&s);
}

static int parse(struct tune_opts *o, char *err, const char *a0, ...)
{
	char *argv[16];
	int argc = 0, rc;
	va_list ap;

	argv[argc++] = (char *)"tune";
	va_start(ap, a0);
	for (const char *a = a0; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	rc = cli_parse_cmd(&tune_cmd, argc, argv, o, err, 256);
	return rc;
}

static void test_options(void **st)
{
	struct tune_opts o;
	char err[256];

	(void)st;
	assert_int_equal(parse(&o, err, NULL), 0);
	assert_int_equal(o.mode, TUNE_MODE_PLAN);
	assert_true(o.enabled[TUNE_IRQS]);
	tune_opts_free(&o);
	assert_int_equal(
	    parse(&o, err, "--rt-cpus", "1", "--apply", "--no-irqs", "--keep-throttling", NULL), 0);
	assert_int_equal(o.mode, TUNE_MODE_APPLY);
	assert_false(o.enabled[TUNE_IRQS]);
	assert_false(o.enabled[TUNE_IRQ_DEFAULT]);
	assert_false(o.enabled[TUNE_RT_THROTTLING]);
	assert_true(o.enabled[TUNE_TASKS]);
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--apply", "--revert", NULL), -EINVAL);
	assert_non_null(strstr(err, "exclude"));
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--apply", "--root", "/tmp", NULL), -EINVAL);
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--idle-max-latency", "-3", NULL), -EINVAL);
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--state-dir", "rel", NULL), -EINVAL);
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--rt-cpus", "1-", NULL), -EINVAL);
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--bogus", NULL), -EINVAL);
	assert_non_null(strstr(err, "--bogus"));
	tune_opts_free(&o);
	assert_int_equal(parse(&o, err, "--emit-boot", "/tmp/x", "--no-tasks", NULL), 0);
	assert_int_equal(o.mode, TUNE_MODE_EMIT_BOOT);
	assert_string_equal(o.boot_dir, "/tmp/x");
	tune_opts_free(&o);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_irqbalance_compute),
		cmocka_unit_test(test_irqbalance_agree),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_apply_revert),
		cmocka_unit_test(test_persistent_across_boots),
		cmocka_unit_test(test_tasks_live),
		cmocka_unit_test(test_journal_tamper),
		cmocka_unit_test(test_isolate),
		cmocka_unit_test(test_boot),
		cmocka_unit_test(test_options),
	};
	/* clang-format on */

	return unit_run(tests, setup, teardown);
}
