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
 *
 * A group is named "rtready-run-<pid of rtready>". One left by an rtready
 * that was killed (kill -9 cannot be caught) is found by that name and
 * removed by the next `rtready run` when it is empty; one that still holds
 * processes is left alone (they are the user's) and reported.
 */
#ifndef RTR_RUN_CGROUP_H
#define RTR_RUN_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cgroupfs.h"

#define RUN_CGROUP_PREFIX "rtready-run-"

/*
 * Smallest --memory-max. Below it no program even starts: exec charges the
 * new stack, page tables and (cgroup v2) kernel memory to the group, and
 * the OOM killer ends the program before main(); /bin/true needs 192 KiB
 * on a v1 memory cgroup, an interpreter several MiB.
 */
#define RUN_MEMORY_MAX_MIN (1u << 20)

struct cgroup_limits {
	unsigned cpu_pct;	/* percent of one CPU (may exceed 100), 0: no limit */
	uint64_t memory_bytes;	/* 0: no limit */
	bool rt;		/* the program is started with SCHED_FIFO or SCHED_RR */
};

/*
 * The directories made for one program: for v2 one directory, for v1 one
 * per controller. join_files are the cgroup.procs files the child writes.
 */
struct run_cgroup {
	int version;		/* 0: none made, 1 or 2 */
	char dirs[2][PATH_MAX];
	size_t n_dirs;
	int memory_dir;		/* index in dirs of the one with the memory limit, -1: none */
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
 * Whether a task in @cg is refused SCHED_FIFO (EPERM) while rtready itself
 * is not: RT group scheduling with no budget for the group (always so for
 * a cgroup v2 group, which cannot have one). Tried in a child that joins
 * the group and exits. Return: 1 refused, 0 allowed, -errno could not tell.
 */
int run_cgroup_rt_refused(const struct run_cgroup *cg);

/*
 * Move the calling process into @cg. Only open/write/close: safe in a
 * child between fork and exec. Return: 0 or -errno.
 */
int run_cgroup_join(const struct run_cgroup *cg);

/*
 * Remove the directories, retrying for a short while as the kernel lets
 * go of exited tasks. Return: 0 or -EBUSY when processes remain (left in
 * place; @err names every directory left, in one line), or another -errno.
 */
int run_cgroup_remove(struct run_cgroup *cg, char *err, size_t errlen);

/*
 * How many times the OOM killer killed a process in the memory-limited
 * group of @cg ("oom_kill" of memory.events, or of memory.oom_control on
 * v1). Call before run_cgroup_remove(). Return: 0, -ENOENT (no memory
 * limit, or a kernel without the count), or another -errno.
 */
int run_cgroup_oom_kills(const struct run_cgroup *cg, uint64_t *kills);

/*
 * Look for groups named RUN_CGROUP_PREFIX<pid> whose rtready no longer
 * runs, where run_cgroup_create() makes them (rtready's own cgroup and the
 * top of each hierarchy), and remove the empty ones. Nothing is killed.
 * @fn is called for each one found, with its directory, the dead pid and
 * 0 when it was removed, -EBUSY when it still holds processes (left
 * alone), or the -errno of rmdir; one we may not remove (EACCES, EPERM:
 * not ours) is skipped. Best effort: unreadable places are skipped too.
 * Return: the number passed to @fn.
 */
int run_cgroup_clean_stale(void (*fn)(void *ctx, const char *dir, long pid, int err), void *ctx);

#endif
