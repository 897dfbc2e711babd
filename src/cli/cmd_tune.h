/* SPDX-License-Identifier: MIT */
/* Options of `rtready tune`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_TUNE_H
#define RTR_CLI_CMD_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "target/target.h"
#include "tune/mode.h"
#include "tune/tune.h"

struct tune_opts {
	enum tune_mode mode;
	bool mode_given;	/* a mode option was given (two differ: refused) */
	struct rt_request rt;	/* --rt-cpus */
	bool enabled[TUNE_COUNT]; /* all true unless switched off */
	int64_t idle_max_latency_us;
	int *pids; /* --pid: move only these processes; NULL: all */
	size_t n_pids;
	const char *state_dir;
	const char *boot_dir; /* --emit-boot DIR */
	const char *root;
	enum output_format format;
	bool help, version;
};

void tune_opts_free(void *opts);

#endif
