// SPDX-License-Identifier: MIT
/*
 * The good program, but shared data is guarded by a binary semaphore that
 * the RT loop and a non-RT thread both wait on (a lock with no owner to
 * boost). Expected: app.sem_shared only (pass_locks guards the data with a
 * PI mutex and uses a semaphore only as an event from non-RT to RT).
 */
#include <semaphore.h>

#include "rtprog.h"

static sem_t lock;
static volatile int shared;
static _Atomic int other_waited;

static void work_sem(struct rt_job *job, int period)
{
	while (sem_wait(&lock) != 0)
		;
	job->sum += (unsigned long)shared;
	sem_post(&lock);
	work_default(job, period);
}

static void *other(void *arg)
{
	for (int i = 0; i < 20; i++) {
		while (sem_wait(&lock) != 0)
			;
		shared++;
		sem_post(&lock);
		other_waited = 1;
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
	sem_init(&lock, 0, 1);
	job_defaults(&job, &pi);
	job.work = work_sem;
	/* The non-RT side waits first, so that every RT wait finds it known. */
	pthread_create(&o, NULL, other, NULL);
	while (!other_waited)
		usleep(100);
	run_good(&job);
	pthread_join(o, NULL);
	return 0;
}
