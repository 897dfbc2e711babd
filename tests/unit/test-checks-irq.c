// SPDX-License-Identifier: MIT
/*
 * The irq.* checks as pure functions of hand-made facts: IRQs named with
 * their /proc/interrupts name and count on RT CPUs, effective affinity
 * outside the request, irqbalance with and without bans (and its own
 * default of banning isolated CPUs), no RT CPUs, unreadable facts.
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

static const char interrupts[] =
	"  CPU0 CPU1 CPU2 CPU3\n"
	" 24:  1  2  3  4 IO-APIC 5-edge eth0\n"
	" 25:  9  0  0  0 IO-APIC 6-edge nvme0q0\n"
	" 30:  0  0  0  5 IO-APIC 7-edge i2c\n"
	" 31:  0  0  0  0 IO-APIC 8-edge rtc0\n";

static void set(struct rtr_cpuset *s, const char *list)
{
	assert_int_equal(rtr_cpuset_parse_list(s, list), 0);
}

static void add_irq(struct facts *f, int irq, const char *req, const char *eff)
{
	struct irq_info *q = &f->irq.irqs[f->irq.n++];

	memset(q, 0, sizeof(*q));
	q->irq = irq;
	set(&q->affinity, req);
	if (eff)
		set(&q->effective, eff);
	else
		q->effective_err = -ENOENT;
}

/* 4 CPUs, RT CPUs 2-3 isolated, IRQs kept on 0-1, no irqbalance. */
static void tuned(struct facts *f)
{
	memset(f, 0, sizeof(*f));
	f->host = true;
	set(&f->cpu.online, "0-3");
	set(&f->cpu.isolated, "2-3");
	set(&f->irq.default_affinity, "0-1");
	f->irq.irqs = calloc(8, sizeof(*f->irq.irqs));
	add_irq(f, 24, "0-1", "1");
	add_irq(f, 25, "0", "0");
	assert_int_equal(interrupts_parse(interrupts, strlen(interrupts), &f->irq.interrupts), 0);
	f->irq.balance_err = -ENOENT;
	f->tasks.tasks = calloc(1, sizeof(*f->tasks.tasks));
	f->tasks.cap = 1;
	{
		struct task_info init = { .pid = 1, .tid = 1, .comm = "init" };

		set(&init.allowed, "0-1");
		assert_int_equal(tasks_append(&f->tasks, &init), 0);
		rtr_cpuset_free(&init.allowed);	/* appended as a copy */
	}
}

static void release(struct facts *f)
{
	probe_cpu_free(&f->cpu);
	probe_irq_free(&f->irq);
	probe_tasks_free(&f->tasks);
}

static void run_irqbalance(struct facts *f)
{
	struct task_info t = { .pid = 600, .tid = 600, .comm = "irqbalance" };

	set(&t.allowed, "0-3");
	assert_int_equal(tasks_append(&f->tasks, &t), 0);
	rtr_cpuset_free(&t.allowed);
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
	static const char *const ids[] = { "irq.default_affinity", "irq.affinity",
					   "irq.effective_affinity", "irq.balance" };
	struct facts f;

	(void)state;
	tuned(&f);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct result r = run(&f, "2-3", ids[i]);

		if (r.status != RTR_PASS)
			fail_msg("%s: status %d: %s", ids[i], r.status, r.evidence);
	}
	release(&f);
}

static void test_default_affinity(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	set(&f.irq.default_affinity, "0-3");
	r = run(&f, "2-3", "irq.default_affinity");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.fix, "echo 00000003 > /proc/irq/default_smp_affinity");
	assert_contains(r.fix, "irqaffinity=0-1");
	assert_int_equal(run(&f, NULL, "irq.default_affinity").status, RTR_INFO);
	f.irq.default_err = -EACCES;
	r = run(&f, "2-3", "irq.default_affinity");
	assert_int_equal(r.status, RTR_SKIP);
	assert_contains(r.evidence, "Permission denied");
	release(&f);
}

