// SPDX-License-Identifier: MIT
/*
 * Unit tests of the inline timespec arithmetic: normalisation of negative
 * and oversized nanoseconds, and saturation (never wrap-around) at the
 * limits of time_t and int64_t, so a bad interval cannot put a deadline
 * into the distant past.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/timespec.h"

static struct timespec ts(time_t s, long ns)
{
	struct timespec t = { s, ns };

	return t;
}

static void assert_ts(struct timespec t, time_t s, long ns)
{
	assert_int_equal(t.tv_sec, s);
	assert_int_equal(t.tv_nsec, ns);
}

static void test_normalize(void **state)
{
	(void)state;
	assert_ts(rtr_ts_normalize(ts(1, 0)), 1, 0);
	assert_ts(rtr_ts_normalize(ts(1, 1500000000L)), 2, 500000000L);
	assert_ts(rtr_ts_normalize(ts(1, -1)), 0, 999999999L);
	assert_ts(rtr_ts_normalize(ts(0, -1500000000L)), -2, 500000000L);
	assert_ts(rtr_ts_normalize(ts(0, 999999999L)), 0, 999999999L);
	/* Carry past the largest time_t saturates. */
	assert_ts(rtr_ts_normalize(ts(RTR_TIME_T_MAX, 1000000000L)), RTR_TIME_T_MAX, 999999999L);
	assert_ts(rtr_ts_normalize(ts(RTR_TIME_T_MIN, -1)), RTR_TIME_T_MIN, 0);
}

static void test_add(void **state)
{
	(void)state;
	assert_ts(rtr_ts_add_ns(ts(1, 999999999L), 1), 2, 0);
	assert_ts(rtr_ts_add_ns(ts(1, 0), -1), 0, 999999999L);
	assert_ts(rtr_ts_add_ns(ts(0, 0), 3 * RTR_NSEC_PER_SEC + 5), 3, 5);
	assert_ts(rtr_ts_add_ns(ts(0, 0), -(3 * RTR_NSEC_PER_SEC + 5)), -4, 999999995L);
	assert_ts(rtr_ts_add_ns(ts(5, 500), 0), 5, 500);
	/* Overflow in either direction saturates instead of wrapping. */
	assert_ts(rtr_ts_add_ns(ts(RTR_TIME_T_MAX, 0), INT64_MAX), RTR_TIME_T_MAX, 999999999L);
	assert_ts(rtr_ts_add_ns(ts(RTR_TIME_T_MAX - 1, 999999999L), 2 * RTR_NSEC_PER_SEC),
		  RTR_TIME_T_MAX, 999999999L);
	assert_ts(rtr_ts_add_ns(ts(RTR_TIME_T_MIN, 0), INT64_MIN), RTR_TIME_T_MIN, 0);
	assert_true(rtr_ts_cmp(rtr_ts_add_ns(ts(RTR_TIME_T_MAX, 0), 1), ts(0, 0)) > 0);
	assert_true(rtr_ts_cmp(rtr_ts_add_ns(ts(RTR_TIME_T_MIN + 1, 0), -2 * RTR_NSEC_PER_SEC),
			       ts(0, 0)) < 0);
}

static void test_to_from_ns(void **state)
{
	(void)state;
	assert_int_equal(rtr_ts_to_ns(ts(2, 5)), 2000000005LL);
	assert_int_equal(rtr_ts_to_ns(ts(-1, 0)), -1000000000LL);
	assert_int_equal(rtr_ts_to_ns(ts(0, -5)), -5);
	assert_true(rtr_ts_to_ns(ts(RTR_TIME_T_MAX, 0)) == INT64_MAX);
	assert_true(rtr_ts_to_ns(ts(RTR_TIME_T_MIN, 0)) == INT64_MIN);
	/* 9223372036 s + 854775807 ns is exactly INT64_MAX. */
	assert_true(rtr_ts_to_ns(ts(9223372036LL, 854775807L)) == INT64_MAX);
	assert_true(rtr_ts_to_ns(ts(9223372036LL, 854775808L)) == INT64_MAX);
	assert_ts(rtr_ts_from_ns(1500000000LL), 1, 500000000L);
	assert_ts(rtr_ts_from_ns(-1), -1, 999999999L);
	assert_ts(rtr_ts_from_ns(INT64_MAX), 9223372036LL, 854775807L);
	assert_ts(rtr_ts_from_ns(INT64_MIN), -9223372037LL, 145224192L);
	assert_true(rtr_ts_to_ns(rtr_ts_from_ns(INT64_MIN)) == INT64_MIN);
}

static void test_diff_cmp(void **state)
{
	(void)state;
	assert_int_equal(rtr_ts_diff_ns(ts(2, 0), ts(1, 999999999L)), 1);
	assert_int_equal(rtr_ts_diff_ns(ts(1, 0), ts(2, 0)), -1000000000LL);
	assert_true(rtr_ts_diff_ns(ts(RTR_TIME_T_MAX, 0), ts(RTR_TIME_T_MIN, 0)) == INT64_MAX);
	assert_true(rtr_ts_diff_ns(ts(RTR_TIME_T_MIN, 0), ts(RTR_TIME_T_MAX, 0)) == INT64_MIN);
	assert_true(rtr_ts_diff_ns(ts(10000000000LL, 0), ts(0, 0)) == INT64_MAX);
	assert_int_equal(rtr_ts_cmp(ts(1, 0), ts(0, 1000000000L)), 0);
	assert_int_equal(rtr_ts_cmp(ts(1, 1), ts(1, 2)), -1);
	assert_int_equal(rtr_ts_cmp(ts(2, 0), ts(1, 999999999L)), 1);
	assert_int_equal(rtr_ts_cmp(ts(-1, 0), ts(0, -1)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_to_from_ns),
		cmocka_unit_test(test_diff_cmp),
	};

	return unit_run(tests, NULL, NULL);
}
