// SPDX-License-Identifier: MIT
/*
 * The good program, but each period reads shared data under a pthread
 * rwlock that a non-RT thread write-locks. Expected: app.rwlock_no_pi only
 * (pass_locks does the same under a PI mutex).
 */
#include "rtprog.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int shared;

static void work_rwlock(struct rt_job *job, int period)
{
	pthread_rwlock_rdlock(&rw);
	job->sum += (unsigned long)shared;
	pthread_rwlock_unlock(&rw);
	work_default(job, period);
}

static void *writer(void *arg)
{
	for (int i = 0; i < 20; i++) {
		pthread_rwlock_wrlock(&rw);
		shared++;
		pthread_rwlock_unlock(&rw);
		usleep(500);
	}
	return arg;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	pthread_t wr;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.work = work_rwlock;
	pthread_create(&wr, NULL, writer, NULL);
	run_good(&job);
	pthread_join(wr, NULL);
	return 0;
}
