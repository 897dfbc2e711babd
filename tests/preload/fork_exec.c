// SPDX-License-Identifier: MIT
/*
 * The good program, which also forks a child that allocates and exits
 * with _exit() (records reset after fork, written by the _exit hook), and
 * forks a child that execs argv[1] (the exec'd program is checked under
 * its own pid). Expected: whatever argv[1] alone gets, attributed to the
 * exec'd child, and nothing for this process.
 */
#include <sys/wait.h>

#include "rtprog.h"

static int wait_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(int argc, char **argv)
{
	pthread_mutex_t pi;
	struct rt_job job;
	pid_t a, b;

	if (argc != 2) {
		fprintf(stderr, "usage: fork_exec PROGRAM\n");
		return 2;
	}
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	run_good(&job);

	a = fork();
	if (a == 0) {
		char *volatile p = malloc(1000);

		p[0] = 1;
		free(p);
		_exit(0);
	}
	b = fork();
	if (b == 0) {
		execl(argv[1], argv[1], (char *)NULL);
		_exit(127);
	}
	if (a < 0 || b < 0 || !wait_ok(a) || !wait_ok(b)) {
		fprintf(stderr, "a child failed\n");
		return 4;
	}
	return 0;
}
