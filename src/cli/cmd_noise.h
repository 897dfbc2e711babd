/* SPDX-License-Identifier: MIT */
/* Options of `rtready noise` (unit-tested). */
#ifndef RTR_CLI_CMD_NOISE_H
#define RTR_CLI_CMD_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "job/noise.h"


void noise_opts_free(void *opts);

#endif
