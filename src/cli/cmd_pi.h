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

int pi_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);

#endif
