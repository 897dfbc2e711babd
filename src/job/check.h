/* SPDX-License-Identifier: MIT */
/* The run of `rtready check` once its options are parsed: the checklist on the target, rendered. */
#ifndef RTR_JOB_CHECK_H
#define RTR_JOB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "job/job.h"
#include "render/format.h"

struct check_opts {
	struct rt_request rt;	/* --rt-cpus */
	const char *root;
	enum output_format format;
	const char *output;
	bool strict, verbose, list, help, version;
	const char **only;
	size_t n_only;
	const char **skip;
	size_t n_skip;
	char **sel_storage;	/* copies of --only/--skip arguments */
	size_t n_sel_storage;
};

/*
 * Run the checks @o selects on its root (or, with --list, list the check
 * ids on standard output). Return: the exit status (JOB_*), after saying
 * why through @ui when the checks could not run or the result not be written.
 */
int check_job_run(void *opts, const struct job_ui *ui);

#endif
