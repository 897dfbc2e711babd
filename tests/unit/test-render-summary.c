// SPDX-License-Identifier: MIT
/*
 * The text summary `rtready verify` prints (checks worst first, idle and
 * loaded latency side by side, the verdict) and the verify option parser.
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
#include <jansson.h>

#include "cli/opt.h"
#include "cli/cmd_verify.h"
#include "render/summary.h"
#include "report/result.h"

static const char verify_json[] =
	"{\"tool\":\"rtready\",\"command\":\"verify\",\"host\":{\"hostname\":\"rig\"},"
	"\"check\":{\"checks\":["
	"{\"id\":\"mem.swap\",\"status\":\"pass\",\"evidence\":\"no swap\"},"
	"{\"id\":\"irq.affinity\",\"status\":\"fail\",\"evidence\":\"IRQ 24\\non CPU 3\"},"
	"{\"id\":\"cpu.governor\",\"status\":\"warn\",\"evidence\":\"powersave\"}]},"
	"\"latency_idle\":{\"config\":{\"load\":null},\"threads\":["
	"{\"cpu\":0,\"samples\":1000,\"min_ns\":1000,\"avg_ns\":2000,\"max_ns\":9500,"
	"\"p50_ns\":2000,\"p99_ns\":5000,\"p999_ns\":6000}]},"
	"\"latency_load\":{\"config\":{\"load\":\"all\"},\"threads\":["
	"{\"cpu\":0,\"samples\":990,\"min_ns\":1000,\"avg_ns\":3000,\"max_ns\":41200,"
	"\"p50_ns\":3000,\"p99_ns\":15000,\"p999_ns\":30000}]}}";

static void test_summary(void **state)
{
	struct result r;
	json_error_t je;
	json_t *j = json_loads(verify_json, 0, &je);
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(j);
	assert_int_equal(result_from_json(j, "v", &r, err, sizeof(err)), 0);
	json_decref(j);
	assert_int_equal(result_judge(&r, 40, &r.verdict), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(summary_write(f, &r, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Checks: 1 fail, 1 warn, 0 skip, 0 info, 1 pass"));
	/* Worst first, passes not listed, evidence on one line. */
	assert_true(strstr(buf, "irq.affinity") < strstr(buf, "cpu.governor"));
	assert_null(strstr(buf, "mem.swap"));
	assert_non_null(strstr(buf, "IRQ 24 on CPU 3"));
	/* Idle and loaded on one row of CPU 0. */
	assert_non_null(strstr(buf, "under load (all)"));
	assert_non_null(strstr(buf, "    0       1000     2.0     5.0      9.5       990     3.0    "
				    "15.0     41.2"));
	assert_non_null(strstr(buf, "Verdict: FAIL: 1 check failed (irq.affinity); loaded max 41.2 us "
				    "on CPU 0 exceeds the 40 us limit"));
	assert_null(strstr(buf, "\033["));	/* no colour asked */
	free(buf);
	result_free(&r);
}

/* A phase that took no sample: dashes, not a perfect 0.0, and the verdict warns and says why. */
/* With colour: each status line and the verdict in the status's colour, then reset. */
static void test_summary_color(void **state)
{
	struct result r;
	json_error_t je;
	json_t *j = json_loads(verify_json, 0, &je);
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(j);
	assert_int_equal(result_from_json(j, "v", &r, err, sizeof(err)), 0);
	json_decref(j);
	assert_int_equal(result_judge(&r, 40, &r.verdict), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(summary_write(f, &r, true), 0);
	fclose(f);
	assert_non_null(strstr(buf, "  \033[1;31mfail\033[0m irq.affinity"));
	assert_non_null(strstr(buf, "  \033[33mwarn\033[0m cpu.governor"));
	assert_non_null(strstr(buf, "Verdict: \033[1;31mFAIL\033[0m: "));
	free(buf);
	result_free(&r);
}

static void test_summary_unmeasured(void **state)
{
	static const char text[] =
		"{\"tool\":\"rtready\",\"command\":\"verify\","
		"\"check\":{\"checks\":[{\"id\":\"mem.swap\",\"status\":\"pass\"}]},"
		"\"latency_idle\":{\"threads\":[{\"cpu\":0,\"samples\":0,\"min_ns\":0,"
		"\"avg_ns\":0,\"max_ns\":0}]}}";
	struct result r;
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(j);
	assert_int_equal(result_from_json(j, "v", &r, err, sizeof(err)), 0);
	json_decref(j);
	assert_int_equal(result_judge(&r, 100, &r.verdict), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(summary_write(f, &r, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, "    0          0       -       -        -\n"));
	assert_non_null(strstr(buf, "Verdict: PASS WITH WARNINGS: no check failed or warned; "));
	assert_non_null(strstr(buf, "no samples on idle CPU 0 (not measured, so not judged)"));
	free(buf);
	result_free(&r);
}

static void test_verify_opts(void **state)
{
	char *dflt[] = { "verify", NULL };
	char *full[] = { "verify", "-D", "5s", "--rt-cpus", "1", "--max-latency", "150us",
			 "--report", "out", "--load", "cpu", "--load-cpus", "0", "-q", "--strict",
			 "-f", "json", "--prometheus", "/var/lib/node/rtready.prom", NULL };
	char *noprom[] = { "verify", "--prometheus", "", NULL };
	char *zero[] = { "verify", "--duration", "0", NULL };
	char *badload[] = { "verify", "--load", "fork-bomb", NULL };
	char *badlat[] = { "verify", "-m", "0", NULL };
	char *extra[] = { "verify", "now", NULL };
	char *badcpu[] = { "verify", "--rt-cpus", "x", NULL };
	struct verify_opts o;
	char err[256];

	(void)state;
	assert_int_equal(cli_parse_cmd(&verify_cmd, 1, dflt, &o, err, sizeof(err)), 0);
	assert_int_equal(o.duration_ns, VERIFY_DEFAULT_DURATION_NS);
	assert_string_equal(o.report_dir, "rtready-report");
	assert_int_equal(o.load, LATENCY_LOAD_ALL);
	assert_true(o.max_latency_us == 0);
	assert_null(o.prometheus);
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 19, full, &o, err, sizeof(err)), 0);
	assert_int_equal(o.duration_ns, 5000000000LL);
	assert_true(o.rt.kind == RT_REQUEST_LIST && rtr_cpuset_test(&o.rt.cpus, 1));
	assert_true(o.max_latency_us > 149.9 && o.max_latency_us < 150.1);
	assert_string_equal(o.report_dir, "out");
	assert_int_equal(o.load, LATENCY_LOAD_CPU);
	assert_true(o.load_cpus_given && rtr_cpuset_test(&o.load_cpus, 0));
	assert_true(o.quiet && o.strict && o.format == FORMAT_JSON);
	assert_string_equal(o.prometheus, "/var/lib/node/rtready.prom");
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 3, noprom, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--prometheus"));
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 3, zero, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--duration"));
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 3, badload, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--load"));
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 3, badlat, &o, err, sizeof(err)), -EINVAL);
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 2, extra, &o, err, sizeof(err)), -EINVAL);
	verify_opts_free(&o);
	assert_int_equal(cli_parse_cmd(&verify_cmd, 3, badcpu, &o, err, sizeof(err)), -EINVAL);
	verify_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_color),
		cmocka_unit_test(test_summary_unmeasured),
		cmocka_unit_test(test_verify_opts),
	};

	return unit_run(tests, NULL, NULL);
}
