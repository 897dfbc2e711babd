/* SPDX-License-Identifier: MIT */
/*
 * RT group scheduling as it applies to real tasks. With
 * CONFIG_RT_GROUP_SCHED the kernel refuses SCHED_FIFO and SCHED_RR (EPERM,
 * even as root) to a task whose task group has an RT runtime of 0, unless
 * RT throttling is off (sched_rt_runtime_us = -1) or group scheduling is
 * off at boot (rt_group_sched=0, 6.16+). Which task group a task is in
 * depends on where the cpu controller lives:
 *
 * - cgroup v1: the task's own cgroup in the hierarchy holding "cpu"; its
 *   budget is that cgroup's cpu.rt_runtime_us (new cgroups get 0).
 * - cgroup v2: the nearest cgroup, from the task's own upwards, whose
 *   cgroup.controllers lists "cpu" (the root when none does). v2 has no
 *   cpu.rt_runtime_us, so every non-root group with the cpu controller
 *   has a budget of 0: a shell in such a group cannot get SCHED_FIFO.
 *
 * This probe finds that group for this process (/proc/self/cgroup: the
 * shell that starts the RT work, or the machine a snapshot was taken on),
 * and walks the hierarchy for the other groups that hold tasks and have
 * no budget (services, containers). Through rootfs, so a snapshot replays it.
 */
#ifndef RTR_PROBE_RTGROUP_H
#define RTR_PROBE_RTGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/rootfs.h"

/* Bounds of the cgroup walk: a hostile tree must not make it endless. */
#define RTGROUP_MAX_DIRS 20000
#define RTGROUP_MAX_DEPTH 32

enum rtgroup_hier {
	RTGROUP_NONE,		/* the cpu controller is in no mounted hierarchy */
	RTGROUP_V1,		/* a cgroup v1 hierarchy holds "cpu" */
	RTGROUP_V2,		/* the cgroup2 hierarchy holds "cpu" (or may: see SELF_HIDDEN) */
};

enum rtgroup_self {
	RTGROUP_SELF_UNKNOWN,	/* self_err says what could not be read */
	RTGROUP_SELF_ROOT,	/* the root group: only the global throttling applies */
	RTGROUP_SELF_BUDGET,	/* a group with a budget > 0 */
	RTGROUP_SELF_ZERO,	/* a group with no RT budget: SCHED_FIFO/RR get EPERM */
	RTGROUP_SELF_HIDDEN,	/* the group that applies lies above this (namespace's) view */
};

struct rtgroup_facts {
	int err;			/* 0, -ENOENT (no hierarchy holds cpu), -errno of the mounts */
	enum rtgroup_hier hier;
	char mount[256];		/* mount point of the hierarchy holding cpu */
	unsigned int groups;		/* groups that take the cpu controller, root included */
	unsigned int zero;		/* of those, with no RT budget */
	unsigned int zero_busy;		/* of those, with tasks charged to them */
	char zero_example[256];		/* the first busy (else any) such group */
	bool truncated;			/* a walk bound was hit */
	unsigned int unread;		/* groups whose files could not be read */

	/* This process's group (from /proc/self/cgroup). */
	enum rtgroup_self self;
	int self_err;			/* with SELF_UNKNOWN: -errno */
	char self_err_path[256];	/* with SELF_UNKNOWN: the file that failed */
	char self_cgroup[256];		/* as /proc/self/cgroup names it ("/user.slice/x") */
	char self_group[256];		/* directory of the group whose budget applies */
	char self_controllers[128];	/* v2: that group's cgroup.controllers */
	char self_enabled_in[256];	/* v2: the parent whose subtree_control enables cpu */
	int64_t self_runtime_us;	/* that group's cpu.rt_runtime_us; -1: no such file */
};

/* Fill @g. Never fails: each field carries its error. */
void probe_rtgroup(const struct rootfs *fs, struct rtgroup_facts *g);

#endif
