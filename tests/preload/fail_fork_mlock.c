// SPDX-License-Identifier: MIT
/*
 * fork() does not carry mlockall() into the child (issue 25): the parent
 * locks its memory and tunes malloc, then forks a child that runs the
 * realtime loop, as stress-ng's cyclic stressor does. The child has
 * nothing locked. Expected: app.no_mlockall, in the child only.
 */
#include <sys/wait.h>

#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	int status;
	pid_t pid;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		rt_run_loop(&job, rt_loop);
		exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid", errno);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
