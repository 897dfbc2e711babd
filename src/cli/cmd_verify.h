/* SPDX-License-Identifier: MIT */
/* Options of `rtready verify`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_VERIFY_H
#define RTR_CLI_CMD_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "job/verify.h"

#define VERIFY_DEFAULT_DURATION_NS (10LL * 1000000000LL)
#define VERIFY_DEFAULT_REPORT_DIR "rtready-report"


void verify_opts_free(void *opts);

#endif
