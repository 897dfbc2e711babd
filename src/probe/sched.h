/* SPDX-License-Identifier: MIT */
/*
 * Scheduler knobs: RT throttling (sched_rt_runtime_us / sched_rt_period_us),
 * the fair deadline server of kernels 6.12+ (debugfs), and RT group
 * scheduling (cpu.rt_runtime_us of every cgroup of the cpu controller).
 */
#ifndef RTR_PROBE_SCHED_H
#define RTR_PROBE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* Bounds of the cgroup walk: a hostile tree must not make it endless. */
#define SCHED_CGROUP_MAX_DIRS 20000
#define SCHED_CGROUP_MAX_DEPTH 32

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

	/* RT group scheduling: cgroups with a cpu.rt_runtime_us file */
	int rt_group_err;		/* -ENOENT: no cgroup has cpu.rt_runtime_us */
	char rt_group_mount[256];	/* the cpu controller's mount point, as found */
	unsigned int rt_groups;		/* cgroups with the file (root included) */
	unsigned int rt_groups_zero;	/* of those, with 0 (no RT task may run there) */
	unsigned int rt_groups_zero_busy;	/* of those, holding tasks */
	char rt_zero_example[256];	/* the first busy (else any) zero cgroup's path */
	bool rt_group_truncated;	/* a walk bound was hit */
};

/* Fill @s. Never fails: each field carries its error. */
void probe_sched(const struct rootfs *fs, struct sched_facts *s);
void probe_sched_free(struct sched_facts *s);

/*
 * From /proc/self/mounts text (@len bytes), the mount points of the cgroup
 * v1 hierarchy holding the "cpu" controller and of cgroup2, in that order,
 * into @out (up to @max entries of @len_each bytes). Escapes like "\040"
 * are decoded. Return: the number found.
 */
unsigned int sched_parse_cgroup_mounts(const char *buf, size_t len, char (*out)[256],
				       unsigned int max);

#endif
