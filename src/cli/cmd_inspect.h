/* SPDX-License-Identifier: MIT */
/* Options of `rtready inspect`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_INSPECT_H
#define RTR_CLI_CMD_INSPECT_H

#include <stddef.h>

#include "cli/cli.h"
#include "job/inspect.h"

void inspect_opts_free(void *opts);

#endif
