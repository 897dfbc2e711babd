// SPDX-License-Identifier: MIT
/*
 * The /proc/interrupts and irqbalance environment file parsers: real
 * x86 and arm64 layouts, offline CPUs (skipped columns), rows without
 * actions, and hostile input (NUL bytes, absurd numbers, a huge claimed
 * header, garbage lines).
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

#include "probe/interrupts.h"
#include "probe/irqbalance.h"

static const char x86[] =
	"           CPU0       CPU1       \n"
	"  0:         47          0   IO-APIC   2-edge      timer\n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 36:          0      32740 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0\n"
	" 41:       1766          0 PCI-MSIX-0000:00:04.0   1-edge      eth0-rx, eth0-tx\n"
	" 50:          3          4  IR-PCI-MSI 327680-edge      xhci_hcd\n"
	" 60:          5          0  IO-APIC   9-fasteoi\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:      34024      30996   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";

static void test_x86(void **state)
{
	struct interrupts_table t;
	const struct interrupt_row *r;

	(void)state;
	assert_int_equal(interrupts_parse(x86, strlen(x86), &t), 0);
	assert_int_equal(t.n_cols, 2);
	assert_int_equal(t.n_rows, 10);
	assert_int_equal(t.bad_lines, 0);
	r = interrupts_find(&t, 36);
	assert_non_null(r);
	assert_string_equal(r->chip, "PCI-MSIX-0000:00:02.0");
	assert_string_equal(r->hwirq, "1-edge");
	assert_string_equal(r->actions, "virtio1-req.0");
	assert_int_equal(r->total, 32740);
	r = interrupts_find(&t, 41);
	assert_string_equal(r->actions, "eth0-rx, eth0-tx");
	r = interrupts_find(&t, 50);
	assert_string_equal(r->chip, "IR-PCI-MSI");
	assert_string_equal(r->hwirq, "327680-edge");
	assert_string_equal(r->actions, "xhci_hcd");
	r = interrupts_find(&t, 60);
	assert_string_equal(r->hwirq, "9-fasteoi");
	assert_string_equal(r->actions, "");
	assert_null(interrupts_find(&t, 37));
	/* Named rows: no number, the description as actions; ERR has one count. */
	assert_int_equal(t.rows[7].irq, -1);
	assert_string_equal(t.rows[7].name, "LOC");
	assert_string_equal(t.rows[7].actions, "Local timer interrupts");
	assert_int_equal(t.rows[8].n_counts, 1);
	{
		struct rtr_cpuset one = RTR_CPUSET_INIT;

		assert_int_equal(rtr_cpuset_parse_list(&one, "1"), 0);
		assert_int_equal(interrupts_sum_on(&t, interrupts_find(&t, 36), &one), 32740);
		assert_int_equal(interrupts_sum_on(&t, interrupts_find(&t, 41), &one), 0);
		rtr_cpuset_free(&one);
	}
	interrupts_free(&t);
}

/* arm64 (GIC) layout, and CPU 1 offline: the columns are CPU0 and CPU2. */
static void test_arm_offline(void **state)
{
	static const char arm[] =
		"           CPU0       CPU2\n"
		" 11:     123456     654321     GICv3  27 Level     arch_timer\n"
		" 47:         10          0     GICv3  72 Level     eth0\n"
		"IPI0:       100        200       Rescheduling interrupts\n";
	struct interrupts_table t;
	struct rtr_cpuset two = RTR_CPUSET_INIT;
	const struct interrupt_row *r;

	(void)state;
	assert_int_equal(interrupts_parse(arm, strlen(arm), &t), 0);
	assert_int_equal(t.col_cpu[1], 2);
	r = interrupts_find(&t, 11);
	assert_string_equal(r->chip, "GICv3");
	assert_string_equal(r->hwirq, "27 Level");
	assert_string_equal(r->actions, "arch_timer");
	assert_int_equal(rtr_cpuset_parse_list(&two, "2"), 0);
	assert_int_equal(interrupts_sum_on(&t, r, &two), 654321);
	assert_string_equal(t.rows[2].name, "IPI0");
	rtr_cpuset_free(&two);
	interrupts_free(&t);
}

