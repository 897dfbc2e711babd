// SPDX-License-Identifier: MIT
/*
 * The good program, but without the two mallopt() settings.
 * Expected: app.no_mallopt only.
 */
#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	return run_good(&job);
}
