// SPDX-License-Identifier: MIT
/*
 * The good program, but the RT loop takes a default mutex (no priority
 * inheritance). Expected: app.mutex_no_pi only.
 */
#include "rtprog.h"

static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	job_defaults(&job, &plain);
	return run_good(&job);
}
