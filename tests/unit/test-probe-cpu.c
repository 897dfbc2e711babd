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

#include "unit.h"

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

/* Write @len bytes to dir/@rel (NULs included). */
static void put_bytes(const char *rel, const char *data, size_t len)
{
	char p[1024];
	FILE *f;

	put(rel, "");
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/*
 * The list, else the mask (lscpu reads only masks; POWER7 exports only
 * them): missing, empty and malformed lists fall back, NUL padding is
 * text's end, an empty set is no data, and the error says which file.
 */
static void test_read_set(void **state)
{
	static const struct {
		const char *list;	/* NULL: missing */
		size_t list_len;
		const char *mask;
		size_t mask_len;
		int err;
		bool from_mask;
		const char *want;
	} cases[] = {
		{ "0-1\n", 4, "f\n", 2, 0, false, "0-1" },
		{ NULL, 0, "00000000,000000f0\n", 18, 0, true, "4-7" },
		{ "", 0, "000000f0\n", 9, 0, true, "4-7" },
		{ "\n", 1, "3\n\0\0\0\0", 6, 0, true, "0-1" },
		{ "0-1 junk\n", 9, "c\n", 2, 0, true, "2-3" },
		{ "2-3\n\0\0\0", 7, NULL, 0, 0, false, "2-3" },
		{ NULL, 0, NULL, 0, -ENOENT, false, "" },
		{ "", 0, NULL, 0, -ENODATA, false, "" },
		{ NULL, 0, "00000000,00000000\n", 18, -ENODATA, false, "" },
		{ "x\n", 2, NULL, 0, -EINVAL, false, "" },
		{ NULL, 0, "zz\n", 3, -EINVAL, false, "" },
		{ "\0\0\0", 3, "\0\0", 2, -EINVAL, false, "" },
		{ "1\0002\n", 4, "", 0, -EINVAL, false, "" },
	};
	char rel[64], list[256], mask[256];
	char *buf = malloc(CPU_READ_CAP);
	struct rtr_cpuset set = RTR_CPUSET_INIT;
	struct rootfs fs;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool from_mask = !cases[i].from_mask;
		int err;

		snprintf(list, sizeof(list), "/set%zu/list", i);
		snprintf(mask, sizeof(mask), "/set%zu/mask", i);
		if (cases[i].list) {
			snprintf(rel, sizeof(rel), "set%zu/list", i);
			put_bytes(rel, cases[i].list, cases[i].list_len);
		}
		if (cases[i].mask) {
			snprintf(rel, sizeof(rel), "set%zu/mask", i);
			put_bytes(rel, cases[i].mask, cases[i].mask_len);
		}
		assert_int_equal(rootfs_open(&fs, dir), 0);
		err = cpu_read_set(&fs, list, mask, buf, &set, &from_mask);
		rootfs_close(&fs);
		if (err != cases[i].err)
			fail_msg("case %zu: error %d, expected %d", i, err, cases[i].err);
		assert_int_equal(from_mask, cases[i].from_mask);
		list_is(&set, cases[i].want);
	}
	rtr_cpuset_free(&set);
	free(buf);
}

/* A POWER7-like tree (dir/masks) with masks only: the probe takes the sets from them. */
static void test_probe_masks(void **state)
{
	char root[256];
	struct rootfs fs;
	struct cpu_facts c;
	const struct cpu_info *ci;

	(void)state;
	put("masks/sys/devices/system/cpu/online", "0-3\n");
	for (int x = 0; x < 4; x++) {
		char p[160];

		snprintf(p, sizeof(p), "masks/sys/devices/system/cpu/cpu%d/topology/thread_siblings",
			 x);
		put_bytes(p, "0000000f\n\0\0\0\0", 13);
		snprintf(p, sizeof(p), "masks/sys/devices/system/cpu/cpu%d/cache/index0/level", x);
		put(p, "1\n");
		snprintf(p, sizeof(p), "masks/sys/devices/system/cpu/cpu%d/cache/index0/type", x);
		put(p, "Data\n");
		snprintf(p, sizeof(p),
			 "masks/sys/devices/system/cpu/cpu%d/cache/index0/shared_cpu_map", x);
		put(p, x < 2 ? "00000003\n" : "0000000c\n");
		snprintf(p, sizeof(p),
			 "masks/sys/devices/system/cpu/cpu%d/cache/index0/shared_cpu_list", x);
		put(p, "");
	}
	snprintf(root, sizeof(root), "%s/masks", dir);
	assert_int_equal(rootfs_open(&fs, root), 0);
	probe_cpu(&fs, &c);
	rootfs_close(&fs);
	ci = cpu_facts_find(&c, 2);
	assert_non_null(ci);
	assert_int_equal(ci->siblings_err, 0);
	assert_true(ci->siblings_from_mask);
	list_is(&ci->siblings, "0-3");
	assert_int_equal(ci->n_caches, 1);
	assert_int_equal(ci->caches[0].shared_err, 0);
	assert_true(ci->caches[0].shared_from_mask);
	list_is(&ci->caches[0].shared, "2-3");
	probe_cpu_free(&c);
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
		cmocka_unit_test(test_read_set),
		cmocka_unit_test(test_probe_masks),
	};

	return unit_run(tests, setup, teardown);
}
