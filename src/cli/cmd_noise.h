/* SPDX-License-Identifier: MIT */
/* Options of `rtready noise` (unit-tested). */
#ifndef RTR_CLI_CMD_NOISE_H
#define RTR_CLI_CMD_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "job/noise.h"


/* Parse argv into @o (noise_opts_free() after, whatever the result). Never exits. */
int noise_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void noise_opts_free(void *opts);

#endif
