/* SPDX-License-Identifier: MIT */
/* Options of `rtready report`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_REPORT_H
#define RTR_CLI_CMD_REPORT_H

#include <stddef.h>

#include "job/report.h"

/* Parse argv (argv[0] = "report"). Return: 0, or -EINVAL with a message in @err. */
int report_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);

#endif
