// SPDX-License-Identifier: MIT
/*
 * The two checks that a kernel CPU set leaves out the RT CPUs,
 * cpu.workqueue and irq.default_affinity (one body, check_off_rt()): the
 * whole evidence and fix of each outcome, word for word.
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

static void set(struct rtr_cpuset *s, const char *list)
{
	assert_int_equal(rtr_cpuset_parse_list(s, list), 0);
}

/* 4 CPUs; unbound workqueues and new IRQs allowed on @allowed. */
static struct facts *machine(const char *allowed)
{
	struct facts *f = facts_blank();

	f->host = true;
	set(&f->cpu.online, "0-3");
	set(&f->cpu.present, "0-3");
	set(&f->cpu.possible, "0-3");
	set(&f->cpu.workqueue, allowed);
	set(&f->irq.default_affinity, allowed);
	return f;
}

static void expect(const char *id, const char *allowed, const char *rt, enum rtr_status status,
		   const char *evidence, const char *fix)
{
	struct facts *f = machine(allowed);
	struct result r;

	run_check(f, rt, id, &r);
	assert_int_equal(r.status, status);
	assert_string_equal(r.evidence, evidence);
	assert_string_equal(r.fix, fix);
	facts_blank_free(f);
}

static void test_workqueue(void **state)
{
	(void)state;
	expect("cpu.workqueue", "0-1", "2-3", RTR_PASS,
	       "RT CPUs 2-3 (from --rt-cpus); unbound workqueues may run on 0-1: none of them RT.",
	       "");
	expect("cpu.workqueue", "0-3", "2-3", RTR_WARN,
	       "RT CPUs 2-3 (from --rt-cpus); unbound workqueues may run on 0-3, including RT "
	       "CPUs 2-3.",
	       "echo 00000003 > /sys/devices/virtual/workqueue/cpumask (now: the CPUs 0-1). The write "
	       "does not survive a reboot: repeat it in a boot script or systemd unit.");
	expect("cpu.workqueue", "0-3", "0-3", RTR_WARN,
	       "RT CPUs 0-3 (from --rt-cpus); unbound workqueues may run on 0-3, including RT "
	       "CPUs 0-3.",
	       "Every online CPU is RT: leave at least one CPU for the kernel's housekeeping.");
}

static void test_default_affinity(void **state)
{
	(void)state;
	expect("irq.default_affinity", "0-1", "2-3", RTR_PASS,
	       "RT CPUs 2-3 (from --rt-cpus); /proc/irq/default_smp_affinity allows 0-1: no RT "
	       "CPU.",
	       "");
	expect("irq.default_affinity", "0-3", "3", RTR_WARN,
	       "RT CPUs 3 (from --rt-cpus); /proc/irq/default_smp_affinity allows 0-3, RT CPUs 3 "
	       "included: every IRQ set up from now on may be delivered there.",
	       "Now: echo 00000007 > /proc/irq/default_smp_affinity (CPUs 0-2). The write does not "
	       "survive a reboot: add irqaffinity=0-2 to the kernel command line "
	       "(GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub).");
	expect("irq.default_affinity", "0-3", "0-3", RTR_WARN,
	       "RT CPUs 0-3 (from --rt-cpus); /proc/irq/default_smp_affinity allows 0-3, RT CPUs "
	       "0-3 included: every IRQ set up from now on may be delivered there.",
	       "Every online CPU is RT: leave at least one CPU for interrupts.");
}

/* check_set() and check_fix() replace what was there with the whole text, however long. */
static void test_set_fix(void **state)
{
	struct check_out out = { RTR_PASS, STRBUF_INIT, STRBUF_INIT };
	static char big[6000];

	(void)state;
	memset(big, 'y', sizeof(big) - 1);
	strbuf_puts(&out.evidence, "old evidence");
	strbuf_puts(&out.fix, "old fix");
	check_set(&out, RTR_WARN, "%d: %s", 42, big);
	check_fix(&out, "%s.", big);
	assert_int_equal(out.status, RTR_WARN);
	assert_int_equal(out.evidence.len, 4 + sizeof(big) - 1);
	assert_true(strncmp(strbuf_str(&out.evidence), "42: yyy", 7) == 0);
	assert_int_equal(out.fix.len, sizeof(big));
	assert_string_equal(strbuf_str(&out.fix) + sizeof(big) - 2, "y.");
	strbuf_free(&out.evidence);
	strbuf_free(&out.fix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workqueue),
		cmocka_unit_test(test_default_affinity),
		cmocka_unit_test(test_set_fix),
	};

	return unit_run(tests, NULL, NULL);
}
