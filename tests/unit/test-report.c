// SPDX-License-Identifier: MIT
/*
 * The findings model and its renderers: summary counts, exit codes,
 * JSON shape (parsed back with jansson), text grouping and hiding of
 * passes, and the `check` option parser.
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
#include "cli/cmd_check.h"
#include "core/report.h"
#include "render/json.h"
#include "render/text.h"

static void fill(struct report *r)
{
	report_init(r, "check");
	assert_int_equal(report_add(r, "a.one", "a", RTR_PASS, 0, "One", "ev1", "why1", "fix1"), 0);
	assert_int_equal(report_add(r, "b.two", "b", RTR_FAIL, 0, "Two", "ev \"quoted\"\n",
				    "why2", "fix2"), 0);
	assert_int_equal(report_add(r, "a.three", "a", RTR_WARN, 42, "Three", NULL, NULL, NULL), 0);
	assert_int_equal(report_add(r, "c.four", "c", RTR_SKIP, 0, "Four", "cannot read", "", ""), 0);
}

static void test_summary_exit(void **state)
{
	struct report r;
	struct summary s;

	(void)state;
	fill(&r);
	s = report_summary(&r);
	assert_int_equal(s.pass, 1);
	assert_int_equal(s.fail, 1);
	assert_int_equal(s.warn, 1);
	assert_int_equal(s.skip, 1);
	assert_int_equal(report_exit_code(&r, 0), 1);
	report_free(&r);

	report_init(&r, "check");
	assert_int_equal(report_add(&r, "x", "x", RTR_WARN, 0, "", "", "", ""), 0);
	assert_int_equal(report_exit_code(&r, 0), 0);
	assert_int_equal(report_exit_code(&r, 1), 1);
	report_free(&r);
	report_free(NULL);
}

static void test_json(void **state)
{
	struct report r;
	json_t *j, *checks, *c;
	json_error_t e;
	char *text;

	(void)state;
	fill(&r);
	assert_int_equal(report_set_host(&r.host.kernel, "6.18"), 0);
	j = report_to_json(&r, "checks");
	assert_non_null(j);
	text = json_dumps(j, 0);
	json_decref(j);
	/* Parse the text back: escaping is the library's job. */
	j = json_loads(text, 0, &e);
	free(text);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "tool")), "rtready");
	assert_string_equal(json_string_value(json_object_get(j, "command")), "check");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(j, "host"), "kernel")), "6.18");
	checks = json_object_get(j, "checks");
	assert_int_equal(json_array_size(checks), 4);
	c = json_array_get(checks, 1);
	assert_string_equal(json_string_value(json_object_get(c, "status")), "fail");
	assert_string_equal(json_string_value(json_object_get(c, "evidence")), "ev \"quoted\"\n");
	assert_null(json_object_get(c, "tid"));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(checks, 2), "tid")), 42);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"), "fail")),
			 1);
	json_decref(j);
	report_free(&r);
}

static char *render_text(const struct report *r, bool verbose)
{
	struct text_style st = { false, verbose };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(text_write_findings(f, r, &st), 0);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	struct report r;
	char *out;

	(void)state;
	fill(&r);
	out = render_text(&r, false);
	/* Failures first; passes hidden without --verbose. */
	assert_non_null(strstr(out, "b.two"));
	assert_null(strstr(out, "a.one"));
	assert_true(strstr(out, "b.two") < strstr(out, "a.three"));
	assert_non_null(strstr(out, "fix:  fix2"));
	assert_non_null(strstr(out, "1 passing not shown"));
	free(out);
	out = render_text(&r, true);
	assert_non_null(strstr(out, "a.one"));
	free(out);
	report_free(&r);
}

static void test_wrap(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	text_wrap(f, "> ", "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk", 24);
	fclose(f);
	/*
	 * Cut at blanks, every word kept and in order, continuation lines
	 * indented with blanks: an empty output must not pass.
	 */
	assert_non_null(buf);
	assert_string_equal(buf, "> aaaa bbbb cccc dddd\n"
				 "  eeee ffff gggg hhhh\n"
				 "  iiii jjjj kkkk\n");
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		assert_true(strlen(line) <= 24);
	free(buf);
}

static int parse(struct check_opts *o, char *err, const char *a1, const char *a2, const char *a3)
{
	char *argv[5] = { "check", (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);

	return cli_parse_cmd(&check_cmd, argc, argv, o, err, 256);
}

static void test_check_opts(void **state)
{
	struct check_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, "--rt-cpus", "1-3", "--strict"), 0);
	assert_true(o.rt.kind == RT_REQUEST_LIST && o.strict);
	assert_int_equal(rtr_cpuset_count(&o.rt.cpus), 3);
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--format", "json", "-v"), 0);
	assert_int_equal(o.format, FORMAT_JSON);
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--format", "xml", NULL), -EINVAL);
	assert_non_null(strstr(err, "xml"));
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--rt-cpus", "1-", NULL), -EINVAL);
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--only", "sched,nope", NULL), -EINVAL);
	assert_non_null(strstr(err, "nope"));
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--only", "sched", NULL), 0);
	assert_int_equal(o.n_only, 1);
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "--root", NULL, NULL), -EINVAL);
	check_opts_free(&o);
	assert_int_equal(parse(&o, err, "stray", NULL, NULL), -EINVAL);
	check_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_exit),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_check_opts),
	};

	return unit_run(tests, NULL, NULL);
}
