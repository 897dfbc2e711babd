// SPDX-License-Identifier: MIT
/* Unit tests of the cpu list and mask parsers and set operations. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/cpuset.h"

static void roundtrip(const char *in, const char *expect)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;
	char buf[256];

	assert_int_equal(rtr_cpuset_parse_list(&s, in), 0);
	rtr_cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, expect);
	rtr_cpuset_free(&s);
}

static void test_list_valid(void **state)
{
	(void)state;
	roundtrip("0", "0");
	roundtrip("0-3,8,10-11", "0-3,8,10-11");
	roundtrip("3,2,1,0", "0-3");
	roundtrip(" 1-2\n", "1-2");
	roundtrip("", "");
	roundtrip("\n", "");
	roundtrip("0-15:4", "0,4,8,12");
	roundtrip("2000-2003", "2000-2003");
	roundtrip("5,5,5", "5");
}

static void expect_err(const char *in, int err)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;

	assert_int_equal(rtr_cpuset_parse_list(&s, in), err);
	assert_true(rtr_cpuset_is_empty(&s));
	rtr_cpuset_free(&s);
}

static void test_list_garbage(void **state)
{
	(void)state;
	expect_err("1,2,3abc", -EINVAL);
	expect_err("0--1", -EINVAL);
	expect_err("3-1", -EINVAL);
	expect_err("-1", -EINVAL);
	expect_err("1,", -EINVAL);
	expect_err(",1", -EINVAL);
	expect_err("1,,2", -EINVAL);
	expect_err("1 2", -EINVAL);
	expect_err("0-", -EINVAL);
	expect_err("a", -EINVAL);
	expect_err("0-4:0", -EINVAL);
	expect_err("+1", -EINVAL);
	expect_err("0x1", -EINVAL);
	expect_err("0-99999999999999999999999", -ERANGE);
	expect_err("65536", -ERANGE);
	expect_err("0-65536", -ERANGE);
}

static void test_huge_range_bounded(void **state)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;

	(void)state;
	/* The largest legal range is filled without a hang. */
	assert_int_equal(rtr_cpuset_parse_list(&s, "0-65535"), 0);
	assert_int_equal(rtr_cpuset_count(&s), 65536);
	rtr_cpuset_free(&s);
}

static void test_mask(void **state)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;
	char buf[256];

	(void)state;
	assert_int_equal(rtr_cpuset_parse_mask(&s, "f"), 0);
	rtr_cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3");
	assert_int_equal(rtr_cpuset_parse_mask(&s, "00000001,00000000\n"), 0);
	rtr_cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "32");
	rtr_cpuset_format_mask(&s, 64, buf, sizeof(buf));
	assert_string_equal(buf, "00000001,00000000");
	assert_int_equal(rtr_cpuset_parse_mask(&s, "ff,00000000,0000000F"), 0);
	rtr_cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,64-71");
	assert_int_equal(rtr_cpuset_parse_mask(&s, "xyz"), -EINVAL);
	assert_int_equal(rtr_cpuset_parse_mask(&s, ""), -EINVAL);
	assert_int_equal(rtr_cpuset_parse_mask(&s, "1,,2"), -EINVAL);
	assert_int_equal(rtr_cpuset_parse_mask(&s, ",1"), -EINVAL);
	rtr_cpuset_clear(&s);
	rtr_cpuset_format_mask(&s, 2, buf, sizeof(buf));
	assert_string_equal(buf, "00000000");
	rtr_cpuset_free(&s);
}

static void test_ops(void **state)
{
	struct rtr_cpuset a = RTR_CPUSET_INIT, b = RTR_CPUSET_INIT, c = RTR_CPUSET_INIT;
	char buf[64];

	(void)state;
	assert_int_equal(rtr_cpuset_parse_list(&a, "0-3"), 0);
	assert_int_equal(rtr_cpuset_parse_list(&b, "2-5,200"), 0);
	assert_true(rtr_cpuset_intersects(&a, &b));
	assert_false(rtr_cpuset_is_subset(&a, &b));
	assert_int_equal(rtr_cpuset_copy(&c, &a), 0);
	rtr_cpuset_and(&c, &b);
	rtr_cpuset_format_list(&c, buf, sizeof(buf));
	assert_string_equal(buf, "2-3");
	assert_true(rtr_cpuset_is_subset(&c, &a));
	assert_int_equal(rtr_cpuset_or(&c, &b), 0);
	rtr_cpuset_format_list(&c, buf, sizeof(buf));
	assert_string_equal(buf, "2-5,200");
	rtr_cpuset_andnot(&c, &a);
	rtr_cpuset_format_list(&c, buf, sizeof(buf));
	assert_string_equal(buf, "4-5,200");
	assert_int_equal(rtr_cpuset_next(&c, -1), 4);
	assert_int_equal(rtr_cpuset_next(&c, 5), 200);
	assert_int_equal(rtr_cpuset_next(&c, 200), -1);
	assert_false(rtr_cpuset_equal(&a, &b));
	rtr_cpuset_unset(&c, 200);
	assert_int_equal(rtr_cpuset_parse_list(&b, "4-5"), 0);
	assert_true(rtr_cpuset_equal(&c, &b));	/* different capacities, same CPUs */
	assert_int_equal(rtr_cpuset_set(&c, -1), -ERANGE);
	assert_int_equal(rtr_cpuset_set(&c, RTR_CPUSET_MAX_CPUS), -ERANGE);
	assert_false(rtr_cpuset_test(&c, 100000));
	rtr_cpuset_free(&a);
	rtr_cpuset_free(&b);
	rtr_cpuset_free(&c);
	rtr_cpuset_free(NULL);
}

static void test_format_truncation(void **state)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;
	char buf[5];

	(void)state;
	assert_int_equal(rtr_cpuset_parse_list(&s, "0,2,4,6,8"), 0);
	assert_int_equal(rtr_cpuset_format_list(&s, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "0,2,");
	rtr_cpuset_free(&s);
}

static void test_sched_roundtrip(void **state)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT, t = RTR_CPUSET_INIT, e = RTR_CPUSET_INIT;
	cpu_set_t *cs;
	size_t sz;

	(void)state;
	assert_int_equal(rtr_cpuset_parse_list(&s, "1,1500"), 0);
	assert_int_equal(rtr_cpuset_to_sched(&s, &cs, &sz), 0);
	assert_true(CPU_ISSET_S(1500, sz, cs));
	assert_int_equal(rtr_cpuset_from_sched(&t, cs, sz), 0);
	assert_true(rtr_cpuset_equal(&s, &t));
	CPU_FREE(cs);
	assert_int_equal(rtr_cpuset_to_sched(&e, &cs, &sz), -EINVAL);
	assert_int_equal(rtr_cpuset_get_affinity(&t), 0);
	assert_false(rtr_cpuset_is_empty(&t));
	rtr_cpuset_free(&s);
	rtr_cpuset_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_valid),
		cmocka_unit_test(test_list_garbage),
		cmocka_unit_test(test_huge_range_bounded),
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_format_truncation),
		cmocka_unit_test(test_sched_roundtrip),
	};

	return unit_run(tests, NULL, NULL);
}
