// SPDX-License-Identifier: MIT
/*
 * The steps of the commands below src/cli, called as the commands call
 * them, with what they say collected instead of printed: tune's modes on a
 * fixture tree (tune/mode.c), plan's output guard (plan/guard.c) and
 * run's session (run/session.c) for a program that is missing and one that
 * exits with a code.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "plan/session.h"
#include "run/session.h"
#include "target/target.h"
#include "tune/mode.h"
#include "unit.h"
#include "util/say.h"

static char *fixture(const char *name)
{
	static char path[4096];
	const char *src = getenv("SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : "..", name);
	return path;
}

/* What a step said: its lines, "E: " or "W: " first, one per line. */
struct heard {
	char text[8192];
	int errors, warnings;
};

static void hear(void *ctx, bool warning, const char *line)
{
	struct heard *h = ctx;
	size_t len = strlen(h->text);

	snprintf(h->text + len, sizeof(h->text) - len, "%s%s\n", warning ? "W: " : "E: ", line);
	if (warning)
		h->warnings++;
	else
		h->errors++;
}

static struct target *open_rt(const char *tree, const char *rt_cpus, struct rt_request *r)
{
	struct target *t = malloc(sizeof(*t));
	char err[1024] = "";

	assert_non_null(t);
	*r = (struct rt_request)RT_REQUEST_INIT;
	if (rt_cpus)
		assert_int_equal(rt_request_parse("--rt-cpus", rt_cpus, r, err, sizeof(err)), 0);
	if (target_open(t, fixture(tree), r, TARGET_HOST, err, sizeof(err)))
		fail_msg("target_open(%s): %s", tree, err);
	return t;
}

static void close_rt(struct target *t, struct rt_request *r)
{
	target_close(t);
	free(t);
	rt_request_free(r);
}

static const bool all_on[TUNE_COUNT] = {
	[0 ... TUNE_COUNT - 1] = true,
};

/* The dry run: the view holds the plan and the CPU lists, nothing is said. */
static void test_tune_plan(void **state)
{
	struct heard h = { "", 0, 0 };
	const struct say say = { hear, &h };
	bool enabled[TUNE_COUNT];
	const struct tune_request rq = { TUNE_MODE_PLAN, enabled, 10, NULL, 0,
					 "/nonexistent-state", NULL, "fixture" };
	struct tune_outcome *out = NULL;
	struct rt_request r;
	struct target *t = open_rt("rt-good", "2-3", &r);

	(void)state;
	/* The isolated partition is tune's opt-in (--isolate): left out, as by default. */
	for (int id = 0; id < TUNE_COUNT; id++)
		enabled[id] = !tune_is_isolate((enum tune_id)id);
	assert_int_equal(tune_mode_run(&rq, t, &say, &out), 0);
	assert_non_null(out);
	assert_int_equal(h.errors, 0);
	assert_int_equal(out->view.kind, TUNE_VIEW_PLAN);
	assert_string_equal(out->view.rt_list, "2-3");
	assert_string_equal(out->view.nonrt_list, "0-1,4-7");
	assert_ptr_equal(out->view.plan, &out->plan);
	assert_string_equal(out->view.host.root, "fixture");
	assert_false(out->failed);
	tune_outcome_free(out);
	close_rt(t, &r);
}

/* Every online CPU reserved: refused, and said why, with no view. */
static void test_tune_no_housekeeping(void **state)
{
	struct heard h = { "", 0, 0 };
	const struct say say = { hear, &h };
	const struct tune_request rq = { TUNE_MODE_PLAN, all_on, 10, NULL, 0, "/nonexistent",
					 NULL, "fixture" };
	struct tune_outcome *out = NULL;
	struct rt_request r;
	struct target *t = open_rt("rt-good", "0-7", &r);

	(void)state;
	assert_int_equal(tune_mode_run(&rq, t, &say, &out), -EINVAL);
	assert_int_equal(h.errors, 1);
	assert_non_null(strstr(h.text, "E: RT CPUs 0-7 leave no CPU for the rest of the system "
					"(online: 0-7)"));
	tune_outcome_free(out);
	close_rt(t, &r);
}

/* --status without a state directory: the view that says so, not an error. */
static void test_tune_status_none(void **state)
{
	struct heard h = { "", 0, 0 };
	const struct say say = { hear, &h };
	const struct tune_request rq = { TUNE_MODE_STATUS, all_on, 10, NULL, 0,
					 "/nonexistent/rtready-state", NULL, "/" };
	struct tune_outcome *out = NULL;
	struct rt_request r;
	struct target *t = open_rt("rt-good", NULL, &r);

	(void)state;
	assert_int_equal(tune_mode_run(&rq, t, &say, &out), 0);
	assert_int_equal(h.errors + h.warnings, 0);
	assert_int_equal(out->view.kind, TUNE_VIEW_NO_JOURNAL);
	assert_string_equal(out->view.host.rt_cpus, "");
	tune_outcome_free(out);
	close_rt(t, &r);
}

/* plan never writes into what it reads: the root's /proc, here a fixture's. */
static void test_plan_guard(void **state)
{
	struct heard h = { "", 0, 0 };
	const struct say say = { hear, &h };
	struct target *t = malloc(sizeof(*t));
	char err[1024], out[4200];

	(void)state;
	assert_non_null(t);
	assert_int_equal(target_root(t, fixture("rt-good"), err, sizeof(err)), 0);
	snprintf(out, sizeof(out), "%s/proc/plan.json", fixture("rt-good"));
	assert_int_equal(plan_output_guard(out, &t->fs, NULL, &say), -EINVAL);
	assert_non_null(strstr(h.text, "which plan reads: write the plan outside it"));
	assert_int_equal(plan_output_guard("-", &t->fs, NULL, &say), 0);
	assert_int_equal(plan_output_guard(NULL, &t->fs, NULL, &say), 0);
	assert_int_equal(h.errors, 1);
	target_close(t);
	free(t);
}

static int run_one(char **argv, int argc, struct heard *h)
{
	const struct say say = { hear, h };
	struct run_request rq = { { .argv = argv, .policy = -1 }, argc, 0, 0, false, false, false,
				  NULL };
	struct run_session *s = NULL;
	int rc = run_session_exec(&rq, &say, &s);

	assert_non_null(s);
	run_session_free(s);
	return rc;
}

/* A missing program is said and never started; a program's exit code comes back. */
static void test_run_session(void **state)
{
	char *missing[] = { "rtready-test-no-such-program", NULL };
	char *three[] = { "sh", "-c", "exit 3", NULL };
	struct heard h = { "", 0, 0 };

	(void)state;
	assert_int_equal(run_one(missing, 1, &h), -ENOENT);
	assert_non_null(strstr(h.text, "E: 'rtready-test-no-such-program': command not found\n"));
	h = (struct heard){ "", 0, 0 };
	assert_int_equal(run_one(three, 3, &h), 3);
	assert_int_equal(h.errors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tune_plan),
		cmocka_unit_test(test_tune_no_housekeeping),
		cmocka_unit_test(test_tune_status_none),
		cmocka_unit_test(test_plan_guard),
		cmocka_unit_test(test_run_session),
	};

	return unit_run(tests, NULL, NULL);
}
