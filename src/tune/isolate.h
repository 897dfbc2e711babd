/* SPDX-License-Identifier: MIT */
/*
 * tune --isolate: the plan of a cgroup v2 isolated partition of the RT
 * CPUs, TUNE_ISO_GROUP_PATH, as four journalled rows (the cpuset
 * controller in the root's subtree_control when it is not there, the
 * group, its cpuset.cpus, its cpuset.cpus.partition). Apply makes them in
 * that order and undoes them all when one fails; revert removes them
 * backwards. Reading only, like plan.c.
 */
#ifndef RTR_TUNE_ISOLATE_H
#define RTR_TUNE_ISOLATE_H

#include <stddef.h>

#include "probe/rootfs.h"
#include "tune/plan.h"

/*
 * Append the partition's changes for @s->rt to @out (or a note when it is
 * there already). Where it cannot work (see partition_obstacle(), and a
 * cgroup2 mounted elsewhere than /sys/fs/cgroup, or a group of that name
 * that is not rtready's partition of these CPUs) nothing is added and the
 * reason is in @why. Return: 0, -EOPNOTSUPP, -EBUSY, -EINVAL (refused),
 * -ENOMEM.
 */
int isolate_plan(const struct rootfs *fs, const struct tune_settings *s, struct tune_plan *out,
		 char *why, size_t len) __attribute__((warn_unused_result));

#endif
