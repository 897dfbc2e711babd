/* SPDX-License-Identifier: MIT */
/*
 * Where the control group hierarchies are, as this process sees them: the
 * cgroup2 mount and the v1 mounts of the cpu and memory controllers (from
 * /proc/self/mountinfo), and a process's cgroup in each (from
 * /proc/PID/cgroup). Pure parsers of that text, shared by `run` (budgets),
 * `load` (the OOM child's cgroup) and `inspect` (CPU limits), so there is
 * one reading of these formats; and the few operations on the live
 * hierarchy that `run` and `load` share (write an attribute, make and
 * remove a group), through rootfs like every other system access.
 */
#ifndef RTR_PROBE_CGROUPFS_H
#define RTR_PROBE_CGROUPFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"

/* Where the hierarchies are mounted (from mountinfo). "" when absent. */
struct cgroup_mounts {
	char v2[PATH_MAX];		/* cgroup2 mount point */
	char v2_root[PATH_MAX];		/* the mount's root inside the hierarchy */
	char v1_cpu[PATH_MAX];		/* v1 hierarchy holding "cpu" */
	char v1_cpu_root[PATH_MAX];
	char v1_memory[PATH_MAX];	/* v1 hierarchy holding "memory" */
	char v1_memory_root[PATH_MAX];
	char v1_cpuset[PATH_MAX];	/* v1 hierarchy holding "cpuset" */
};

/* A process's cgroup in each hierarchy (from /proc/PID/cgroup). "" when absent. */
struct cgroup_self {
	char v2[PATH_MAX];
	char v1_cpu[PATH_MAX];
	char v1_memory[PATH_MAX];
};

/* Parse /proc/self/mountinfo text. Return: 0, -EINVAL (no line parsed), -ENOMEM. */
int cgroup_parse_mountinfo(const char *text, struct cgroup_mounts *out);

/*
 * Parse /proc/self/mounts text (@len bytes; "cgroup /sys/fs/cgroup/cpu
 * cgroup rw,cpu 0 0"), which older snapshots hold instead of mountinfo:
 * the same fields, every root "/". Return: 0, -EINVAL (no line parsed).
 */
int cgroup_parse_mounts(const char *text, size_t len, struct cgroup_mounts *out);

/* Parse /proc/PID/cgroup text. Return: 0, -EINVAL (no line parsed), -ENOMEM. */
int cgroup_parse_self(const char *text, struct cgroup_self *out);

/*
 * The one reading of the mount table, for every module: /proc/self/mountinfo
 * under @fs, or /proc/self/mounts where a snapshot of an older rtready holds
 * only that. Capped at ROOTFS_CAP_LARGE (a container host has tens of
 * thousands of mounts). Return: 0 or -errno of mountinfo (-EINVAL: nothing
 * parsed).
 */
int cgroup_read_mounts(const struct rootfs *fs, struct cgroup_mounts *out)
	__attribute__((warn_unused_result));

/* Read and parse /proc/self/cgroup under @fs. Return: 0 or -errno (-EINVAL: nothing parsed). */
int cgroup_read_self(const struct rootfs *fs, struct cgroup_self *out)
	__attribute__((warn_unused_result));

/*
 * The directory of cgroup @path (as /proc/PID/cgroup names it) in a
 * hierarchy mounted at @mnt whose root is @mroot; a path outside the
 * mount's root falls back to the mount itself. Return: 0 or -ENAMETOOLONG.
 */
int cgroupfs_dir(char *out, size_t len, const char *mnt, const char *mroot, const char *path);

/* Whether the comma-separated @list holds @word exactly. */
bool cgroupfs_list_has(const char *list, const char *word);

/*
 * The value of @key in a flat keyed file such as memory.events
 * ("low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n"; v1's memory.oom_control is
 * the same shape). Return: 0, -ENOENT when the key is absent, -EINVAL when
 * its value is not a number.
 */
int cgroupfs_parse_key(const char *text, const char *key, uint64_t *value);

/*
 * Write @text into @dir/@file (one write; a short one is -EIO). Return: 0
 * or -errno.
 */
int cgroupfs_write(const struct rootfs *fs, const char *dir, const char *file, const char *text)
	__attribute__((warn_unused_result));

/*
 * Move the thread @tid into the group @dir (its cgroup.threads). In cgroup
 * v2 a thread may leave its process's group only for a group of the same
 * threaded domain: @dir must be threaded (cgroup.type "threaded") under
 * the process's domain, or the kernel refuses (-EOPNOTSUPP). Return: 0,
 * -EINVAL (@tid not > 0), or -errno.
 */
int cgroupfs_move_thread(const struct rootfs *fs, const char *dir, long tid)
	__attribute__((warn_unused_result));

/*
 * Whether the space-separated controller list @dir/@file (cgroup.controllers
 * or cgroup.subtree_control) names every one of @names (a NULL-ended list).
 * Return: 1, 0, or -errno when the file cannot be read.
 */
int cgroupfs_lists(const struct rootfs *fs, const char *dir, const char *file,
		   const char *const *names);

/* Read @dir/@file into @buf (trailing white space removed). Return: 0 or -errno. */
int cgroupfs_read(const struct rootfs *fs, const char *dir, const char *file, char *buf,
		  size_t len) __attribute__((warn_unused_result));

/*
 * Make the group @dir; an empty leftover of the same name (an earlier run
 * with the same pid) is removed first. Return: 0 or -errno.
 */
int cgroupfs_mkdir_fresh(const struct rootfs *fs, const char *dir)
	__attribute__((warn_unused_result));

/*
 * Remove the group @dir (gone already counts as removed), trying @tries
 * times @pause_ns apart while it is busy: a task that just exited leaves
 * its group a moment after it is reaped. Return: 0, -EBUSY (processes are
 * still inside), or -errno.
 */
int cgroupfs_rmdir_wait(const struct rootfs *fs, const char *dir, int tries, long pause_ns)
	__attribute__((warn_unused_result));

#endif
