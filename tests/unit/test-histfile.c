// SPDX-License-Identifier: MIT
/*
 * Unit tests of the cyclictest histogram file writer: the exact layout
 * rt-tests 2.x produces (row and trailer formats, tabs between threads,
 * overflow cycle lists with "others"), and the bucket widths it can map
 * onto microsecond rows.
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

#include "measure/histfile.h"

/* A result of @n CPUs with empty histograms of @bucket_ns over @range_ns. */
static void make(struct latency_result *r, size_t n, uint64_t bucket_ns, uint64_t range_ns,
		 size_t ovf_cap)
{
	memset(r, 0, sizeof(*r));
	latency_config_init(&r->cfg);
	r->cfg.bucket_ns = bucket_ns;
	r->cfg.range_ns = range_ns;
	r->n_cpus = n;
	r->cpus = calloc(n, sizeof(*r->cpus));
	assert_non_null(r->cpus);
	for (size_t i = 0; i < n; i++) {
		r->cpus[i].cpu = (int)i;
		assert_int_equal(rtr_hist_init(&r->cpus[i].hist, bucket_ns, range_ns, 8), 0);
		r->cpus[i].ovf_cycles = calloc(ovf_cap ? ovf_cap : 1, sizeof(uint64_t));
		assert_non_null(r->cpus[i].ovf_cycles);
	}
}

/* Add a sample at wake-up @cycle, recording the cycle of an overflow like the engine. */
static void add(struct latency_result *r, size_t t, uint64_t ns, uint64_t cycle, size_t ovf_cap)
{
	struct latency_cpu_result *c = &r->cpus[t];

	rtr_hist_add(&c->hist, ns);
	if (ns >= rtr_hist_range_ns(&c->hist) && c->n_ovf_cycles < ovf_cap)
		c->ovf_cycles[c->n_ovf_cycles++] = cycle;
}

static void finish(struct latency_result *r)
{
	for (size_t i = 0; i < r->n_cpus; i++)
		latency_stats_compute(&r->cpus[i].hist, 0, &r->cpus[i].stats);
}

/* Write @r to memory with @opt and compare with @want. */
static void expect_opt(const struct latency_result *r, const struct histfile_opts *opt,
		       int want_rc, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(histfile_write(fp, r, opt), want_rc);
	fclose(fp);
	if (want)
		assert_string_equal(buf, want);
	free(buf);
}

static void expect(const struct latency_result *r, int want_rc, const char *want)
{
	expect_opt(r, NULL, want_rc, want);
}

static void test_two_threads(void **state)
{
	struct latency_result r;

	(void)state;
	make(&r, 2, 1000, 4000, 2);
	/* Thread 0: 1.2, 1.9, 3.0 us and overflows at cycles 3, 5, 6 (one "other"). */
	add(&r, 0, 1200, 0, 2);
	add(&r, 0, 1900, 1, 2);
	add(&r, 0, 3000, 2, 2);
	add(&r, 0, 4000, 3, 2);
	add(&r, 0, 9999, 5, 2);
	add(&r, 0, 5000, 6, 2);
	/* Thread 1: 0.5 us twice. */
	add(&r, 1, 500, 0, 2);
	add(&r, 1, 600, 1, 2);
	finish(&r);
	expect(&r, 0,
	       "# Histogram\n"
	       "000000 000000\t000002\n"
	       "000001 000002\t000000\n"
	       "000002 000000\t000000\n"
	       "000003 000001\t000000\n"
	       "# Total: 000000003 000000002\n"
	       "# Min Latencies: 00001 00000\n"
	       "# Avg Latencies: 00004 00000\n"
	       "# Max Latencies: 00009 00000\n"
	       "# Histogram Overflows: 00003 00000\n"
	       "# Histogram Overflow at cycle number:\n"
	       "# Thread 0: 00003 00005 # 00001 others\n"
	       "# Thread 1:\n"
	       "\n");
	latency_result_free(&r);
}

/*
 * -H (cyclictest's --histofall): a sum column in every row and in Total,
 * Max and Overflows, none in Min and Avg; -N: Min/Avg/Max in ns. One
 * thread gets no sum column, as in cyclictest.
 */
