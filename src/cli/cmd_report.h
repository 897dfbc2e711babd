/* SPDX-License-Identifier: MIT */
/* Options of `rtready report`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_REPORT_H
#define RTR_CLI_CMD_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/result.h"

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

/* Parse argv (argv[0] = "report"). Return: 0, or -EINVAL with a message in @err. */
int report_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);

#endif
