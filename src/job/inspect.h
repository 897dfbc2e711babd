/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready inspect` once its options are parsed: the processes
 * named, sampled over the window, judged thread by thread, rendered.
 */
#ifndef RTR_JOB_INSPECT_H
#define RTR_JOB_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job/job.h"
#include "render/format.h"

#define INSPECT_MAX_PIDS 1024

struct inspect_opts {
	int pids[INSPECT_MAX_PIDS];
	size_t n_pids;
	const char *name;
	bool all;
	int64_t window_ns;
	bool window_given;
	const char *root;	/* "/" or a snapshot tree */
	struct rt_request rt;	/* --rt-cpus */
	bool perf;
	enum output_format format;
	const char *output;
	bool strict, verbose, help, version;
};

/*
 * Inspect what @o names. Return: the exit status (JOB_*), after saying why
 * through @ui when no process could be read or the result not be written.
 */
int inspect_job_run(void *opts, const struct job_ui *ui);

#endif
