// SPDX-License-Identifier: MIT
/*
 * The program of pass_blocks.c, paced by the wait that argv[1] names, but
 * each period's work allocates (argv[2] "alloc") or touches a page never
 * touched before (argv[2] "fault"). Expected: app.alloc_in_rt only, or
 * app.page_fault_in_rt only: whatever the wait, the checker sees the
 * periods between two waits.
 */
#include <stdbool.h>

#include "blocks.h"

static unsigned char *fresh;

static void work_alloc(struct rt_job *job, int period)
{
	char *volatile p = malloc(128);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
	free(p);
	work_default(job, period);
}

static void work_fault(struct rt_job *job, int period)
{
	fresh[(size_t)period * 4096] = 1;	/* a page never touched before */
	work_default(job, period);
}

int main(int argc, char **argv)
{
	bool fault = argc > 2 && strcmp(argv[2], "fault") == 0;
	pthread_mutex_t pi;
	struct rt_job job;

	if (argc < 3)
		die("usage: fail_blocks MODE alloc|fault", EINVAL);
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE | (fault ? MCL_ONFAULT : 0));
	init_pi_mutex(&pi);
	blocks_init(argv[1]);
	job_defaults(&job, &pi);
	if (fault) {
		fresh = mmap(NULL, (size_t)PERIODS * 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fresh == MAP_FAILED)
			die("mmap", errno);
		job.work = work_fault;
	} else {
		job.work = work_alloc;
		job.prepare = warm_arena;
	}
	return run_blocks(&job);
}
