// SPDX-License-Identifier: MIT
/*
 * The good program, but memory is locked with MCL_ONFAULT and a buffer
 * mapped before the loop is first touched inside it, one new page per
 * period. Expected: app.page_fault_in_rt only.
 */
#include "rtprog.h"

static unsigned char *fresh;

static void work_fault(struct rt_job *job, int period)
{
	fresh[(size_t)period * 4096] = 1;	/* a page never touched before */
	work_default(job, period);
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	fresh = mmap(NULL, (size_t)PERIODS * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED)
		die("mmap", errno);
	job.work = work_fault;
	return run_good(&job);
}
