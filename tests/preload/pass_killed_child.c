// SPDX-License-Identifier: MIT
/*
 * The twin of fail_killed_child: the RT child does its work right and is
 * killed with SIGKILL. Its entries in rtready's shared table show that it
 * was watched and lost nothing, so the report is empty: no finding, and
 * no app.checker for the kill.
 */

#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	pid_t pid;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.periods = 1000000;	/* runs until killed */
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (pid == 0) {
		lock_memory(MCL_CURRENT | MCL_FUTURE);
		rt_run_loop(&job, rt_loop);
		exit(0);
	}
	kill_after_300ms(pid);
	return 0;
}
