// SPDX-License-Identifier: MIT
/*
 * A realtime thread the checker cannot judge (issue 25): it runs its work
 * for 60 ms reading only the clock, and never waits in a call the checker
 * knows. An empty report would claim it was clean. Expected: app.checker
 * naming the thread.
 */
#include <sys/prctl.h>

#include "rtprog.h"

static void *spin(void *arg)
{
	struct rt_job *job = arg;
	struct timespec start, now;

	prctl(PR_SET_NAME, "rt-spinner", 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		job->sum++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) <
		 60000000L);
	return NULL;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	rt_run_loop(&job, spin);
	return 0;
}
