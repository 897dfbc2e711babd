// SPDX-License-Identifier: MIT
/*
 * The work of fail_stdio_in_rt done right: the RT loop formats its
 * progress with snprintf into a preallocated ring of lines, and the main
 * thread (not realtime) prints them after the loop. Expected: no finding.
 */
#include "rtprog.h"

static char lines[PERIODS][64];

static void work_log(struct rt_job *job, int period)
{
	work_default(job, period);
	snprintf(lines[period % PERIODS], sizeof(lines[0]), "period %d sum %lu", period,
		 job->sum);
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.work = work_log;
	run_good(&job);
	for (int i = 0; i < PERIODS; i++)
		printf("%s\n", lines[i]);
	return 0;
}
