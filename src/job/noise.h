/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready noise` once its options are parsed: the CPUs, the
 * spinners of src/measure/noise.c, the result (text or JSON), --gaps and
 * the exit status.
 */
#ifndef RTR_JOB_NOISE_H
#define RTR_JOB_NOISE_H

#include <stdbool.h>

#include "job/job.h"
#include "measure/noise.h"
#include "render/format.h"
#include "target/target.h"

struct noise_opts {
	struct noise_config cfg;
	struct rt_request affinity;	/* -a: a list, auto or auto:N */
	enum output_format format;
	const char *output;
	const char *gaps;	/* --gaps FILE: every gap with its cause */
	bool isolate;		/* --isolate: the spinners in an isolated partition */
	bool prio_given;	/* -p given (refused with --policy other) */
	bool help, version;
};

/*
 * Measure as @o says (@o->cfg.cpus is set to the CPUs measured). Return:
 * the exit status (JOB_*), after printing why through @ui when it is not JOB_OK.
 */
int noise_job_run(void *opts, const struct job_ui *ui);

#endif
