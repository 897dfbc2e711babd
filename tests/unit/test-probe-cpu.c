// SPDX-License-Identifier: MIT
/*
 * The cpu probe on a hand-made machine tree (4 CPUs, CPU 3 offline, SMT
 * pairs, an L2 per pair, idle states, cpufreq on some CPUs) and the boot
 * parameter parser (isolcpus= flags, "N" for the last CPU, rcu_nocbs
 * without a list).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe/cpu.h"

static char dir[] = "/tmp/rtr-probe-cpu-XXXXXX";

/* Write @content to dir/@rel, creating parent directories. */
static void put(const char *rel, const char *content)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[256];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	put("sys/devices/system/cpu/online", "0-2\n");
	put("sys/devices/system/cpu/present", "0-3\n");
	put("sys/devices/system/cpu/possible", "0-7\n");
	put("sys/devices/system/cpu/isolated", "2-3\n");
	put("sys/devices/system/cpu/nohz_full", "2-3\n");
	put("sys/devices/system/cpu/smt/active", "1\n");
	put("sys/devices/system/cpu/smt/control", "on\n");
	put("sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
	put("proc/cmdline", "root=/dev/sda1 isolcpus=nohz,managed_irq,2-N nohz_full=2-3 "
			    "rcu_nocbs irqaffinity=0-1 maxcpus=3 quiet\n");
	put("sys/devices/virtual/workqueue/cpumask", "f\n");
	put("proc/sys/kernel/timer_migration", "1\n");
	for (int c = 0; c < 3; c++) {
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
		put(p, c < 2 ? "0-1\n" : "2-3\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index0/level", c);
		put(p, "1\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index0/type", c);
		put(p, "Data\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index0/shared_cpu_list", c);
		put(p, c < 2 ? "0-1\n" : "2-3\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index1/level", c);
		put(p, "2\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index1/type", c);
		put(p, "Unified\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index1/shared_cpu_list", c);
		put(p, "0-3\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state0/name", c);
		put(p, "POLL\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state0/latency", c);
		put(p, "0\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state0/disable", c);
		put(p, "0\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state1/name", c);
		put(p, "C6\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state1/latency", c);
		put(p, "garbage\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cpuidle/state1/disable", c);
		put(p, "1\n");
	}
	put("sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/cpu2/cpufreq/scaling_driver", "intel_pstate\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void list_is(const struct rtr_cpuset *s, const char *want)
{
	char buf[256];

	rtr_cpuset_format_list(s, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_probe(void **state)
{
	struct rootfs fs;
	struct cpu_facts c;
	const struct cpu_info *ci;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	probe_cpu(&fs, &c);
	rootfs_close(&fs);
	list_is(&c.online, "0-2");
	list_is(&c.present, "0-3");
	list_is(&c.isolated, "2-3");
	assert_int_equal(c.smt_active, 1);
	assert_int_equal(c.cmdline_err, 0);
	assert_true(c.isolcpus.given);
	assert_int_equal(c.isolcpus_flags, CPU_ISOL_NOHZ | CPU_ISOL_MANAGED_IRQ);
	list_is(&c.isolcpus.cpus, "2-7");	/* N is the last possible CPU */
	assert_true(c.rcu_nocbs.given);
	assert_true(rtr_cpuset_is_empty(&c.rcu_nocbs.cpus));
	list_is(&c.irqaffinity.cpus, "0-1");
	assert_true(c.maxcpus_given);
	assert_int_equal(c.maxcpus, 3);
	assert_false(c.nr_cpus_given);
	list_is(&c.workqueue, "0-3");
	assert_int_equal(c.timer_migration, 1);
	assert_string_equal(c.idle_driver, "intel_idle");
	assert_int_equal(c.n_cpus, 3);	/* online CPUs only */
	ci = cpu_facts_find(&c, 2);
	assert_non_null(ci);
	list_is(&ci->siblings, "2-3");
	assert_int_equal(ci->n_caches, 2);
	assert_int_equal(ci->caches[1].level, 2);
	assert_string_equal(ci->caches[1].type, "Unified");
	list_is(&ci->caches[1].shared, "0-3");
	assert_int_equal(ci->governor_err, 0);
	assert_string_equal(ci->governor, "powersave");
	assert_string_equal(ci->freq_driver, "intel_pstate");
	assert_int_equal(ci->n_idle, 2);
	assert_string_equal(ci->idle[1].name, "C6");
	assert_int_equal(ci->idle[1].latency_err, -EINVAL);
	assert_int_equal(ci->idle[1].disable, 1);
	ci = cpu_facts_find(&c, 0);
	assert_int_equal(ci->governor_err, -ENOENT);
	assert_null(cpu_facts_find(&c, 3));
	probe_cpu_free(&c);
}

/* An empty tree: every field carries its error, nothing crashes. */
static void test_empty_tree(void **state)
{
	char empty[] = "/tmp/rtr-probe-cpu-empty-XXXXXX";
	struct rootfs fs;
	struct cpu_facts c;

	(void)state;
	assert_non_null(mkdtemp(empty));
	assert_int_equal(rootfs_open(&fs, empty), 0);
	probe_cpu(&fs, &c);
	rootfs_close(&fs);
	assert_int_equal(c.online_err, -ENOENT);
	assert_int_equal(c.cmdline_err, -ENOENT);
	assert_int_equal(c.workqueue_err, -ENOENT);
	assert_int_equal(c.n_cpus, 0);
	probe_cpu_free(&c);
	rmdir(empty);
}

static void parse_params(const char *line, int last, struct cpu_facts *c)
{
	struct cmdline cl;

	memset(c, 0, sizeof(*c));
	assert_int_equal(cmdline_parse(line, strlen(line), &cl), 0);
	assert_int_equal(cpu_parse_boot_params(&cl, last, c), 0);
	cmdline_free(&cl);
}

static void test_boot_params(void **state)
{
	struct cpu_facts c;

	(void)state;
	parse_params("isolcpus=1,3 rcu_nocbs=all nr_cpus=4 nosmt", 7, &c);
	assert_int_equal(c.isolcpus_flags, CPU_ISOL_DOMAIN);
	list_is(&c.isolcpus.cpus, "1,3");
	list_is(&c.rcu_nocbs.cpus, "0-7");
	assert_true(c.nr_cpus_given);
	assert_int_equal(c.nr_cpus, 4);
	assert_true(c.nosmt);
	probe_cpu_free(&c);

	parse_params("isolcpus=domain,bogus,2 nohz_full=x maxcpus=abc", 3, &c);
	assert_true(c.isolcpus.given);
	assert_int_not_equal(c.isolcpus.err, 0);	/* unknown flag: not a cpu list */
	assert_true(c.nohz_full_param.given);
	assert_int_not_equal(c.nohz_full_param.err, 0);
	assert_true(c.maxcpus_given);
	assert_int_equal(c.maxcpus, -1);
	probe_cpu_free(&c);

	parse_params("", 3, &c);
	assert_false(c.isolcpus.given);
	assert_false(c.rcu_nocbs.given);
	probe_cpu_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_boot_params),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
