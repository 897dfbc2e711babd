/* SPDX-License-Identifier: MIT */
/*
 * `rtready latency --load KIND`: which `rtready load` configuration each
 * kind means. The load runs at SCHED_OTHER on every CPU (the measured ones
 * included: that is the point), restarts until stopped, and is stopped when
 * the measurement ends.
 */
#ifndef RTR_MEASURE_LATENCY_LOAD_H
#define RTR_MEASURE_LATENCY_LOAD_H

#include "measure/load.h"

enum latency_load_kind {
	LATENCY_LOAD_HACKBENCH,	/* hackbench's default messaging, runs back to back */
	LATENCY_LOAD_CPU,	/* one CPU hog per online CPU */
	LATENCY_LOAD_MEMORY,	/* allocate, touch, free: page faults and reclaim */
	LATENCY_LOAD_ALL,	/* the three together */
};

/* Size of one memory churn cycle. */
#define LATENCY_LOAD_MEMORY_BYTES (128u << 20)

/* "hackbench", "cpu", "memory", "all". Return: 0 or -EINVAL. */
int latency_load_parse(const char *name, enum latency_load_kind *out);
const char *latency_load_name(enum latency_load_kind kind);

/*
 * Fill @out (initialised here; load_config_free() it) for @kind, with
 * @ncpus CPU hogs where the kind has them. Return: 0 or -EINVAL.
 */
int latency_load_config(enum latency_load_kind kind, unsigned int ncpus, struct load_config *out);

struct rtr_cpuset;
struct latency_load_info;

/*
 * Start the load of @kind on @cpus (NULL: every CPU; @ncpus hogs where the
 * kind has them). Return: 0 or -errno.
 */
int latency_load_begin(enum latency_load_kind kind, const struct rtr_cpuset *cpus,
		       unsigned int ncpus, struct load **out);

/*
 * Stop @load and write what it did into @li. Return: 0, or -EIO when the
 * load failed during the run (@li->error says why).
 */
int latency_load_end(enum latency_load_kind kind, struct load *load,
		     struct latency_load_info *li);

#endif
