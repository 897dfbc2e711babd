// SPDX-License-Identifier: MIT
/*
 * The good program, but the loop sleeps a relative 1 ms each period.
 * Expected: app.relative_sleep only.
 */
#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.flags = 0;
	return run_good(&job);
}
