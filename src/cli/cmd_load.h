/* SPDX-License-Identifier: MIT */
/* Options of `rtready load`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_LOAD_H
#define RTR_CLI_CMD_LOAD_H

#include <stddef.h>

#include "cli/cli.h"
#include "job/load.h"

/*
 * Parse argv (argv[0] = "load") into @o. Messaging runs when one of its
 * options is given or when no other load is; -D makes it restart until the
 * end. Return: 0, or -EINVAL with a message in @err.
 */
int load_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void load_opts_free(void *opts);

#endif
