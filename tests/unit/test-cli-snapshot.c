// SPDX-License-Identifier: MIT
/* `rtready snapshot` options and the rule for paths it may write. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_snapshot.h"
#include "probe/snapshot.h"

static int parse(struct snapshot_opts *o, char *err, size_t n, ...)
{
	char *argv[8];
	int argc = 0;
	va_list ap;

	va_start(ap, n);
	for (char *a; argc < 8 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	return cli_parse_cmd(&snapshot_cmd, argc, argv, o, err, n);
}

static void test_opts(void **state)
{
	struct snapshot_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "out", NULL), 0);
	assert_string_equal(o.dir, "out");
	assert_string_equal(o.root, "/");
	assert_false(o.force);
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "-f", "--root", "/x", "d", NULL), 0);
	assert_true(o.force);
	assert_string_equal(o.root, "/x");
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "--help", NULL), 0);
	assert_true(o.help);
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", NULL), -EINVAL);
	assert_non_null(strstr(err, "missing"));
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "a", "b", NULL), -EINVAL);
	assert_non_null(strstr(err, "'b'"));
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "--bogus", "a", NULL), -EINVAL);
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "a", "--root", NULL), -EINVAL);
	assert_int_equal(parse(&o, err, sizeof(err), "snapshot", "", NULL), -EINVAL);
}

static void test_paths(void **state)
{
	(void)state;
	assert_true(snapshot_path_ok("/proc/interrupts"));
	assert_true(snapshot_path_ok("/proc/irq/24/smp_affinity_list"));
	assert_true(snapshot_path_ok("/etc/default/irqbalance"));
	assert_false(snapshot_path_ok("proc/interrupts"));
	assert_false(snapshot_path_ok("/proc/../etc/passwd"));
	assert_false(snapshot_path_ok("/proc/./x"));
	assert_false(snapshot_path_ok("/proc//x"));
	assert_false(snapshot_path_ok("/proc/x/"));
	assert_false(snapshot_path_ok("/"));
	assert_false(snapshot_path_ok("/proc/a\nb"));
	assert_false(snapshot_path_ok("/rtready-snapshot.json"));
	assert_false(snapshot_path_ok("/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/1/2/3/4/5/6/7"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_paths),
	};

	return unit_run(tests, NULL, NULL);
}
