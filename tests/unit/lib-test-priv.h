/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the library's failure-path tests: run a function in a forked
 * child that has lowered a resource limit and become "nobody", which drops
 * every capability (CAP_SYS_NICE, CAP_IPC_LOCK). This is how a refused
 * priority or lock is tested while the suite itself runs as root. The
 * child reports through its exit code and explains failures on stderr.
 */
#ifndef RTREADY_TEST_LIB_PRIV_H
#define RTREADY_TEST_LIB_PRIV_H

#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* AddressSanitizer replaces malloc (mallopt is ignored) and mlockall (no-op). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define NOBODY 65534
/* Exit code of a child that could not set the limit up: the caller skips. */
#define TEST_CANNOT_DROP 77

static inline int test_drop_privileges(int resource, rlim_t limit)
{
	struct rlimit rl = { limit, limit };

	/* Raising a hard limit needs CAP_SYS_RESOURCE, which containers may lack. */
	if (setrlimit(resource, &rl) != 0)
		return TEST_CANNOT_DROP;
	if (setgroups(0, NULL) != 0 || setresgid(NOBODY, NOBODY, NOBODY) != 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) != 0)
		return -1;
	return 0;
}

/*
 * Return: the child's exit code (0: all its checks held, TEST_CANNOT_DROP:
 * the limit could not be set here), 128+sig on a signal.
 */
static inline int test_run_unprivileged(int resource, rlim_t limit, int (*fn)(void))
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 100;
	if (pid == 0) {
		int err = test_drop_privileges(resource, limit);

		if (err == TEST_CANNOT_DROP) {
			perror("setrlimit (test skipped)");
			_exit(TEST_CANNOT_DROP);
		}
		if (err != 0) {
			perror("drop privileges");
			_exit(101);
		}
		_exit(fn());
	}
	if (waitpid(pid, &status, 0) != pid)
		return 102;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* In the child: a check that names its step on failure. */
#define CHILD_EXPECT(cond, code)                                                       \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: child check failed: %s (%s)\n", __FILE__, \
				__LINE__, #cond, rtr_last_error());                     \
			return (code);                                                 \
		}                                                                      \
	} while (0)

#endif
