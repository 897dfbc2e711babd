/* SPDX-License-Identifier: MIT */
/* Options of `rtready check`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_CHECK_H
#define RTR_CLI_CMD_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "job/check.h"

/* Parse argv (argv[0] = "check"). Return: 0, or -EINVAL with a message in @err. */
int check_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void check_opts_free(void *opts);

#endif
