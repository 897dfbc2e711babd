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


#endif
