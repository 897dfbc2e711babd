/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready pi` once its options are parsed: the scenario of
 * src/measure/pi.c, its verdict as a finding, the result (text or JSON)
 * and the exit status.
 */
#ifndef RTR_JOB_PI_H
#define RTR_JOB_PI_H

#include <stdbool.h>

#include "job/job.h"
#include "measure/pi.h"
#include "render/format.h"

struct pi_opts {
	struct pi_config config;
	enum output_format format;
	const char *output;
	bool help, version;
};

/*
 * Run the scenario as @o says (on the last CPU we may use when @o names
 * none). Return: the exit status (JOB_*), after printing why through @ui
 * when the run could not be made.
 */
int pi_job_run(void *opts, const struct job_ui *ui);

#endif
