// SPDX-License-Identifier: MIT
/*
 * Unit tests of the latency histogram: the invariant that buckets plus
 * overflows equal the sample count, exact percentiles against a sorted
 * reference, exact outliers past the range, merging, and no page fault in
 * rtr_hist_add() once the histogram is set up.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/hist.h"
#include "rtready/mem.h"

static uint64_t sum_counts(const struct rtr_hist *h)
{
	uint64_t s = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		s += h->counts[i];
	return s;
}

static void assert_invariant(const struct rtr_hist *h)
{
	assert_true(sum_counts(h) + h->overflows == h->samples);
	assert_true(h->n_outliers <= h->outliers_cap);
	assert_true(h->n_outliers <= h->overflows);
}

static void test_init_errors(void **state)
{
	struct rtr_hist h;

	(void)state;
	assert_int_equal(rtr_hist_init(&h, 0, 1000, 0), -EINVAL);
	assert_int_equal(rtr_hist_init(&h, 1, 0, 0), -EINVAL);
	assert_int_equal(rtr_hist_init(&h, 1, UINT64_MAX, 0), -EINVAL);
	assert_int_equal(rtr_hist_init(&h, 1000, 1000, (1u << 20) + 1), -EINVAL);
	/* A partial bucket rounds up. */
	assert_int_equal(rtr_hist_init(&h, 1000, 2500, 4), 0);
	assert_int_equal(h.nbuckets, 3);
	assert_int_equal(rtr_hist_range_ns(&h), 3000);
	rtr_hist_free(&h);
	rtr_hist_free(&h);
	rtr_hist_free(NULL);
}

static void test_empty(void **state)
{
	struct rtr_hist h;

	(void)state;
	assert_int_equal(rtr_hist_init(&h, 1000, 100000, 8), 0);
	assert_int_equal(rtr_hist_avg_ns(&h), 0);
	assert_int_equal(rtr_hist_percentile(&h, 0.5), 0);
	assert_true(h.min_ns == UINT64_MAX);
	assert_invariant(&h);
	rtr_hist_free(&h);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Deterministic pseudo-random values (xorshift), mostly small, some huge. */
static uint64_t next_value(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s % 100 == 0) ? 100000 + *s % 900000 : *s % 100000;
}

static void test_invariant_and_percentiles(void **state)
{
	enum { N = 20000 };
	uint64_t *ref = calloc(N, sizeof(*ref)), seed = 42, sum = 0;
	const double qs[] = { 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };
	struct rtr_hist h;

	(void)state;
	assert_non_null(ref);
	/* 1 us buckets over 100 us; the 1 % of values past it are outliers. */
	assert_int_equal(rtr_hist_init(&h, 1000, 100000, N), 0);
	for (size_t i = 0; i < N; i++) {
		ref[i] = next_value(&seed);
		sum += ref[i];
		rtr_hist_add(&h, ref[i]);
		if (i % 997 == 0)
			assert_invariant(&h);
	}
	assert_invariant(&h);
	assert_int_equal(h.samples, N);
	qsort(ref, N, sizeof(*ref), cmp_u64);
	assert_int_equal(h.min_ns, ref[0]);
	assert_int_equal(h.max_ns, ref[N - 1]);
	assert_int_equal(rtr_hist_avg_ns(&h), sum / N);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t rank = (size_t)(qs[i] * N + 0.999999);
		uint64_t exact = ref[rank - 1], got = rtr_hist_percentile(&h, qs[i]);

		if (exact < rtr_hist_range_ns(&h)) {
			/* Upper edge of the bucket the exact value sits in. */
			assert_true(got >= exact);
			assert_true(got < exact + 1000);
		} else {
			/* All overflows are kept: exact. */
			assert_int_equal(got, exact);
		}
	}
	assert_int_equal(rtr_hist_percentile(&h, 1.0), h.max_ns);
	assert_int_equal(rtr_hist_percentile(&h, 0.0), 0);
	free(ref);
	rtr_hist_free(&h);
}

