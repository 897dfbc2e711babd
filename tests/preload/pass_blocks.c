// SPDX-License-Identifier: MIT
/*
 * The good program, paced by the wait that argv[1] names (see blocks.h)
 * instead of clock_nanosleep. Expected: no finding.
 */
#include "blocks.h"

int main(int argc, char **argv)
{
	pthread_mutex_t pi;
	struct rt_job job;

	if (argc < 2)
		die("usage: pass_blocks MODE", EINVAL);
	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	blocks_init(argv[1]);
	job_defaults(&job, &pi);
	return run_blocks(&job);
}