static void test_hostile(void **state)
{
	static const char nul[] = "  CPU0 CPU1\n 5: 1 2 chip 3-edge de\0vice\n 6: 99999999999999999999999 1 x\n"
				  "garbage line\n :: 1\n 7 : 1\n 8: \n 4294967296: 1 2\n 9: 1 2 3 4 5 a\n";
	struct interrupts_table t;
	const struct interrupt_row *r;

	(void)state;
	assert_int_equal(interrupts_parse(nul, sizeof(nul) - 1, &t), 0);
	r = interrupts_find(&t, 5);
	assert_non_null(r);
	assert_string_equal(r->actions, "de?vice");
	assert_null(interrupts_find(&t, 6));	/* count overflows: the row is skipped */
	r = interrupts_find(&t, 9);
	assert_non_null(r);
	assert_int_equal(r->n_counts, 2);	/* never more counts than columns */
	assert_true(t.bad_lines >= 5);
	interrupts_free(&t);

	/* No header, or a bad one. */
	assert_int_equal(interrupts_parse("", 0, &t), -EINVAL);
	interrupts_free(&t);
	assert_int_equal(interrupts_parse(" 5: 1\n", 6, &t), -EINVAL);
	interrupts_free(&t);
	assert_int_equal(interrupts_parse("CPU0 CPUx\n", 10, &t), -EINVAL);
	interrupts_free(&t);
	assert_int_equal(interrupts_parse("CPU99999999\n", 12, &t), -EINVAL);
	interrupts_free(&t);
}

/* A header claiming 8192 CPUs and many empty rows costs what the input holds. */
static void test_big_header(void **state)
{
	size_t cap = 8192 * 10 + 200000 * 12, len = 0;
	char *buf = malloc(cap);
	struct interrupts_table t;

	(void)state;
	for (int c = 0; c < 8192; c++)
		len += (size_t)sprintf(buf + len, "CPU%d ", c);
	buf[len++] = '\n';
	for (int i = 0; i < 200000; i++)
		len += (size_t)sprintf(buf + len, "%d: 1\n", i);
	assert_int_equal(interrupts_parse(buf, len, &t), 0);
	assert_int_equal(t.n_rows, 200000);
	assert_int_equal(t.n_counts, 200000);
	assert_non_null(interrupts_find(&t, 123456));
	interrupts_free(&t);
	free(buf);
}

static void test_irqbalance(void **state)
{
	static const char conf[] =
		"# comment\n"
		"#IRQBALANCE_BANNED_CPULIST=0\n"
		"IRQBALANCE_ONESHOT=\n"
		"export IRQBALANCE_BANNED_CPULIST=\"2-3,6\"  # RT CPUs\n"
		"IRQBALANCE_BANNED_CPUS=0000000c\n"
		"IRQBALANCE_ARGS='--journal -o'\n";
	static const char unterminated[] = "IRQBALANCE_BANNED_CPULIST=\"2-\n";
	static const char nuls[] = "IRQBALANCE_BANNED_CPULIST=\n\0\0=\nIRQBALANCE_ARGS=-x\0-o\n";
	static const char twice[] = "IRQBALANCE_BANNED_CPULIST=2-3\nIRQBALANCE_BANNED_CPULIST=\n"
				    "IRQBALANCE_BANNED_CPUS=c\nIRQBALANCE_BANNED_CPUS=zz\n";
	struct irqbalance_conf c;
	char list[64];

	(void)state;
	assert_int_equal(irqbalance_conf_parse(conf, strlen(conf), &c), 0);
	assert_true(c.has_cpulist);
	assert_int_equal(c.cpulist_err, 0);
	rtr_cpuset_format_list(&c.cpulist, list, sizeof(list));
	assert_string_equal(list, "2-3,6");
	assert_true(c.has_mask);
	rtr_cpuset_format_list(&c.mask, list, sizeof(list));
	assert_string_equal(list, "2-3");
	assert_true(c.oneshot);
	irqbalance_conf_free(&c);

	assert_int_equal(irqbalance_conf_parse(unterminated, sizeof(unterminated) - 1, &c), 0);
	assert_true(c.has_cpulist);
	assert_int_not_equal(c.cpulist_err, 0);
	irqbalance_conf_free(&c);
	assert_int_equal(irqbalance_conf_parse(nuls, sizeof(nuls) - 1, &c), 0);
	assert_false(c.has_cpulist);
	assert_false(c.oneshot);
	irqbalance_conf_free(&c);

	/* The last assignment wins, as in the shell; an empty one unsets. */
	assert_int_equal(irqbalance_conf_parse(twice, sizeof(twice) - 1, &c), 0);
	assert_false(c.has_cpulist);
	assert_true(rtr_cpuset_is_empty(&c.cpulist));
	assert_true(c.has_mask);
	assert_int_equal(c.mask_err, -EINVAL);
	assert_true(rtr_cpuset_is_empty(&c.mask));
	irqbalance_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86),
		cmocka_unit_test(test_arm_offline),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_big_header),
		cmocka_unit_test(test_irqbalance),
	};

	return unit_run(tests, NULL, NULL);
}
