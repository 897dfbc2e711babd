// SPDX-License-Identifier: MIT
/*
 * The irq probe on a hand-made tree: list files and mask fallbacks,
 * missing effective affinity, garbage, non-numeric entries in /proc/irq,
 * the irqbalance file of either distribution family.
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

#include "probe/irq.h"

static char dir[] = "/tmp/rtr-probe-irq-XXXXXX";

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
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	put("proc/irq/default_smp_affinity", "f\n");
	put("proc/irq/24/smp_affinity_list", "0-3\n");
	put("proc/irq/24/effective_affinity_list", "2\n");
	put("proc/irq/9/smp_affinity", "00000003\n");	/* an old kernel: masks only */
	put("proc/irq/9/effective_affinity", "1\n");
	put("proc/irq/130/smp_affinity_list", "zz\n");
	put("proc/irq/abc/smp_affinity_list", "0\n");	/* not an IRQ: ignored */
	put("proc/interrupts", "  CPU0 CPU1 CPU2 CPU3\n 24: 1 2 3 4 IO-APIC 5-edge eth0\n");
	put("etc/sysconfig/irqbalance", "IRQBALANCE_BANNED_CPULIST=2-3\n");
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
	struct irq_facts f;
	const struct irq_info *q;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	probe_irq(&fs, &f);
	rootfs_close(&fs);
	assert_int_equal(f.err, 0);
	list_is(&f.default_affinity, "0-3");
	assert_int_equal(f.n, 3);
	assert_int_equal(f.irqs[0].irq, 9);	/* sorted */
	q = irq_facts_find(&f, 9);
	list_is(&q->affinity, "0-1");
	list_is(&q->effective, "0");
	q = irq_facts_find(&f, 24);
	list_is(&q->effective, "2");
	q = irq_facts_find(&f, 130);
	assert_int_equal(q->affinity_err, -EINVAL);
	assert_int_equal(q->effective_err, -ENOENT);
	assert_int_equal(f.interrupts_err, 0);
	assert_string_equal(interrupts_find(&f.interrupts, 24)->actions, "eth0");
	assert_int_equal(f.balance_err, 0);
	assert_string_equal(f.balance_path, "/etc/sysconfig/irqbalance");
	list_is(&f.balance.cpulist, "2-3");
	probe_irq_free(&f);
}

static void test_empty_tree(void **state)
{
	char empty[] = "/tmp/rtr-probe-irq-empty-XXXXXX";
	struct rootfs fs;
	struct irq_facts f;

	(void)state;
	assert_non_null(mkdtemp(empty));
	assert_int_equal(rootfs_open(&fs, empty), 0);
	probe_irq(&fs, &f);
	rootfs_close(&fs);
	assert_int_equal(f.err, -ENOENT);
	assert_int_equal(f.default_err, -ENOENT);
	assert_int_equal(f.interrupts_err, -ENOENT);
	assert_int_equal(f.balance_err, -ENOENT);
	assert_int_equal(f.n, 0);
	probe_irq_free(&f);
	rmdir(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_empty_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
