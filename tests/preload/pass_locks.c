// SPDX-License-Identifier: MIT
/*
 * The work of fail_rwlock_no_pi, fail_mtx_no_pi and fail_sem_shared done
 * right: the data the RT loop shares with a non-RT thread is guarded by a
 * PI mutex, and a semaphore only carries events from the non-RT thread
 * (sem_post) to the RT one (sem_trywait). Expected: no finding.
 */
#include <semaphore.h>

#include "rtprog.h"

static pthread_mutex_t pi;
static sem_t event;
static volatile int shared;

static void work_shared(struct rt_job *job, int period)
{
	pthread_mutex_lock(&pi);
	job->sum += (unsigned long)shared;
	pthread_mutex_unlock(&pi);
	if (sem_trywait(&event) == 0)
		job->sum++;
	work_default(job, period);
}

static void *other(void *arg)
{
	for (int i = 0; i < 20; i++) {
		pthread_mutex_lock(&pi);
		shared++;
		pthread_mutex_unlock(&pi);
		sem_post(&event);
		usleep(500);
	}
	return arg;
}

int main(void)
{
	struct rt_job job;
	pthread_t o;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	sem_init(&event, 0, 0);
	job_defaults(&job, &pi);
	job.work = work_shared;
	pthread_create(&o, NULL, other, NULL);
	run_good(&job);
	pthread_join(o, NULL);
	return 0;
}
