/* SPDX-License-Identifier: MIT */
/*
 * `rtready plan`: options, parsed without side effects (unit-tested). The
 * planner's run under a root is target_plan() (src/target).
 */
#ifndef RTR_CLI_CMD_PLAN_H
#define RTR_CLI_CMD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"

struct plan_opts {
	size_t rt_count;	/* --rt N; 0: as many as can be spared */
	int node;		/* --node N; -1: not given */
	const char *near;	/* --near IFACE|IRQ; NULL: not given */
	const char *root;
	enum output_format format;
	const char *output;
	int64_t window_ns;	/* --window: the load measured this long; 0: not measured */
	bool help, version;
};


#endif
