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

#include "unit.h"

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

/* Facts from a /proc/interrupts text and "IRQ:affinity" pairs, debugfs absent. */
static void spread_facts(struct irq_facts *f, const char *text, const char *const *affs, size_t n)
{
	memset(f, 0, sizeof(*f));
	f->managed_err = -ENOENT;
	assert_int_equal(interrupts_parse(text, strlen(text), &f->interrupts), 0);
	f->irqs = calloc(n, sizeof(*f->irqs));
	assert_non_null(f->irqs);
	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(affs[i], ':');

		f->irqs[i].irq = atoi(affs[i]);
		assert_int_equal(rtr_cpuset_parse_list(&f->irqs[i].affinity, colon + 1), 0);
		f->n++;
	}
	irq_infer_spread(f);
}

static void test_spread(void **state)
{
	static const char text[] =
		"  CPU0 CPU1 CPU2 CPU3\n"
		" 24: 0 0 0 0 PCI-MSIX-0000:00:02.0 0-edge virtio0-config\n"
		" 25: 3 0 0 0 PCI-MSIX-0000:00:02.0 1-edge virtio0-req.0\n"
		" 26: 0 0 0 0 PCI-MSIX-0000:00:02.0 2-edge virtio0-req.1\n"
		" 27: 0 0 0 0 PCI-MSIX-0000:00:02.0 3-edge virtio0-req.2\n"
		" 28: 0 0 0 0 PCI-MSIX-0000:00:02.0 4-edge virtio0-req.3\n"
		" 30: 9 0 0 0 PCI-MSI 524288-edge nvme0q0\n"
		" 31: 0 0 0 0 PCI-MSI 524289-edge nvme0q1\n"
		" 32: 0 0 0 0 PCI-MSI 524290-edge nvme0q2\n"
		" 40: 0 0 0 0 PCI-MSI 1-edge eth0-TxRx-0\n"
		" 41: 0 0 0 0 PCI-MSI 2-edge eth0-TxRx-1\n"
		" 50: 0 0 0 0 IO-APIC 1-edge ata_piix1\n"
		" 51: 0 0 0 0 IO-APIC 2-edge ata_piix2\n"
		" 60: 0 0 0 0 ITS-MSI 3 Edge big-q1\n"
		" 61: 0 0 0 0 ITS-MSI 4 Edge big-q2\n";
	static const char *const affs[] = {
		"24:0-1", "25:0", "26:1", "27:2", "28:3",	/* virtio-blk: spread */
		"30:0-3", "31:0-1", "32:2-3",			/* NVMe: admin on all, I/O spread */
		"40:0", "41:1",					/* two queues, CPUs 2-3 uncovered */
		"50:0-1", "51:2-3",				/* not MSI */
		"60:0-2", "61:2-3",				/* overlap */
	};
	static const int spread[] = { 25, 26, 27, 28, 31, 32 };
	struct irq_facts f;

	(void)state;
	spread_facts(&f, text, affs, sizeof(affs) / sizeof(affs[0]));
	for (size_t i = 0; i < f.n; i++) {
		bool want = false;

		for (size_t j = 0; j < sizeof(spread) / sizeof(spread[0]); j++)
			want |= spread[j] == f.irqs[i].irq;
		if ((f.irqs[i].managed == IRQ_MANAGED_SPREAD) != want)
			fail_msg("IRQ %d: managed %d", f.irqs[i].irq, f.irqs[i].managed);
	}
	probe_irq_free(&f);
	/* debugfs answered: its word stands, nothing is inferred. */
	{
		struct irq_facts g;

		memset(&g, 0, sizeof(g));
		assert_int_equal(interrupts_parse(text, strlen(text), &g.interrupts), 0);
		g.irqs = calloc(2, sizeof(*g.irqs));
		g.irqs[0].irq = 25;
		g.irqs[1].irq = 26;
		assert_int_equal(rtr_cpuset_parse_list(&g.irqs[0].affinity, "0-1"), 0);
		assert_int_equal(rtr_cpuset_parse_list(&g.irqs[1].affinity, "2-3"), 0);
		g.n = 2;
		irq_infer_spread(&g);	/* managed_err 0: debugfs was read */
		assert_int_equal(g.irqs[0].managed, IRQ_MANAGED_UNKNOWN);
		probe_irq_free(&g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_spread),
	};

	return unit_run(tests, setup, teardown);
}
