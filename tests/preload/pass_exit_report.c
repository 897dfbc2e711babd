// SPDX-License-Identifier: MIT
/*
 * The good program with its loop on the main thread, made SCHED_FIFO, and
 * an exit handler registered before the loop that prints a summary and
 * frees the buffer (as coreutils' close_stdout flushes stdout at exit).
 * Exit handlers are not periodic work. Expected: no finding.
 */
#include "rtprog.h"

static struct rt_job job;

static void report(void)
{
	printf("sum %lu\n", job.sum);
	free(job.buf);
}

int main(void)
{
	struct sched_param sp = { .sched_priority = 50 };
	pthread_mutex_t pi;
	int rc;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	atexit(report);
	rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (rc)
		die("pthread_setschedparam (SCHED_FIFO needs root or CAP_SYS_NICE)", rc);
	rt_loop(&job);
	return 0;
}
