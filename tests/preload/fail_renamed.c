// SPDX-License-Identifier: MIT
/*
 * A program that rewrites its argv[0] for ps, as stress-ng does
 * ("stress-ng-cyclic [run]"), then allocates in its RT loop. The loader
 * names the main program after argv[0]; the report must name the file that
 * is mapped. Expected: app.alloc_in_rt, its first frame in this program's
 * file, named work_alloc.
 */
#include "rtprog.h"

static void work_alloc(struct rt_job *job, int period)
{
	char *volatile p = malloc(64);

	p[0] = (char)period;
	job->sum += (unsigned char)p[0];
	free(p);
	work_default(job, period);
}

int main(int argc, char **argv)
{
	pthread_mutex_t pi;
	struct rt_job job;
	size_t len = strlen(argv[0]);

	(void)argc;
	/* In place, as setproctitle-style code does: "renamed [run]" padded. */
	memset(argv[0], ' ', len);
	memcpy(argv[0], "renamed [run]", len < 13 ? len : 13);
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.work = work_alloc;
	job.prepare = warm_arena;
	return run_good(&job);
}
