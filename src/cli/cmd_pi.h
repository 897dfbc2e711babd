/* SPDX-License-Identifier: MIT */
/* Options of `rtready pi` (unit-tested). */
#ifndef RTR_CLI_CMD_PI_H
#define RTR_CLI_CMD_PI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "job/pi.h"


#endif
