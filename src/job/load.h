/* SPDX-License-Identifier: MIT */
/* The run of `rtready load` once its options are parsed: the load, until its end or a stop, and its figures. */
#ifndef RTR_JOB_LOAD_H
#define RTR_JOB_LOAD_H

#include <stdbool.h>

#include "job/job.h"
#include "measure/load.h"
#include "render/format.h"

/* Which kinds of load option were given: they decide the defaults after parsing. */
struct load_seen {
	bool messaging, other, duration;
};

struct load_opts {
	struct load_config cfg;
	struct load_seen seen;
	enum output_format format;
	const char *output;
	bool quiet, help, version;
};

/*
 * Run the load @o describes until it ends or SIGINT/SIGTERM stops it.
 * Return: the exit status (JOB_*), after saying why through @ui.
 */
int load_job_run(void *opts, const struct job_ui *ui);

#endif
