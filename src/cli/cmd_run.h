/* SPDX-License-Identifier: MIT */
/* Options of `rtready run`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_RUN_H
#define RTR_CLI_CMD_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "rtready/cpuset.h"

struct run_opts {
	int policy;		/* -1: leave as is; SCHED_OTHER, SCHED_FIFO, SCHED_RR, DEADLINE */
	int prio;
	uint64_t dl_runtime_ns;	/* --policy deadline: --runtime, --deadline, --period */
	uint64_t dl_deadline_ns;
	uint64_t dl_period_ns;
	bool allow_prio99;
	struct rtr_cpuset cpus;
	bool cpus_set;
	bool mlock;
	bool memlock_set;
	uint64_t memlock_bytes;	/* UINT64_MAX: unlimited */
	bool nice_set;
	int nice;
	unsigned cpu_max_pct;	/* 0: no CPU budget */
	uint64_t memory_max_bytes;	/* 0: no memory budget */
	uint64_t rttime_us;	/* --rttime: RLIMIT_RTTIME; 0: leave */
	bool isolate;		/* --isolate: an isolated cpuset partition of cpus */
	bool check;
	const char *report;	/* NULL: standard error */
	enum output_format format;
	bool strict;
	bool prio_set;		/* --prio given */
	bool out_opts;		/* --report, --format or --strict given (they need --check) */
	bool help, version;
	char **cmd;		/* the command and its arguments (points into argv) */
	int n_cmd;
};

void run_opts_free(void *opts);

#endif
