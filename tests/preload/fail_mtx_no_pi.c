// SPDX-License-Identifier: MIT
/*
 * The good program, but each period takes a C11 mtx_t (mtx_init cannot ask
 * for priority inheritance) that a non-RT thread takes too. Expected:
 * app.mtx_no_pi only (pass_locks does the same under a PI pthread mutex).
 */
#include <threads.h>

#include "rtprog.h"

static mtx_t mtx;
static volatile int shared;

static void work_mtx(struct rt_job *job, int period)
{
	mtx_lock(&mtx);
	job->sum += (unsigned long)shared;
	mtx_unlock(&mtx);
	work_default(job, period);
}

static void *other(void *arg)
{
	for (int i = 0; i < 20; i++) {
		mtx_lock(&mtx);
		shared++;
		mtx_unlock(&mtx);
		usleep(500);
	}
	return arg;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	pthread_t o;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	if (mtx_init(&mtx, mtx_plain) != thrd_success)
		die("mtx_init", ENOMEM);
	job_defaults(&job, &pi);
	job.work = work_mtx;
	pthread_create(&o, NULL, other, NULL);
	run_good(&job);
	pthread_join(o, NULL);
	return 0;
}
