/* SPDX-License-Identifier: MIT */
/* Options of `rtready inspect`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_INSPECT_H
#define RTR_CLI_CMD_INSPECT_H

#include <stddef.h>

#include "cli/cli.h"
#include "job/inspect.h"

/* Parse argv (argv[0] = "inspect"). Return: 0, or -EINVAL with a message in @err. */
int inspect_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void inspect_opts_free(void *opts);

#endif
