// SPDX-License-Identifier: MIT
/*
 * The topology the planner reads: the debugfs IRQ parser (managed flag,
 * effective CPUs), and the probes on the topology fixture trees (NUMA nodes,
 * cpu_capacity, hybrid PMUs, IRQ and interface nodes, managed IRQs).
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

#include "probe/cpu.h"
#include "probe/irq.h"
#include "probe/irqdebugfs.h"
#include "probe/placement.h"

static void list_is(const struct rtr_cpuset *s, const char *want)
{
	char buf[256];

	rtr_cpuset_format_list(s, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_parse_debugfs(void **state)
{
	static const char managed[] = "handler:  handle_edge_irq\n"
				      "dstate:   0x3560a200\n"
				      "            IRQD_ACTIVATED\n"
				      "            IRQD_AFFINITY_MANAGED\n"
				      "node:     0\n"
				      "affinity: 0-3\n"
				      "effectv:  2\n";
	static const char plain[] = "dstate:   0x1\n            IRQD_AFFINITY_SET\n"
				    "affinity: 0-3\n";
	static const char bad[] = "            IRQD_AFFINITY_MANAGED_NOT\neffectv:  x\n";
	struct rtr_cpuset eff = RTR_CPUSET_INIT;
	bool m;

	(void)state;
	assert_int_equal(irq_debugfs_parse(managed, sizeof(managed) - 1, &m, &eff), 0);
	assert_true(m);
	list_is(&eff, "2");
	assert_int_equal(irq_debugfs_parse(plain, sizeof(plain) - 1, &m, &eff), 0);
	assert_false(m);
	list_is(&eff, "0-3");
	assert_int_equal(irq_debugfs_parse(bad, sizeof(bad) - 1, &m, &eff), -EINVAL);
	assert_false(m);
	assert_int_equal(irq_debugfs_parse("", 0, &m, &eff), 0);
	assert_true(rtr_cpuset_is_empty(&eff));
	rtr_cpuset_free(&eff);
}

static int open_tree(struct rootfs *fs, const char *name)
{
	char path[4096];
	const char *src = getenv("SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : "..", name);
	return rootfs_open(fs, path);
}

static void test_smt_numa_tree(void **state)
{
	struct managed_irqs m;
	struct cpu_facts c;
	struct irq_facts irq;
	struct rootfs fs;
	int node;

	(void)state;
	assert_int_equal(open_tree(&fs, "topo/smt-numa"), 0);
	probe_cpu(&fs, &c);
	assert_int_equal(c.nodes_err, 0);
	assert_int_equal(c.n_nodes, 2);
	list_is(&c.nodes[1].cpus, "4-7,12-15");
	assert_int_equal(cpu_facts_find(&c, 12)->node, 1);
	assert_int_equal(cpu_facts_find(&c, 8)->node, 0);
	assert_int_equal(c.hybrid_err, -ENOENT);
	assert_int_equal(cpu_facts_find(&c, 3)->capacity_err, -ENOENT);
	probe_irq_affinity(&fs, &irq);
	assert_int_equal(probe_managed_irqs(&irq, &m), 0);
	assert_int_equal(m.err, 0);
	assert_int_equal(m.n, 2);
	list_is(&m.cpus, "7,15");
	assert_int_equal(probe_irq_node(&fs, 30, &node), 0);
	assert_int_equal(node, 1);
	assert_int_equal(probe_net_node(&fs, "eth0", &node), 0);
	assert_int_equal(node, 1);
	assert_int_equal(probe_net_node(&fs, "../eth0", &node), -EINVAL);
	assert_int_equal(probe_net_node(&fs, "lo", &node), -ENOENT);
	{
		struct net_node *nets;
		size_t n;

		assert_int_equal(probe_net_nodes(&fs, &nets, &n), 0);
		assert_int_equal(n, 2);
		assert_string_equal(nets[0].name, "eth0");
		assert_int_equal(nets[0].node, 1);
		assert_string_equal(nets[1].name, "eth1");
		assert_int_equal(nets[1].node, 0);
		free(nets);
	}
	managed_irqs_free(&m);
	probe_irq_free(&irq);
	probe_cpu_free(&c);
	rootfs_close(&fs);
}

static void test_biglittle_hybrid_trees(void **state)
{
	struct managed_irqs m;
	struct cpu_facts c;
	struct irq_facts irq;
	struct rootfs fs;

	(void)state;
	assert_int_equal(open_tree(&fs, "topo/biglittle"), 0);
	probe_cpu(&fs, &c);
	assert_int_equal(cpu_facts_find(&c, 0)->capacity, 485);
	assert_int_equal(cpu_facts_find(&c, 5)->capacity, 1024);
	assert_int_equal(c.nodes_err, -ENOENT);
	probe_cpu_free(&c);
	rootfs_close(&fs);

	assert_int_equal(open_tree(&fs, "topo/hybrid"), 0);
	probe_cpu(&fs, &c);
	assert_int_equal(c.hybrid_err, 0);
	list_is(&c.hybrid_core, "0-15");
	list_is(&c.hybrid_atom, "16-19");
	probe_cpu_free(&c);
	rootfs_close(&fs);

	/*
	 * A real Debian RT kernel without irq debugfs: virtio-blk's four queue
	 * vectors are inferred managed from their spread, the config vector not.
	 */
	assert_int_equal(open_tree(&fs, "kernel-x86_64-rt"), 0);
	probe_irq(&fs, &irq);
	assert_int_equal(irq.managed_err, -ENOENT);
	assert_int_equal(irq_facts_find(&irq, 24)->managed, IRQ_MANAGED_UNKNOWN);
	for (int i = 25; i <= 28; i++)
		assert_int_equal(irq_facts_find(&irq, i)->managed, IRQ_MANAGED_SPREAD);
	probe_irq_free(&irq);
	rootfs_close(&fs);

	/* The VM capture has no debugfs: managed IRQs unknown, not "none". */
	assert_int_equal(open_tree(&fs, "vm"), 0);
	probe_irq_affinity(&fs, &irq);
	assert_int_equal(probe_managed_irqs(&irq, &m), 0);
	assert_int_equal(m.err, -ENOENT);
	managed_irqs_free(&m);
	probe_irq_free(&irq);
	rootfs_close(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_debugfs),
		cmocka_unit_test(test_smt_numa_tree),
		cmocka_unit_test(test_biglittle_hybrid_trees),
	};

	return unit_run(tests, NULL, NULL);
}
