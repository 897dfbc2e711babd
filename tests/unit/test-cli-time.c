// SPDX-License-Identifier: MIT
/*
 * cli_time(), the one reader of time options: units, the bare number's
 * unit, the bounds (inclusive), and the message that names the range in
 * whole units.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"

static void test_values(void **state)
{
	char err[256] = "";
	int64_t v = -1;

	(void)state;
	assert_int_equal(cli_time("--x", "500", 1000, 0, INT64_MAX, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 500000);
	assert_int_equal(cli_time("--x", "2ms", 1000, 0, INT64_MAX, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 2000000);
	assert_int_equal(cli_time("--x", "1.5", 1000000000, 0, INT64_MAX, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1500000000);
	assert_int_equal(cli_time("--x", "300", 1, 0, INT64_MAX, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 300);
	/* Both bounds are accepted. */
	assert_int_equal(cli_time("--x", "10us", 1000, 10000, 1000000, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 10000);
	assert_int_equal(cli_time("--x", "1ms", 1000, 10000, 1000000, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1000000);
	assert_string_equal(err, "");
}

static void refused(const char *arg, int64_t unit, int64_t min, int64_t max, const char *msg)
{
	char err[256] = "";
	int64_t v = 42;

	assert_int_equal(cli_time("--x", arg, unit, min, max, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(v, 42);
	assert_string_equal(err, msg);
}

static void test_refused(void **state)
{
	(void)state;
	refused("9us", 1000, 10000, 10000000000, "--x: '9us' is not a time from 10us to 10s "
		"(a bare number is in us, like 500 or 2ms)");
	refused("11s", 1000, 10000, 10000000000, "--x: '11s' is not a time from 10us to 10s "
		"(a bare number is in us, like 500 or 2ms)");
	refused("2m", 1000000000, 0, 60000000000, "--x: '2m' is not a time from 0 to 1m "
		"(a bare number is in s, like 10 or 500ms)");
	refused("2s", 1000000000, 1000000, 1500000000, "--x: '2s' is not a time from "
		"1ms to 1500ms (a bare number is in s, like 10 or 500ms)");
	refused("ten", 1000000000, 0, INT64_MAX, "--x: 'ten' is not a time "
		"(a bare number is in s, like 10 or 500ms)");
	refused("0", 1, 1, INT64_MAX, "--x: '0' is not a time longer than 0 "
		"(a bare number is in ns, like 500 or 2us)");
	refused("1h", 1000, 2 * 3600000000000LL, INT64_MAX, "--x: '1h' is not a time of 2h or "
		"more (a bare number is in us, like 500 or 2ms)");
	refused("-1", 1000, 0, INT64_MAX, "--x: '-1' is not a time "
		"(a bare number is in us, like 500 or 2ms)");
	refused("", 1000, 0, INT64_MAX, "--x: '' is not a time "
		"(a bare number is in us, like 500 or 2ms)");
	/* Past int64 nanoseconds. */
	refused("99999999999d", 1000, 0, INT64_MAX, "--x: '99999999999d' is not a time "
		"(a bare number is in us, like 500 or 2ms)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
	};

	return unit_run(tests, NULL, NULL);
}
