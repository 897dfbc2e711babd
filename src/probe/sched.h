/* SPDX-License-Identifier: MIT */
/*
 * Scheduler knobs: RT throttling (sched_rt_runtime_us / sched_rt_period_us),
 * the fair deadline server of kernels 6.12+ (debugfs), and RT group
 * scheduling (probe/rtgroup.h).
 */
#ifndef RTR_PROBE_SCHED_H
#define RTR_PROBE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "probe/rtgroup.h"
#include "rtready/cpuset.h"

struct sched_facts {
	int rt_runtime_err;		/* 0 when rt_runtime_us was read, else -errno */
	int64_t rt_runtime_us;		/* -1: throttling off */
	int rt_period_err;
	int64_t rt_period_us;

	/* /sys/kernel/debug/sched/fair_server/cpuN/{runtime,period}, in ns */
	int fair_server_err;		/* -ENOENT: no fair server (or debugfs not mounted) */
	unsigned int fair_server_cpus;	/* CPUs with a readable runtime */
	int64_t fair_runtime_min_ns, fair_runtime_max_ns;
	int64_t fair_period_ns;		/* of the first CPU read */
	struct rtr_cpuset fair_reserving;	/* CPUs whose fair server runtime is > 0 */

	struct rtgroup_facts rtg;	/* RT group scheduling: see rtgroup.h */
};

/* Fill @s. Never fails: each field carries its error. */
void probe_sched(const struct rootfs *fs, struct sched_facts *s);
void probe_sched_free(struct sched_facts *s);

#endif
