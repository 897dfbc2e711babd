// SPDX-License-Identifier: MIT
/*
 * The good program, but the RT thread asks for priority 99.
 * Expected: app.prio99 only.
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
	job.prio = 99;
	return run_good(&job);
}
