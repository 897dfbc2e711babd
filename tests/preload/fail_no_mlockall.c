// SPDX-License-Identifier: MIT
/*
 * The good program, but memory is never locked (buffers and stack are
 * still prefaulted, so the loop itself does not fault).
 * Expected: app.no_mlockall only.
 */
#include "rtprog.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	return run_good(&job);
}
