// SPDX-License-Identifier: MIT
/*
 * The good program, but the absolute deadlines are on CLOCK_REALTIME.
 * Expected: app.realtime_clock only.
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
	job.clock = CLOCK_REALTIME;
	return run_good(&job);
}
