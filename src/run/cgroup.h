/* SPDX-License-Identifier: MIT */
/*
 * A CPU and memory budget for one program started by `rtready run`: a
 * control group of its own, made next to rtready's own cgroup, limited
 * with cpu.max and memory.max (cgroup v2) or cpu.cfs_quota_us and
 * memory.limit_in_bytes (v1, where the controllers are only mounted
 * there), joined by the program before exec and removed after it ends.
 *
 * Which hierarchy holds each controller is read from /proc/self/mountinfo
 * and /proc/self/cgroup (through the rootfs layer); the parsers are pure
 * functions of that text, so unit tests feed them any machine's lines.
 */
#ifndef RTR_RUN_CGROUP_H
#define RTR_RUN_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cgroupfs.h"

struct cgroup_limits {
	unsigned cpu_pct;	/* percent of one CPU (may exceed 100), 0: no limit */
	uint64_t memory_bytes;	/* 0: no limit */
};

/*
 * The directories made for one program: for v2 one directory, for v1 one
 * per controller. join_files are the cgroup.procs files the child writes.
 */
struct run_cgroup {
	int version;		/* 0: none made, 1 or 2 */
	char dirs[2][PATH_MAX];
	size_t n_dirs;
	char procs[2][PATH_MAX + 16];
	size_t n_procs;
};

/*
 * Make the cgroup named @name for @lim. On failure, a one-line reason is
 * in @err and nothing is left behind. Return: 0 or -errno.
 */
int run_cgroup_create(struct run_cgroup *cg, const struct cgroup_limits *lim, const char *name,
		      char *err, size_t errlen) __attribute__((warn_unused_result));

/*
 * Move the calling process into @cg. Only open/write/close: safe in a
 * child between fork and exec. Return: 0 or -errno.
 */
int run_cgroup_join(const struct run_cgroup *cg);

/*
 * Remove the directories, retrying for a short while as the kernel lets
 * go of exited tasks. Return: 0 or -EBUSY when processes remain (left in
 * place; @err says where), or another -errno.
 */
int run_cgroup_remove(struct run_cgroup *cg, char *err, size_t errlen);

#endif
