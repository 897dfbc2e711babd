// SPDX-License-Identifier: MIT
/* Unit tests of option value parsers (durations, sizes, integers). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "util/parse.h"
#include "util/sorted.h"
#include "util/strbuf.h"

static int64_t dur(const char *s, int64_t unit)
{
	int64_t v = -1;

	assert_int_equal(parse_duration_ns(s, unit, &v), 0);
	return v;
}

static void test_duration(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(dur("500ms", 1000000000), 500000000);
	assert_int_equal(dur("10s", 1), 10000000000LL);
	assert_int_equal(dur("2m", 1), 120000000000LL);
	assert_int_equal(dur("1.5s", 1), 1500000000);
	assert_int_equal(dur("10", 1000000000), 10000000000LL);
	assert_int_equal(dur("1000", 1000), 1000000);
	assert_int_equal(dur("0", 1000000000), 0);
	assert_int_equal(dur("250us", 1), 250000);
	assert_int_equal(dur("1h", 1), 3600000000000LL);
	assert_int_equal(parse_duration_ns("", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("-1s", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("10x", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("s", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("1e3", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("0x10", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns(" 1s", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("1s ", 1, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("99999999999d", 1, &v), -ERANGE);
	assert_int_equal(parse_duration_ns(NULL, 1, &v), -EINVAL);
}

static void test_size(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("64M", &v), 0);
	assert_int_equal(v, 64ull << 20);
	assert_int_equal(parse_size("1k", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(parse_size("2GiB", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("1.5K", &v), 0);
	assert_int_equal(v, 1536);
	assert_int_equal(parse_size("12Q", &v), -EINVAL);
	assert_int_equal(parse_size("-1", &v), -EINVAL);
	assert_int_equal(parse_size("", &v), -EINVAL);
	assert_int_equal(parse_size("99999999999T", &v), -ERANGE);
}

static void test_int(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(parse_int64("80", 1, 98, &v), 0);
	assert_int_equal(v, 80);
	assert_int_equal(parse_int64("-5", -20, 19, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(parse_int64("99", 1, 98, &v), -ERANGE);
	assert_int_equal(parse_int64("8a", 1, 98, &v), -EINVAL);
	assert_int_equal(parse_int64("", 1, 98, &v), -EINVAL);
	assert_int_equal(parse_int64(" 8", 1, 98, &v), -EINVAL);
	assert_int_equal(parse_int64("99999999999999999999", 0, INT64_MAX, &v), -ERANGE);
}

static void test_pid_suffix(void **state)
{
	(void)state;
	assert_int_equal(parse_pid_suffix("rtready-1234", "rtready-"), 1234);
	assert_int_equal(parse_pid_suffix("rtready-2147483647", "rtready-"), 2147483647L);
	assert_int_equal(parse_pid_suffix("rtready-2147483648", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready-0", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready-012", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready-", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready-12x", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready-+12", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("other-12", "rtready-"), -1);
	assert_int_equal(parse_pid_suffix("rtready", "rtready-"), -1);
}

/* sorted_cmp_int(): ascending, also at the ends of int where a subtraction would overflow. */
static void test_sorted_cmp(void **state)
{
	int v[] = { 3, INT32_MIN, -1, INT32_MAX, 0, 3 };
	const int want[] = { INT32_MIN, -1, 0, 3, 3, INT32_MAX };

	(void)state;
	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), sorted_cmp_int);
	assert_memory_equal(v, want, sizeof(want));
}

static void test_sorted_find(void **state)
{
	static const struct {
		double pad;
		int id;
	} rows[] = { { 0, -3 }, { 0, 0 }, { 0, 2 }, { 0, 7 }, { 0, 9 } };
	const size_t n = sizeof(rows) / sizeof(rows[0]), off = offsetof(__typeof__(rows[0]), id);

	(void)state;
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(sorted_find_int(rows, n, sizeof(rows[0]), off, rows[i].id),
				 &rows[i]);
	assert_null(sorted_find_int(rows, n, sizeof(rows[0]), off, 1));
	assert_null(sorted_find_int(rows, n, sizeof(rows[0]), off, -4));
	assert_null(sorted_find_int(rows, n, sizeof(rows[0]), off, 10));
	assert_null(sorted_find_int(NULL, 0, sizeof(rows[0]), off, 0));
	assert_ptr_equal(sorted_find_int(rows, 1, sizeof(rows[0]), off, -3), &rows[0]);
}

static void test_format(void **state)
{
	char buf[32];

	(void)state;
	format_duration(1500000, buf, sizeof(buf));
	assert_string_equal(buf, "1.5 ms");
	format_duration(999, buf, sizeof(buf));
	assert_string_equal(buf, "999 ns");
	format_size(8 << 20, buf, sizeof(buf));
	assert_string_equal(buf, "8.0 MiB");
	format_size(12, buf, sizeof(buf));
	assert_string_equal(buf, "12 B");
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		strbuf_printf(&sb, "%d,", i);
	assert_int_equal(sb.err, 0);
	assert_int_equal(strlen(strbuf_str(&sb)), sb.len);
	assert_true(strncmp(strbuf_str(&sb), "0,1,2,", 6) == 0);
	strbuf_reset(&sb);
	strbuf_puts(&sb, "abc");
	strbuf_add(&sb, "defg", 2);
	assert_string_equal(strbuf_str(&sb), "abcde");
	s = strbuf_take(&sb);
	assert_string_equal(s, "abcde");
	assert_null(sb.s);
	free(s);
	strbuf_free(&sb);
}

__attribute__((format(printf, 2, 3)))
static void vprintf_into(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

/* strbuf_vprintf() appends the whole text, however long (check_set() and check_fix() use it). */
static void test_strbuf_vprintf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[10000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	vprintf_into(&sb, "%s=%d", "a", 1);
	vprintf_into(&sb, "; %s", big);
	assert_int_equal(sb.err, 0);
	assert_int_equal(sb.len, 5 + sizeof(big) - 1);
	assert_true(strncmp(strbuf_str(&sb), "a=1; xx", 7) == 0);
	assert_int_equal(strbuf_str(&sb)[sb.len - 1], 'x');
	strbuf_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_pid_suffix),
		cmocka_unit_test(test_sorted_find),
		cmocka_unit_test(test_sorted_cmp),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_strbuf_vprintf),
	};

	return unit_run(tests, NULL, NULL);
}
