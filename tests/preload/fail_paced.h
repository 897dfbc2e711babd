/* SPDX-License-Identifier: MIT */
/*
 * The body of fail_waits.c and fail_blocks.c: the good program paced by the
 * wait that argv[1] names, its work allocating (argv[2] "alloc") or touching
 * a page never touched before ("fault"). The includer defines PACE_NAME,
 * PACE_INIT (the wait's set-up) and PACE_RUN (the RT loop).
 */
#ifndef RTR_TESTS_PRELOAD_FAIL_PACED_H
#define RTR_TESTS_PRELOAD_FAIL_PACED_H

#include <stdbool.h>

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
		die("usage: " PACE_NAME " MODE alloc|fault", EINVAL);
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE | (fault ? MCL_ONFAULT : 0));
	init_pi_mutex(&pi);
	PACE_INIT(argv[1]);
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
	return PACE_RUN(&job);
}

#endif
