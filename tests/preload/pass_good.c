// SPDX-License-Identifier: MIT
/*
 * Everything right: malloc tuned, memory locked, buffers prefaulted, a PI
 * mutex, absolute CLOCK_MONOTONIC sleeps at priority 50. A non-RT thread
 * meanwhile allocates, takes a plain mutex and sleeps relatively - allowed
 * outside realtime threads. Expected: no finding.
 */
#include "rtprog.h"

static pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;

static void *housekeeping(void *arg)
{
	for (int i = 0; i < 10; i++) {
		char *volatile p = malloc(4096);

		pthread_mutex_lock(&plain);
		p[0] = 1;
		pthread_mutex_unlock(&plain);
		free(p);
		usleep(1000);
	}
	return arg;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;
	pthread_t hk;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	pthread_create(&hk, NULL, housekeeping, NULL);
	run_good(&job);
	pthread_join(hk, NULL);
	free(job.buf);
	return 0;
}