static void test_histofall_and_ns(void **state)
{
	const struct histfile_opts all = { .sum_column = true }, ns = { .in_ns = true };
	struct latency_result r;

	(void)state;
	make(&r, 2, 1000, 3000, 4);
	add(&r, 0, 1200, 0, 4);
	add(&r, 0, 2500, 1, 4);
	add(&r, 1, 1700, 0, 4);
	add(&r, 1, 7000, 1, 4);
	finish(&r);
	expect_opt(&r, &all, 0,
		   "# Histogram\n"
		   "000000 000000\t000000\t000000\n"
		   "000001 000001\t000001\t000002\n"
		   "000002 000001\t000000\t000001\n"
		   "# Total: 000000002 000000001 000000003\n"
		   "# Min Latencies: 00001 00001\n"
		   "# Avg Latencies: 00001 00004\n"
		   "# Max Latencies: 00002 00007 00007\n"
		   "# Histogram Overflows: 00000 00001 00001\n"
		   "# Histogram Overflow at cycle number:\n"
		   "# Thread 0:\n"
		   "# Thread 1: 00001\n"
		   "\n");
	expect_opt(&r, &ns, 0,
		   "# Histogram\n"
		   "000000 000000\t000000\n"
		   "000001 000001\t000001\n"
		   "000002 000001\t000000\n"
		   "# Total: 000000002 000000001\n"
		   "# Min Latencies: 01200 01700\n"
		   "# Avg Latencies: 01850 04350\n"
		   "# Max Latencies: 02500 07000\n"
		   "# Histogram Overflows: 00000 00001\n"
		   "# Histogram Overflow at cycle number:\n"
		   "# Thread 0:\n"
		   "# Thread 1: 00001\n"
		   "\n");
	latency_result_free(&r);

	make(&r, 1, 1000, 1000, 1);
	add(&r, 0, 100, 0, 1);
	finish(&r);
	expect_opt(&r, &all, 0,
		   "# Histogram\n"
		   "000000 000001\n"
		   "# Total: 000000001\n"
		   "# Min Latencies: 00000\n"
		   "# Avg Latencies: 00000\n"
		   "# Max Latencies: 00000\n"
		   "# Histogram Overflows: 00000\n"
		   "# Histogram Overflow at cycle number:\n"
		   "# Thread 0:\n"
		   "\n");
	latency_result_free(&r);
}

static void test_narrow_buckets_sum_into_us_rows(void **state)
{
	struct latency_result r;

	(void)state;
	make(&r, 1, 250, 2000, 4);
	add(&r, 0, 100, 0, 4);	/* row 0 */
	add(&r, 0, 900, 1, 4);	/* row 0 */
	add(&r, 0, 1000, 2, 4);	/* row 1 */
	add(&r, 0, 1999, 3, 4);	/* row 1 */
	add(&r, 0, 2000, 4, 4);	/* overflow */
	finish(&r);
	expect(&r, 0,
	       "# Histogram\n"
	       "000000 000002\n"
	       "000001 000002\n"
	       "# Total: 000000004\n"
	       "# Min Latencies: 00000\n"
	       "# Avg Latencies: 00001\n"
	       "# Max Latencies: 00002\n"
	       "# Histogram Overflows: 00001\n"
	       "# Histogram Overflow at cycle number:\n"
	       "# Thread 0: 00004\n"
	       "\n");
	latency_result_free(&r);
}

static void test_wide_buckets_index_by_lower_edge(void **state)
{
	struct latency_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make(&r, 1, 2000, 6000, 1);
	add(&r, 0, 4500, 0, 1);
	finish(&r);
	fp = open_memstream(&buf, &len);
	assert_int_equal(histfile_write(fp, &r, NULL), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "# Histogram\n000000 000000\n000002 000000\n000004 000001\n"));
	free(buf);
	latency_result_free(&r);
}

static void test_bucket_rules(void **state)
{
	struct latency_result r;

	(void)state;
	assert_true(histfile_bucket_ok(1000));
	assert_true(histfile_bucket_ok(500));
	assert_true(histfile_bucket_ok(1));
	assert_true(histfile_bucket_ok(5000));
	assert_false(histfile_bucket_ok(300));
	assert_false(histfile_bucket_ok(1500));
	assert_false(histfile_bucket_ok(0));
	make(&r, 1, 300, 3000, 1);
	finish(&r);
	expect(&r, -EINVAL, NULL);
	latency_result_free(&r);
}

static void test_empty_thread(void **state)
{
	struct latency_result r;

	(void)state;
	make(&r, 1, 1000, 1000, 1);
	finish(&r);
	expect(&r, 0,
	       "# Histogram\n"
	       "000000 000000\n"
	       "# Total: 000000000\n"
	       "# Min Latencies: 00000\n"
	       "# Avg Latencies: 00000\n"
	       "# Max Latencies: 00000\n"
	       "# Histogram Overflows: 00000\n"
	       "# Histogram Overflow at cycle number:\n"
	       "# Thread 0:\n"
	       "\n");
	latency_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_histofall_and_ns),
		cmocka_unit_test(test_narrow_buckets_sum_into_us_rows),
		cmocka_unit_test(test_wide_buckets_index_by_lower_edge),
		cmocka_unit_test(test_bucket_rules),
		cmocka_unit_test(test_empty_thread),
	};

	return unit_run(tests, NULL, NULL);
}
