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


/* Parse argv (argv[0] = "verify"). Return: 0, or -EINVAL with a message in @err. */
int verify_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void verify_opts_free(void *opts);

#endif
