/* SPDX-License-Identifier: MIT */
/* Options of `rtready load`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_LOAD_H
#define RTR_CLI_CMD_LOAD_H

#include <stddef.h>

#include "cli/cli.h"
#include "job/load.h"

void load_opts_free(void *opts);

#endif
