/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready report` once its options are parsed: the result files
 * read, merged and judged, and the HTML page, JUnit XML and Prometheus text
 * written.
 */
#ifndef RTR_JOB_REPORT_H
#define RTR_JOB_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "job/job.h"

/* More side by side than this does not fit a page. */
#define REPORT_MAX_INPUTS 16

struct report_opts {
	const char *inputs[REPORT_MAX_INPUTS];
	size_t n_inputs;
	const char *html;	/* NULL: not asked (defaults to report.html when nothing is) */
	const char *junit;
	const char *prometheus;
	double max_latency_us;	/* 0: keep the results' own verdicts */
	bool strict, help, version;
};

/*
 * Render what @o names. Nothing is written when a file is refused.
 * Return: the exit status (JOB_*), after saying why through @ui.
 */
int report_job_run(void *opts, const struct job_ui *ui);

#endif
