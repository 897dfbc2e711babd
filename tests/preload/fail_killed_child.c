// SPDX-License-Identifier: MIT
/*
 * A child killed with SIGKILL cannot write its records (issue 25): the
 * parent forks an RT child and kills it, as stress-ng does with its
 * stressors. The report must not pretend the child was clean. Expected:
 * app.checker naming the child's pid.
 */
#include <signal.h>
#include <sys/wait.h>

#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	struct timespec wait = { 0, 100000000 };
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
