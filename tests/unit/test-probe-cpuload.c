// SPDX-License-Identifier: MIT
/*
 * The housekeeping load of `rtready plan`: the /proc/stat parser (per-CPU
 * lines only, old kernels' shorter lines, isolated CPUs left out, garbage
 * skipped) and the load between two samples (CPUs busy, interrupt rate, the
 * housekeeping CPUs that keep it under half busy).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"

#include "probe/cpuload.h"

static const char stat_a[] =
	"cpu  1000 0 1000 8000 0 0 0 0 0 0\n"
	"cpu0 100 0 100 800 0 0 0 0 0 0\n"
	"cpu1 200 10 90 700 0 0 0 0 0 0\n"
	"cpu2 50 0 50 900 0 0 0 0 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n";

/* 100 ticks later per CPU: cpu0 +60 busy, cpu1 +90 (irq, softirq; steal is not busy), cpu2 +0. */
static const char stat_b[] =
	"cpu  1200 0 1100 8100 0 0 0 0 0 0\n"
	"cpu0 140 0 120 840 0 0 0 0 0 0\n"
	"cpu1 200 10 90 700 0 50 40 10 0 0\n"
	"cpu2 50 0 50 1000 0 0 0 0 0 0\n"
	"intr 22345 0 0\n";

static void test_parse(void **state)
{
	struct cpuload_sample s;
	struct rtr_cpuset ex = RTR_CPUSET_INIT;

	(void)state;
	assert_int_equal(cpuload_parse_stat(stat_a, strlen(stat_a), NULL, &s), 0);
	assert_int_equal(s.n_cpus, 3);			/* not the "cpu" total */
	assert_int_equal(s.busy_ticks, 200 + 300 + 100);
	assert_int_equal(s.all_ticks, 1000 + 1000 + 1000);
	assert_int_equal(rtr_cpuset_set(&ex, 1), 0);
	assert_int_equal(cpuload_parse_stat(stat_a, strlen(stat_a), &ex, &s), 0);
	assert_int_equal(s.n_cpus, 2);
	assert_int_equal(s.busy_ticks, 300);
	rtr_cpuset_free(&ex);
	/* A 2.4 kernel's four fields; garbage lines and NUL bytes are skipped. */
	assert_int_equal(cpuload_parse_stat("cpu0 1 2 3 4\ncpuX 1 2 3 4\ncpu1 a b c d\n"
					    "cpu2 1 2\n\0cpu3 5 5 5 5\n", 51, NULL, &s), 0);
	assert_int_equal(s.n_cpus, 1);
	assert_int_equal(s.busy_ticks, 6);
	/* No CPU line at all: no data. */
	assert_int_equal(cpuload_parse_stat("intr 1\n", 7, NULL, &s), -EINVAL);
	assert_int_equal(cpuload_parse_stat("", 0, NULL, &s), -EINVAL);
	assert_int_equal(cpuload_parse_stat("cpu0 99999999999999999999999 0 0 0\n", 35, NULL, &s),
			 -EINVAL);
}

static void test_between(void **state)
{
	struct cpuload_sample a, b;
	struct cpuload l;

	(void)state;
	assert_int_equal(cpuload_parse_stat(stat_a, strlen(stat_a), NULL, &a), 0);
	assert_int_equal(cpuload_parse_stat(stat_b, strlen(stat_b), NULL, &b), 0);
	a.irqs = 1000;
	b.irqs = 1500;
	/* 150 busy ticks of 300 on 3 CPUs: 1.5 CPUs busy, 3 CPUs keep it at half. */
	assert_int_equal(cpuload_between(&a, &b, 500000000, &l), 0);
	assert_true(l.busy_cpus > 1.49 && l.busy_cpus < 1.51);
	assert_true(l.irq_per_s > 999.0 && l.irq_per_s < 1001.0);
	assert_int_equal(l.housekeeping, 3);
	/* An idle machine still keeps one. */
	assert_int_equal(cpuload_between(&a, &a, 1, &l), -EINVAL);	/* no time passed */
	b = a;
	b.all_ticks += 300;
	assert_int_equal(cpuload_between(&a, &b, 500000000, &l), 0);
	assert_int_equal(l.housekeeping, 1);
	/* Exactly half of one CPU busy: one CPU is enough. */
	b.busy_ticks += 50;
	assert_int_equal(cpuload_between(&a, &b, 500000000, &l), 0);
	assert_int_equal(l.housekeeping, 1);
	/* Interrupts unknown: the rate says so, the load stands. */
	b.irqs_err = -ENOENT;
	assert_int_equal(cpuload_between(&a, &b, 500000000, &l), 0);
	assert_true(l.irq_per_s < 0);
	/* Samples that do not fit: counters back, other CPUs, no window. */
	assert_int_equal(cpuload_between(&b, &a, 500000000, &l), -EINVAL);
	b.n_cpus++;
	assert_int_equal(cpuload_between(&a, &b, 500000000, &l), -EINVAL);
	assert_int_equal(cpuload_between(&a, &a, 0, &l), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_between),
	};

	return unit_run(tests, NULL, NULL);
}
