/* SPDX-License-Identifier: MIT */
/* Options of `rtready noise` (unit-tested). */
#ifndef RTR_CLI_CMD_NOISE_H
#define RTR_CLI_CMD_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "measure/noise.h"
#include "target/target.h"

struct noise_opts {
	struct noise_config cfg;
	struct rt_request affinity;	/* -a: a list, auto or auto:N */
	enum output_format format;
	const char *output;
	const char *gaps;	/* --gaps FILE: every gap with its cause */
	bool isolate;		/* --isolate: the spinners in an isolated partition */
	bool help, version;
};

/* Parse argv into @o (noise_opts_free() after, whatever the result). Never exits. */
int noise_opts_parse(int argc, char **argv, struct noise_opts *o, char *err, size_t errlen);
void noise_opts_free(struct noise_opts *o);

#endif
