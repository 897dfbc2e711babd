// SPDX-License-Identifier: MIT
/*
 * 50 SCHED_FIFO threads at once, each allocating and freeing in every
 * period of its loop, everything else right. Expected: 50 app.alloc_in_rt
 * records, one per thread, each with 2 * PERIODS occurrences (a malloc and
 * a free per period): the record table and its counters hold up under
 * concurrency.
 */
#include "rtprog.h"

#define THREADS 50

static void work_alloc(struct rt_job *job, int period)
{
	char *volatile p = malloc(64);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
	free(p);
}

int main(void)
{
	static struct rt_job jobs[THREADS];
	pthread_t t[THREADS];
	pthread_mutex_t pi;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	for (int i = 0; i < THREADS; i++) {
		job_defaults(&jobs[i], &pi);
		jobs[i].work = work_alloc;
		jobs[i].prepare = warm_arena;
		jobs[i].prio = 10 + i % 20;
		t[i] = rt_start(&jobs[i]);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
