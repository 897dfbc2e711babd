/* SPDX-License-Identifier: MIT */
/* Options of `rtready check`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_CHECK_H
#define RTR_CLI_CMD_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "core/report.h"
#include "target/target.h"

struct check_opts {
	struct rt_request rt;	/* --rt-cpus */
	const char *root;
	enum output_format format;
	const char *output;
	bool strict, verbose, list, help, version;
	const char **only;
	size_t n_only;
	const char **skip;
	size_t n_skip;
	char **sel_storage;	/* copies of --only/--skip arguments */
	size_t n_sel_storage;
};

/* Parse argv (argv[0] = "check"). Return: 0, or -EINVAL with a message in @err. */
int check_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void check_opts_free(void *opts);

#endif
