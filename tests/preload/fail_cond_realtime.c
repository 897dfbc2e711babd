// SPDX-License-Identifier: MIT
/*
 * The good program, but the loop waits with pthread_cond_timedwait on a
 * condvar made with the default attribute: its deadlines are on
 * CLOCK_REALTIME. Expected: app.cond_realtime_clock only (pass_waits cond
 * does the same on a CLOCK_MONOTONIC condvar).
 */
#include "rtprog.h"

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t pi;

static void *loop(void *arg)
{
	struct rt_job *job = arg;
	struct timespec next;

	clock_gettime(CLOCK_REALTIME, &next);
	for (int p = 0; p < job->periods; p++) {
		ts_add(&next, PERIOD_NS);
		pthread_mutex_lock(&pi);
		while (pthread_cond_timedwait(&cond, &pi, &next) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&pi);
		job->work(job, p);
	}
	return NULL;
}

int main(void)
{
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, NULL);
	rt_run_loop(&job, loop);
	return 0;
}
