/* SPDX-License-Identifier: MIT */
/* Options of `rtready pi` (unit-tested) and its result as a finding. */
#ifndef RTR_CLI_CMD_PI_H
#define RTR_CLI_CMD_PI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "core/report.h"
#include "measure/pi.h"

struct pi_opts {
	struct pi_config config;
	enum output_format format;
	const char *output;
	bool help, version;
};

int pi_opts_parse(int argc, char **argv, struct pi_opts *o, char *err, size_t errlen);

/* The check sync.priority_inheritance from a result (also used by verify). */
int pi_report_add(struct report *r, const struct pi_result *res)
	__attribute__((warn_unused_result));

#endif