static void test_affinity(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	add_irq(&f, 30, "0-1", "3");	/* effective on an RT CPU */
	add_irq(&f, 31, "3", NULL);	/* requested RT, no effective file */
	add_irq(&f, 40, "2-3", NULL);	/* not in /proc/interrupts: no handler */
	/* Kept sorted: find() relies on it. */
	r = run(&f, "2-3", "irq.affinity");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "2 may be delivered to an RT CPU");
	assert_contains(r.evidence, "1 without a handler, left out");
	assert_contains(r.evidence, "IRQ 30 (i2c) -> 0-1, effective 3, 5 on RT");
	assert_contains(r.evidence, "IRQ 31 (rtc0) -> 3");
	assert_true(strstr(r.evidence, "IRQ 40") == NULL);
	assert_contains(r.fix, "for i in 30 31; do echo 0-1 > /proc/irq/$i/smp_affinity_list");
	assert_contains(r.fix, "managed_irq");
	/* With its name and RT count from /proc/interrupts. */
	f.irq.irqs[0].affinity.bits[0] = 0xf;
	r = run(&f, "2-3", "irq.affinity");
	assert_contains(r.evidence, "IRQ 24 (eth0) -> 0-3, effective 1, 7 on RT");
	assert_int_equal(run(&f, NULL, "irq.affinity").status, RTR_INFO);
	f.irq.err = -ENOENT;
	assert_int_equal(run(&f, "2-3", "irq.affinity").status, RTR_SKIP);
	release(&f);
}

/*
 * Kernel-managed queue vectors: told apart from the rest, never in the fix's
 * write loop. With isolcpus=managed_irq a vector left on an isolated CPU
 * that has not fired there is the kernel's best (pass from debugfs, info when
 * inferred); one that fired there, or no managed_irq flag, is a warning.
 */
static void test_affinity_managed(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	f.cpu.isolcpus.given = true;
	set(&f.cpu.isolcpus.cpus, "2-3");
	f.cpu.isolcpus_flags = CPU_ISOL_DOMAIN | CPU_ISOL_MANAGED_IRQ;
	add_irq(&f, 31, "3", "3");	/* rtc0: 0 on RT */
	f.irq.irqs[2].managed = IRQ_MANAGED_YES;
	r = run(&f, "2-3", "irq.affinity");
	assert_int_equal(r.status, RTR_PASS);
	assert_contains(r.evidence, "from debugfs");
	assert_contains(r.evidence, "1 on RT CPUs only");
	assert_contains(r.evidence, "IRQ 31 (rtc0) -> 3, effective 3, 0 on RT");
	f.irq.irqs[2].managed = IRQ_MANAGED_SPREAD;
	r = run(&f, "2-3", "irq.affinity");
	assert_int_equal(r.status, RTR_INFO);
	assert_contains(r.evidence, "inferred");
	/* A managed vector across housekeeping and RT CPUs, delivered to housekeeping. */
	f.irq.irqs[2].managed = IRQ_MANAGED_YES;
	set(&f.irq.irqs[2].affinity, "1,3");
	set(&f.irq.irqs[2].effective, "1");
	assert_int_equal(run(&f, "2-3", "irq.affinity").status, RTR_PASS);
	set(&f.irq.irqs[2].affinity, "3");
	set(&f.irq.irqs[2].effective, "3");
	/* It fired on the RT CPU: I/O was submitted there. */
	add_irq(&f, 30, "3", "3");	/* i2c: 5 on RT */
	f.irq.irqs[3].managed = IRQ_MANAGED_YES;
	{
		/* Kept sorted: find() relies on it. */
		struct irq_info t = f.irq.irqs[2];

		f.irq.irqs[2] = f.irq.irqs[3];
		f.irq.irqs[3] = t;
	}
	r = run(&f, "2-3", "irq.affinity");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "1 have fired on RT CPUs, for I/O submitted there");
	assert_contains(r.fix, "block I/O");
	assert_true(strstr(r.fix, "smp_affinity_list") == NULL);
	/* No managed_irq flag: the boot line is the fix, not a write. */
	f.cpu.isolcpus_flags = CPU_ISOL_DOMAIN;
	r = run(&f, "2-3", "irq.affinity");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "2 may be delivered to RT CPUs, and isolcpus= has no "
				    "managed_irq flag");
	assert_contains(r.fix, "isolcpus=managed_irq,2-3");
	assert_true(strstr(r.fix, "smp_affinity_list") == NULL);
	/* A plain IRQ beside them goes in the loop, the managed ones do not. */
	f.irq.irqs[3].managed = IRQ_MANAGED_NO;
	r = run(&f, "2-3", "irq.affinity");
	assert_contains(r.fix, "for i in 31; do echo 0-1 > /proc/irq/$i/smp_affinity_list");
	release(&f);
}

