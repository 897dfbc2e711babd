/* SPDX-License-Identifier: MIT */
/*
 * What every unit test includes for cmocka, and the one way they run:
 * unit_run(tests, setup, teardown) in main(). cmocka's group runner returns
 * only the number of failed cases, so a program whose cases called skip()
 * (not root, no RT priority, a refused cgroup) exited 0 and meson said OK
 * for cases that never ran. Here skip() is also counted, and unit_run()
 * exits 77, which meson shows as SKIP, when a case skipped and none failed.
 * tests/unit/meson.build refuses a test that calls cmocka's runner itself.
 */
#ifndef RTR_TESTS_UNIT_H
#define RTR_TESTS_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

/* The cases that called skip() in this program. */
static int unit_skipped;

#undef skip
#define skip()                                  \
	do {                                    \
		unit_skipped++;                 \
		_skip(__FILE__, __LINE__);      \
	} while (0)

/* Meson's exit code of a skipped test. */
#define UNIT_EXIT_SKIP 77

static inline int unit_exit(int failed)
{
	if (failed)
		return 1;
	if (unit_skipped) {
		fprintf(stderr, "%d case(s) skipped: exit %d so that meson says SKIP\n",
			unit_skipped, UNIT_EXIT_SKIP);
		return UNIT_EXIT_SKIP;
	}
	return 0;
}

#define unit_run(tests, setup, teardown) unit_exit(cmocka_run_group_tests(tests, setup, teardown))

#endif
