/* SPDX-License-Identifier: MIT */
/*
 * The kernel threads' CPU affinities that an isolated partition of `run
 * --isolate` and `noise --isolate` would leave changed, kept and put back.
 *
 * When a cpuset partition is made or removed, the kernel sets every task of
 * the root group to the root's CPUs (cpuset's update_tasks_cpumask), within
 * the mask someone asked for with sched_setaffinity() when there is one
 * (user_cpus_ptr, kept since Linux 6.2, for kernel threads too). A user task
 * usually has one; a kernel thread whose affinity the kernel set (an IRQ
 * thread follows its IRQ) has none: an IRQ thread on CPU 0 reads 0-3 once
 * the partition is gone, until its IRQ's affinity next changes. And one
 * whose kept mask is not where it runs now (its IRQ moved since) lands on
 * the kept mask. Per-CPU kernel threads (PF_NO_SETAFFINITY) are left alone
 * by the kernel and by us. Putting one back with sched_setaffinity() makes
 * its mask a kept one, as `tune` does for the threads it journals.
 *
 * So before the partition is made, every kernel thread whose affinity is
 * narrower than the online CPUs is recorded, to a file that survives a
 * kill -9 of rtready: RUN_AFFINITY_DIR/RUN_AFFINITY_PREFIX<pid of rtready>
 * (JSON, written atomically; /run is a tmpfs, so a record never outlives
 * the boot its thread ids belong to). After the partition is removed, by
 * this rtready or by the stale cleanup of the next one, each recorded
 * thread that still exists (same id and start time) and reads another
 * affinity gets its own back (sched_setaffinity), and the record goes.
 */
#ifndef RTR_RUN_AFFINITY_H
#define RTR_RUN_AFFINITY_H

#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"

#define RUN_AFFINITY_DIR    "/run/rtready"
#define RUN_AFFINITY_PREFIX "isolate-affinity."
/* A record larger than this is not ours (100,000 threads need ~8 MiB). */
#define RUN_AFFINITY_CAP (16u << 20)

struct run_affinity_entry {
	int pid;
	int tid;
	uint64_t start_ticks;	/* tells a reused thread id from the thread recorded */
	char comm[64];
	struct rtr_cpuset cpus;	/* its affinity when recorded */
};

struct run_affinity {
	struct run_affinity_entry *e;
	size_t n;
	size_t cap;
};

/* What a restore did. */
struct run_affinity_result {
	size_t recorded;	/* threads in the record */
	size_t changed;		/* of those, still there with another affinity */
	size_t restored;	/* put back */
	size_t gone;		/* exited (or refused with ESRCH) since: nothing to put back */
	size_t refused;		/* the kernel refused the old affinity (EINVAL, EPERM) */
	int first_err;		/* the first refusal's error */
	int first_tid;		/* and its thread */
	char first_comm[64];
	char first_cpus[64];	/* the affinity it was to get back */
};

void run_affinity_free(struct run_affinity *rec);

/*
 * Record into @rec (empty at first) every kernel thread under @fs's /proc
 * that is not per-CPU and whose Cpus_allowed_list is narrower than the
 * online CPUs (/sys/devices/system/cpu/online).
 * Return: 0 or -errno (the online CPUs or /proc unreadable, -ENOMEM).
 */
int run_affinity_record(const struct rootfs *fs, struct run_affinity *rec)
	__attribute__((warn_unused_result));

/*
 * The entries of @rec whose thread still exists under @fs's /proc (the
 * same tid and start time) and reads another affinity now: their indices
 * into *@idx (free() it), *@n of them; *@gone (may be NULL) counts the
 * threads that exited. Return: 0 or -errno.
 */
int run_affinity_changed(const struct rootfs *fs, const struct run_affinity *rec, size_t **idx,
			 size_t *n, size_t *gone) __attribute__((warn_unused_result));

/*
 * Put back, with sched_setaffinity(), the affinity of each entry that
 * run_affinity_changed() names; on the live root only (-EOPNOTSUPP
 * under another). A thread that went away meanwhile (ESRCH) counts as
 * gone, one that refuses (EINVAL, EPERM) as refused. Return: 0 or -errno
 * of the walk (refusals are in @res, not the return).
 */
int run_affinity_restore(const struct rootfs *fs, const struct run_affinity *rec,
			 struct run_affinity_result *res) __attribute__((warn_unused_result));

/* The record as JSON text (free() it) and back. Return: 0 or -errno (-EINVAL: not a record). */
int run_affinity_encode(const struct run_affinity *rec, long pid, char **text)
	__attribute__((warn_unused_result));
int run_affinity_decode(const char *text, size_t len, long pid, struct run_affinity *rec)
	__attribute__((warn_unused_result));

/*
 * Keep @rec of rtready @pid in @dir (made, mode 0700, when missing):
 * written whole or not at all. Load it back (-ENOENT: none), and forget it
 * (a missing one is not an error). Return: 0 or -errno.
 */
int run_affinity_save(const char *dir, long pid, const struct run_affinity *rec)
	__attribute__((warn_unused_result));
int run_affinity_load(const char *dir, long pid, struct run_affinity *rec)
	__attribute__((warn_unused_result));
int run_affinity_forget(const char *dir, long pid);

/*
 * The pids of the records in @dir, at most @max into @pids.
 * Return: how many (0 when @dir is missing).
 */
size_t run_affinity_list(const char *dir, long *pids, size_t max);

#endif