static void test_effective(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	tuned(&f);
	add_irq(&f, 40, "0", "2");
	r = run(&f, "2-3", "irq.effective_affinity");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "IRQ 40: requested 0, delivered to 2 (an RT CPU)");
	release(&f);
	tuned(&f);
	add_irq(&f, 41, "0", "1");
	assert_int_equal(run(&f, "2-3", "irq.effective_affinity").status, RTR_INFO);
	release(&f);
	/* No effective affinity anywhere. */
	tuned(&f);
	for (size_t i = 0; i < f.irq.n; i++)
		f.irq.irqs[i].effective_err = -ENOENT;
	assert_int_equal(run(&f, "2-3", "irq.effective_affinity").status, RTR_INFO);
	release(&f);
}

static void test_balance(void **state)
{
	struct facts f;
	struct result r;

	(void)state;
	/* No task read at all: nobody can tell whether irqbalance runs. */
	tuned(&f);
	f.tasks.n = 0;
	f.tasks.unreadable = 3;
	f.tasks.first_unreadable_err = -EINVAL;
	strcpy(f.tasks.first_unreadable, "/proc/1/task/1/stat");
	r = run(&f, "2-3", "irq.balance");
	assert_int_equal(r.status, RTR_SKIP);
	assert_contains(r.evidence, "/proc/1/task/1/stat is not in the expected format");
	f.tasks.n = 1;
	/* Running, no file: it bans the isolated CPUs itself. */
	run_irqbalance(&f);
	r = run(&f, "2-3", "irq.balance");
	assert_int_equal(r.status, RTR_PASS);
	assert_contains(r.evidence, "irqbalance runs (pid 600)");
	/* RT CPUs beyond the isolated ones: not banned. */
	r = run(&f, "1-3", "irq.balance");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "not banned 1");
	assert_contains(r.fix, "IRQBALANCE_BANNED_CPULIST=1-3 in /etc/default/irqbalance");
	/* A ban list replaces the automatic one. */
	f.irq.balance_err = 0;
	strcpy(f.irq.balance_path, "/etc/default/irqbalance");
	f.irq.balance.has_cpulist = true;
	set(&f.irq.balance.cpulist, "3");
	r = run(&f, "2-3", "irq.balance");
	assert_int_equal(r.status, RTR_WARN);
	assert_contains(r.evidence, "not banned 2");
	/* Both variables: only what both ban counts. */
	set(&f.irq.balance.cpulist, "2-3");
	f.irq.balance.has_mask = true;
	set(&f.irq.balance.mask, "3");
	assert_int_equal(run(&f, "2-3", "irq.balance").status, RTR_WARN);
	set(&f.irq.balance.mask, "2-3");
	assert_int_equal(run(&f, "2-3", "irq.balance").status, RTR_PASS);
	assert_int_equal(run(&f, NULL, "irq.balance").status, RTR_INFO);
	f.tasks.err = -ENOENT;
	assert_int_equal(run(&f, "2-3", "irq.balance").status, RTR_SKIP);
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned_passes),
		cmocka_unit_test(test_default_affinity),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_affinity_managed),
		cmocka_unit_test(test_effective),
		cmocka_unit_test(test_balance),
	};

	return unit_run(tests, NULL, NULL);
}
