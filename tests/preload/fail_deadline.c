// SPDX-License-Identifier: MIT
/*
 * The SCHED_DEADLINE job loop of pass_deadline.c, its work allocating in
 * each job. Expected: app.alloc_in_rt, found between two sched_yield()
 * calls, the boundaries of a DEADLINE thread's jobs.
 */
#include "deadline.h"

static void work_alloc(struct rt_job *job, int period)
{
	char *volatile p = malloc(128);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
	free(p);
	work_default(job, period);
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.work = work_alloc;
	job.prepare = warm_arena;
	return run_deadline(&job);
}
