// SPDX-License-Identifier: MIT
/* Unit tests of pid_ended(): when what an rtready left behind may go. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "util/pid.h"

/* This process, its parent and pids that no process can have are never "ended". */
static void test_alive_or_invalid(void **state)
{
	(void)state;
	assert_false(pid_ended((long)getpid()));
	assert_false(pid_ended((long)getppid()));
	assert_false(pid_ended(0));
	assert_false(pid_ended(-1));
	assert_false(pid_ended((long)INT_MAX + 1));
}

/* A child that exited and was reaped has ended; before the reap (a zombie) it has not. */
static void test_reaped_child(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	/* Running or a zombie until waitpid(): its pid is still taken. */
	assert_false(pid_ended((long)pid));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(pid_ended((long)pid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alive_or_invalid),
		cmocka_unit_test(test_reaped_child),
	};

	return unit_run(tests, NULL, NULL);
}
