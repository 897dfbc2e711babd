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
int report_opts_parse(int argc, char **argv, struct report_opts *o, char *err, size_t errlen);

/*
 * Write the outputs asked for in @o (HTML, JUnit, Prometheus) for
 * @results; messages name the file that could not be written. Also used
 * by verify. Return: 0 or -errno (already printed as "rtready: @cmd: ...").
 */
int report_render(const char *cmd, const struct report_opts *o, const struct result *const *results,
		  size_t n);

/* 1 when a result failed (or, with @strict, warned), else 0. */
int report_results_exit(const struct result *const *results, size_t n, bool strict);

#endif
