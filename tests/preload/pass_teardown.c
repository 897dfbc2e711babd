// SPDX-License-Identifier: MIT
/*
 * Teardown is not the loop (issue 25): after its last wait, the RT thread
 * prints its results, allocates, flushes and unmaps, as rt-migrate-test,
 * pi_stress --quiet, stress-ng and sigwaittest do; an exit handler does
 * the same. None of it is periodic work. Expected: no finding.
 */
#include <sys/mman.h>

#include "rtprog.h"

static void at_exit(void)
{
	char *p = malloc(256);

	snprintf(p, 256, "exit handler");
	puts(p);
	free(p);
}

static void *loop_then_report(void *arg)
{
	struct rt_job *job = arg;
	struct timespec next;
	char *results;
	void *map;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int p = 0; p < job->periods; p++) {
		job->work(job, p);
		ts_add(&next, PERIOD_NS);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	/* After the last wait: results, as the programs above print them. */
	results = malloc(4096);
	snprintf(results, 4096, "sum %lu", (unsigned long)job->sum);
	printf("%s\n", results);
	fflush(stdout);
	free(results);
	map = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map != MAP_FAILED)
		munmap(map, 65536);
	return NULL;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	atexit(at_exit);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	rt_run_loop(&job, loop_then_report);
	return 0;
}