static void test_outliers_keep_largest(void **state)
{
	struct rtr_hist h;
	uint64_t seen[3] = { 0, 0, 0 };

	(void)state;
	assert_int_equal(rtr_hist_init(&h, 10, 100, 3), 0);
	for (uint64_t v = 100; v < 200; v++)
		rtr_hist_add(&h, v);
	rtr_hist_add(&h, 5);
	assert_invariant(&h);
	assert_int_equal(h.overflows, 100);
	assert_int_equal(h.n_outliers, 3);
	for (size_t i = 0; i < 3; i++)
		seen[h.outliers[i] - 197] = 1;
	assert_true(seen[0] && seen[1] && seen[2]);
	/* p100 is the max; just below, the kept outliers answer exactly. */
	assert_int_equal(rtr_hist_percentile(&h, 1.0), 199);
	assert_int_equal(rtr_hist_percentile(&h, 100.0 / 101.0), 198);
	/* Past the kept outliers: the range end, a lower bound. */
	assert_int_equal(rtr_hist_percentile(&h, 0.5), 100);
	/* Reset keeps the configuration. */
	rtr_hist_reset(&h);
	assert_int_equal(h.samples, 0);
	assert_int_equal(h.n_outliers, 0);
	assert_int_equal(h.nbuckets, 10);
	assert_invariant(&h);
	rtr_hist_free(&h);
}

static void test_sum_saturates(void **state)
{
	struct rtr_hist h;

	(void)state;
	assert_int_equal(rtr_hist_init(&h, 1000, 1000, 0), 0);
	rtr_hist_add(&h, UINT64_MAX - 1);
	rtr_hist_add(&h, UINT64_MAX - 1);
	assert_true(h.sum_ns == UINT64_MAX);
	assert_int_equal(h.overflows, 2);
	assert_int_equal(h.n_outliers, 0);
	assert_invariant(&h);
	rtr_hist_free(&h);
}

static void test_merge(void **state)
{
	struct rtr_hist a, b, wide, other;

	(void)state;
	assert_int_equal(rtr_hist_init(&a, 100, 1000, 4), 0);
	assert_int_equal(rtr_hist_init(&b, 100, 1000, 4), 0);
	assert_int_equal(rtr_hist_init(&wide, 100, 10000, 4), 0);
	assert_int_equal(rtr_hist_init(&other, 50, 1000, 4), 0);
	for (uint64_t v = 0; v < 1000; v += 10)
		rtr_hist_add(&a, v);
	rtr_hist_add(&a, 5000);
	for (uint64_t v = 0; v < 500; v += 10)
		rtr_hist_add(&b, v);
	rtr_hist_add(&wide, 1);
	rtr_hist_add(&wide, 4000);
	rtr_hist_add(&wide, 9999);

	assert_int_equal(rtr_hist_merge(&a, &other), -EINVAL);
	assert_int_equal(rtr_hist_merge(&a, &b), 0);
	assert_int_equal(a.samples, 151);
	assert_int_equal(a.counts[0], 20);
	assert_int_equal(a.counts[9], 10);
	assert_invariant(&a);
	/* A wider source: its samples past our range become overflows. */
	assert_int_equal(rtr_hist_merge(&a, &wide), 0);
	assert_int_equal(a.samples, 154);
	assert_int_equal(a.overflows, 3);
	assert_int_equal(a.max_ns, 9999);
	assert_int_equal(a.min_ns, 0);
	assert_invariant(&a);
	assert_int_equal(rtr_hist_percentile(&a, 1.0), 9999);
	/* Merging an empty histogram changes nothing. */
	rtr_hist_reset(&b);
	assert_int_equal(rtr_hist_merge(&a, &b), 0);
	assert_int_equal(a.samples, 154);
	assert_int_equal(a.min_ns, 0);
	assert_invariant(&a);
	rtr_hist_free(&a);
	rtr_hist_free(&b);
	rtr_hist_free(&wide);
	rtr_hist_free(&other);
}

/* rtr_hist_add() runs in the RT loop: once set up it must not fault. */
static void test_add_does_not_fault(void **state)
{
	uint64_t min0, maj0, min1, maj1;
	struct rtr_hist h;

	(void)state;
	/* 8 MiB of counts: 2048 pages that calloc leaves untouched. */
	assert_int_equal(rtr_hist_init(&h, 1, 1u << 20, 16), 0);
	assert_int_equal(rtr_mem_thread_faults(&min0, &maj0), 0);
	for (uint64_t v = 0; v < (1u << 20); v += 512)
		rtr_hist_add(&h, v);
	rtr_hist_add(&h, 1u << 30);
	assert_int_equal(rtr_mem_thread_faults(&min1, &maj1), 0);
	assert_int_equal(min1 - min0 + maj1 - maj0, 0);
	assert_invariant(&h);
	rtr_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_invariant_and_percentiles),
		cmocka_unit_test(test_outliers_keep_largest),
		cmocka_unit_test(test_sum_saturates),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_add_does_not_fault),
	};

	return unit_run(tests, NULL, NULL);
}
