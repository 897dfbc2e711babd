/* SPDX-License-Identifier: MIT */
/* Options of `rtready snapshot`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_SNAPSHOT_H
#define RTR_CLI_CMD_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

struct snapshot_opts {
	const char *dir;	/* where to write the tree */
	const char *root;	/* what to capture: "/" or another tree */
	bool force;		/* write into a non-empty directory */
	bool help, version;
};

/* Parse argv (argv[0] = "snapshot"). Return: 0, or -EINVAL with a message in @err. */
int snapshot_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);

#endif
