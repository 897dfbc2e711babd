// SPDX-License-Identifier: MIT
/*
 * The twin of fail_killed_child: the RT child does its work right and is
 * killed with SIGKILL. Its entries in rtready's shared table show that it
 * was watched and lost nothing, so the report is empty: no finding, and
 * no app.checker for the kill.
 */
#include <signal.h>
#include <sys/wait.h>

#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	struct timespec wait = { 0, 300000000 };
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
	nanosleep(&wait, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
