// SPDX-License-Identifier: MIT
/*
 * The good program, but the loop waits with sem_timedwait, whose deadline
 * is on CLOCK_REALTIME by definition. Expected: app.sem_timedwait only
 * (pass_waits semclock does the same with sem_clockwait on
 * CLOCK_MONOTONIC).
 */
#include <semaphore.h>

#include "rtprog.h"

static sem_t sem;

static void *loop(void *arg)
{
	struct rt_job *job = arg;
	struct timespec next;

	clock_gettime(CLOCK_REALTIME, &next);
	for (int p = 0; p < job->periods; p++) {
		ts_add(&next, PERIOD_NS);
		while (sem_timedwait(&sem, &next) == 0 || errno == EINTR)
			;
		job->work(job, p);
	}
	return NULL;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	sem_init(&sem, 0, 0);
	job_defaults(&job, &pi);
	rt_run_loop(&job, loop);
	return 0;
}
