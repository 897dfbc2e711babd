/* SPDX-License-Identifier: MIT */
/*
 * `rtready run --isolate`: a cgroup v2 isolated partition of the
 * program's CPUs for its lifetime. The group is made under the cgroup2
 * root, named RUN_ISOLATE_PREFIX<pid of rtready>, with "-sc" added when
 * rtready had to enable cpuset in the root's cgroup.subtree_control: the
 * name alone (made before anything else changes) tells a later rtready
 * what to put back, so nothing is lost when this one is killed with -9.
 * It is removed when the program ends; one whose rtready has ended is
 * removed by the next `rtready run`, as budget groups are (run/cgroup.h).
 * The kernel threads' affinities that the partition resets are recorded
 * before it is made and put back after it is gone (run/affinity.h).
 */
#ifndef RTR_RUN_ISOLATE_H
#define RTR_RUN_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "rtready/cpuset.h"
#include "run/cgroup.h"

#define RUN_ISOLATE_PREFIX "rtready-isolated-run-"

/*
 * Make the partition of @cpus into @cg (its cgroup.procs for the child to
 * join). Where it cannot work (see partition_obstacle()) nothing is made,
 * -EOPNOTSUPP, -EBUSY or -EINVAL is returned and @err says why (also when
 * the kernel threads' affinities cannot be recorded); a step that
 * fails (the kernel reads the partition as invalid) undoes the others.
 * @threaded: the group is made threaded (cgroup.type) before it becomes a
 * partition, so that single threads of a process in the root group can
 * join it (cgroup.threads) while the others stay outside, on the
 * housekeeping CPUs: `noise --isolate` puts only its spinners there.
 * Return: 0 or -errno.
 */
int run_isolate_create(struct run_cgroup *cg, const struct rtr_cpuset *cpus, bool threaded,
		       char *err, size_t errlen) __attribute__((warn_unused_result));

/*
 * Remove the partition (retrying while exited tasks leave it), take
 * cpuset out of the root's subtree_control again when rtready put it
 * there and no other group uses it, and give the kernel threads recorded
 * by run_isolate_create() their affinity back. Return: 0, -EBUSY
 * (processes remain: left, @err names it), or -errno (@err says what:
 * also when the group went but threads refused their affinity back).
 */
int run_isolate_remove(struct run_cgroup *cg, char *err, size_t errlen);

/*
 * Remove the partitions of rtready processes that have ended (empty ones
 * only), putting the subtree_control and the kernel threads' affinities
 * back as run_isolate_remove() does (also those of a record whose
 * partition is gone already).
 * Return: the number of notes given.
 */
struct run_isolate_notes {
	/* A partition removed (err 0) or left: as for run_cgroup_clean_stale(). */
	void (*group)(void *ctx, const char *dir, long pid, int err);
	/* The kernel threads of a partition of rtready @pid not all put back: @why. */
	void (*affinity)(void *ctx, long pid, const char *why);
	void *ctx;
};
int run_isolate_clean_stale(const struct run_isolate_notes *n);

#endif
