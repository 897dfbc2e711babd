/* SPDX-License-Identifier: MIT */
/* Options of `rtready check`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_CHECK_H
#define RTR_CLI_CMD_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "job/check.h"

void check_opts_free(void *opts);

#endif
