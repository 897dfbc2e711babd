/* SPDX-License-Identifier: MIT */
/* Options of `rtready inspect`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_INSPECT_H
#define RTR_CLI_CMD_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "target/target.h"

#define INSPECT_MAX_PIDS 1024

struct inspect_opts {
	int pids[INSPECT_MAX_PIDS];
	size_t n_pids;
	const char *name;
	bool all;
	int64_t window_ns;
	bool window_given;
	const char *root;	/* "/" or a snapshot tree */
	struct rt_request rt;	/* --rt-cpus */
	bool perf;
	enum output_format format;
	const char *output;
	bool strict, verbose, help, version;
};

/* Parse argv (argv[0] = "inspect"). Return: 0, or -EINVAL with a message in @err. */
int inspect_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void inspect_opts_free(void *opts);

#endif
