// SPDX-License-Identifier: MIT
/*
 * The verdict's reason names what it judged: the first few failed checks
 * and the CPUs that took no sample, each list cut with "and N more".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"
#include <jansson.h>

#include "report/result.h"

#define CHECK(id, st) "{\"id\":\"" id "\",\"status\":\"" st "\",\"evidence\":\"e\"}"
#define NONE(cpu)                                                                          \
	"{\"cpu\":" #cpu ",\"samples\":0,\"min_ns\":0,\"avg_ns\":0,\"max_ns\":0,"            \
	"\"p50_ns\":0,\"p99_ns\":0,\"p999_ns\":0}"
#define SOME(cpu)                                                                          \
	"{\"cpu\":" #cpu ",\"samples\":100,\"min_ns\":1000,\"avg_ns\":2000,\"max_ns\":9000," \
	"\"p50_ns\":2000,\"p99_ns\":5000,\"p999_ns\":6000}"

static void judge(const char *text, struct result *r)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	char err[256];

	assert_non_null(j);
	if (result_from_json(j, "v", r, err, sizeof(err)))
		fail_msg("%s", err);
	json_decref(j);
	assert_int_equal(result_judge(r, 40, &r->verdict), 0);
}

static void test_lists(void **state)
{
	static const char text[] =
		"{\"tool\":\"rtready\",\"command\":\"verify\",\"check\":{\"checks\":["
		CHECK("a.one", "fail") "," CHECK("a.two", "fail") "," CHECK("a.three", "fail") ","
		CHECK("a.four", "fail") "," CHECK("a.five", "fail") "," CHECK("w.one", "warn")
		"]},"
		"\"latency_idle\":{\"config\":{\"load\":null},\"threads\":["
		NONE(0) "," NONE(1) "," SOME(2) "," NONE(3) "," NONE(4) "," NONE(5) "," NONE(6) "]},"
		"\"latency_load\":{\"config\":{\"load\":\"all\"},\"threads\":["
		SOME(0) "," NONE(1) "]}}";
	struct result r;

	(void)state;
	judge(text, &r);
	assert_int_equal(r.verdict.status, RTR_FAIL);
	assert_string_equal(r.verdict.reason,
			    "5 checks failed (a.one, a.two, a.three and 2 more); worst loaded latency "
			    "9.0 us on CPU 0, within the 40 us limit; no samples on idle CPU 0, 1, 3, "
			    "4 and 2 more and loaded CPU 1 (not measured, so not judged)");
	result_free(&r);
}

static void test_short_lists(void **state)
{
	static const char text[] =
		"{\"tool\":\"rtready\",\"command\":\"verify\",\"check\":{\"checks\":["
		CHECK("a.one", "warn") "," CHECK("a.two", "warn") "," CHECK("a.three", "warn") "]},"
		"\"latency_idle\":{\"config\":{\"load\":null},\"threads\":["
		NONE(0) "," SOME(1) "," NONE(2) "]}}";
	struct result r;

	(void)state;
	judge(text, &r);
	assert_int_equal(r.verdict.status, RTR_WARN);
	assert_string_equal(r.verdict.reason,
			    "no check failed, 3 warned (a.one, a.two, a.three); worst idle latency "
			    "9.0 us on CPU 1, within the 40 us limit; no samples on idle CPU 0, 2 "
			    "(not measured, so not judged)");
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_short_lists),
	};

	return unit_run(tests, NULL, NULL);
}
