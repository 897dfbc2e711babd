// SPDX-License-Identifier: MIT
/*
 * The good program as a SCHED_DEADLINE job loop paced by sched_yield()
 * (deadline.h). Expected: no finding: each sched_yield() ends a job, so
 * the thread is judged (not app.checker) and its clean work passes.
 */
#include "deadline.h"

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	return run_deadline(&job);
}
