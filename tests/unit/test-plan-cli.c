// SPDX-License-Identifier: MIT
/*
 * The options of `rtready plan` and the --rt-cpus auto / auto:N parser
 * shared by check, tune, latency, verify and inspect: what is accepted, what
 * is refused, and the message.
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

#include "cli/opt.h"
#include "cli/cli.h"
#include "cli/cmd_plan.h"

static int parse(struct plan_opts *o, char *err, size_t errlen, ...)
{
	char *argv[16] = { "plan" };
	int argc = 1;
	va_list ap;

	va_start(ap, errlen);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	err[0] = '\0';
	return cli_parse_cmd(&plan_cmd, argc, argv, o, err, errlen);
}

static void test_plan_opts(void **state)
{
	struct plan_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), (char *)NULL), 0);
	assert_int_equal(o.rt_count, 0);
	assert_int_equal(o.node, -1);
	assert_null(o.near);
	assert_string_equal(o.root, "/");
	assert_int_equal(parse(&o, err, sizeof(err), "--rt", "4", "--node", "1", "--root", "/x",
			       "--format", "json", "-o", "f", (char *)NULL), 0);
	assert_int_equal(o.rt_count, 4);
	assert_int_equal(o.node, 1);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_string_equal(o.output, "f");
	assert_int_equal(parse(&o, err, sizeof(err), "-n", "2", "--near", "eth0", (char *)NULL), 0);
	assert_string_equal(o.near, "eth0");
	assert_int_equal(parse(&o, err, sizeof(err), "--rt", "0", (char *)NULL), -EINVAL);
	assert_non_null(strstr(err, "--rt"));
	assert_int_equal(parse(&o, err, sizeof(err), "--node", "-1", (char *)NULL), -EINVAL);
	assert_int_equal(parse(&o, err, sizeof(err), "--near", "", (char *)NULL), -EINVAL);
	assert_int_equal(parse(&o, err, sizeof(err), "--node", "0", "--near", "eth0", (char *)NULL),
			 -EINVAL);
	assert_non_null(strstr(err, "give one"));
	assert_int_equal(parse(&o, err, sizeof(err), "extra", (char *)NULL), -EINVAL);
	assert_int_equal(parse(&o, err, sizeof(err), "--bogus", (char *)NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_opts),
	};

	return unit_run(tests, NULL, NULL);
}
