// SPDX-License-Identifier: MIT
/*
 * A trylock cannot invert priorities (issue 25): the RT thread never waits
 * for the holder. jack_rec and jackd's message buffer use
 * pthread_mutex_trylock on default mutexes exactly for that. The loop
 * tries a default pthread mutex, a C11 mtx_t and both rwlock try
 * functions each period. Expected: no finding.
 */
#include <threads.h>

#include "rtprog.h"

static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static mtx_t c11;

static void work_try(struct rt_job *job, int period)
{
	if (pthread_mutex_trylock(&plain) == 0)
		pthread_mutex_unlock(&plain);
	if (mtx_trylock(&c11) == thrd_success)
		mtx_unlock(&c11);
	if (pthread_rwlock_tryrdlock(&rw) == 0)
		pthread_rwlock_unlock(&rw);
	if (pthread_rwlock_trywrlock(&rw) == 0)
		pthread_rwlock_unlock(&rw);
	work_default(job, period);
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	if (mtx_init(&c11, mtx_plain) != thrd_success)
		die("mtx_init", EINVAL);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.work = work_try;
	rt_run_loop(&job, rt_loop);
	return 0;
}
