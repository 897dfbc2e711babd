// SPDX-License-Identifier: MIT
/* The verdict of rtready pi on made-up wait histograms, and its options. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_pi.h"
#include "measure/pi.h"
#include "report/pi.h"

static void fill(struct pi_result *r, uint64_t pi_ns, uint64_t plain_ns, int n)
{
	memset(r, 0, sizeof(*r));
	pi_config_default(&r->config);
	assert_int_equal(rtr_hist_init(&r->with_pi.wait, 10000, 100000000, 8), 0);
	assert_int_equal(rtr_hist_init(&r->plain.wait, 10000, 100000000, 8), 0);
	for (int i = 0; i < n; i++) {
		rtr_hist_add(&r->with_pi.wait, pi_ns);
		rtr_hist_add(&r->plain.wait, plain_ns);
	}
}

static void test_verdicts(void **state)
{
	struct pi_result r;
	struct report rep;

	(void)state;
	fill(&r, 800000, 3800000, 50);
	pi_judge(&r);
	assert_int_equal(r.verdict, PI_WORKS);
	report_init(&rep, "pi");
	assert_int_equal(pi_finding_add(&rep, &r), 0);
	assert_int_equal(rep.findings[0].status, RTR_PASS);
	report_free(&rep);
	pi_result_free(&r);

	fill(&r, 3800000, 3800000, 50);
	pi_judge(&r);
	assert_int_equal(r.verdict, PI_BROKEN);
	report_init(&rep, "pi");
	assert_int_equal(pi_finding_add(&rep, &r), 0);
	assert_int_equal(rep.findings[0].status, RTR_FAIL);
	report_free(&rep);
	pi_result_free(&r);

	fill(&r, 800000, 900000, 50);
	pi_judge(&r);
	assert_int_equal(r.verdict, PI_INCONCLUSIVE);
	pi_result_free(&r);

	fill(&r, 800000, 3800000, 0);
	pi_judge(&r);
	assert_int_equal(r.verdict, PI_INTERRUPTED);
	pi_result_free(&r);
}

static void test_opts(void **state)
{
	struct pi_opts o;
	char err[256];
	char *ok[] = { "pi", "--cpu", "1", "--prio", "50", "--cs", "500us", "--medium", "2ms", NULL };
	char *bad99[] = { "pi", "--prio", "97", NULL };
	char *badcs[] = { "pi", "--cs", "5s", NULL };

	(void)state;
	assert_int_equal(cli_parse_cmd(&pi_cmd, 9, ok, &o, err, sizeof(err)), 0);
	assert_int_equal(o.config.cpu, 1);
	assert_int_equal(o.config.prio, 50);
	assert_int_equal(o.config.cs_ns, 500000);
	assert_int_equal(o.config.medium_ns, 2000000);
	assert_int_equal(cli_parse_cmd(&pi_cmd, 3, bad99, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "99"));
	assert_int_equal(cli_parse_cmd(&pi_cmd, 3, badcs, &o, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_opts),
	};

	return unit_run(tests, NULL, NULL);
}
