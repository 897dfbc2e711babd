/* SPDX-License-Identifier: MIT */
/*
 * What the parts of the load share (not part of the API in load.h): the
 * layout of the mapping that every load task writes its figures into, the
 * per-task set-up done right after fork(), and the entry points of the
 * parts (messaging runner, CPU hog, memory churn, OOM runner, cgroup).
 *
 * The mapping is MAP_SHARED and anonymous, made before the first fork(), so
 * the caller, the supervisor and every worker see the same counters; they
 * are C11 atomics, lock-free for 64-bit types on the targets we support.
 */
#ifndef RTR_MEASURE_LOAD_INTERNAL_H
#define RTR_MEASURE_LOAD_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "measure/load.h"

struct load_shared {
	atomic_bool finished;		/* the supervisor is done (set last) */
	atomic_int error;		/* first failure, -errno */
	atomic_int error_claimed;	/* whoever sets it first writes error_text */
	char error_text[160];

	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	int64_t deadline_ns;		/* start + duration; 0: none. Set before the first fork */
	int worker_nice;		/* nice value of every load task (set by the supervisor
					 * before it forks any, read by them) */

	/* Messaging: totals kept by the supervisor from each finished run. */
	_Atomic uint64_t runs, messages;
	_Atomic int64_t run_ns, last_run_ns;
	/* Scratch of the run in progress, written by its runner and workers. */
	_Atomic uint64_t cur_bytes;	/* bytes read by its receivers */
	_Atomic int64_t cur_ns;		/* its time, set by the runner at the end */

	_Atomic uint64_t cpu_loops;
	_Atomic uint64_t memory_cycles, memory_pages;
	_Atomic uint64_t oom_children, oom_kills;
};

/* Record the first failure of the load (later ones are dropped). Async-safe enough: no locks. */
void load_fail(struct load_shared *sh, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Set-up of every task forked by the supervisor, right after fork(): the
 * part of load_child_bind(), then default signal dispositions, an empty
 * signal mask (the supervisor blocks the signals it waits for) and the
 * workers' nice value (the supervisor itself runs below it, so that it
 * always gets the CPU back from its workers).
 * @parent: the pid of the process that forked us, to catch a parent that
 * died before prctl(). Return: 0, -ESRCH when the parent is gone, -ETIME
 * when the deadline has passed already.
 */
int load_child_init(const struct load_shared *sh, pid_t parent);

/*
 * Only the first half of load_child_init(): die with the parent
 * (PR_SET_PDEATHSIG, then a check that the parent is still the one that
 * forked us) and at the deadline (a timer of our own that sends SIGKILL,
 * so no task depends on the supervisor getting the CPU to stop on time).
 * For tasks forked by a load task, which inherit its signal set-up.
 * Return: as load_child_init().
 */
int load_child_bind(const struct load_shared *sh, pid_t parent);

/*
 * Messaging run: a complete hackbench-style run in the calling process
 * (threads or child processes), which is a forked child of the supervisor.
 * Writes cur_ns and adds to cur_bytes. Return: 0 or -errno (and load_fail()).
 */
int load_hackbench_run(const struct load_config *c, struct load_shared *sh);

/* CPU hog: spin forever, adding work units to cpu_loops. Never returns. */
void load_cpu_hog(struct load_shared *sh) __attribute__((noreturn));

/*
 * Memory churn: map @bytes, touch every page, unmap, forever.
 * Return: only on failure, -errno.
 */
int load_memory_churn(uint64_t bytes, struct load_shared *sh);

/* The memory cgroup of the OOM load. */
struct load_cgroup {
	char dir[4096];		/* the cgroup directory we created, "" when none */
	int version;		/* 1 or 2 */
};


/*
 * Where a memory-limited child cgroup can be made: v2 when the unified
 * hierarchy has the memory controller, else the v1 memory hierarchy.
 * Creates "<parent>/rtready-load-<pid>" with @limit_bytes, no swap, and the
 * whole group killed on OOM where the kernel has that.
 * Return: 0 or -errno with a message in @err.
 */
int load_cgroup_create(struct load_cgroup *cg, uint64_t limit_bytes, char *err, size_t errlen);

/* Move the calling process into @cg. Return: 0 or -errno. */
int load_cgroup_enter(const struct load_cgroup *cg);

/* OOM kills counted by the kernel for @cg. Return: 0 or -errno. */
int load_cgroup_oom_kills(const struct load_cgroup *cg, uint64_t *kills);

/* Remove @cg (waits a little for the last task to leave). Return: 0 or -errno. */
int load_cgroup_remove(struct load_cgroup *cg);

/* Make the calling process the first choice of any OOM killer. Best effort. */
void load_oom_prefer_self(void);

/*
 * OOM runner: start a child in @cg that allocates until the kernel kills
 * it, count the kill, start the next one; forever.
 * Return: only on failure, -errno.
 */
int load_oom_loop(const struct load_config *c, const struct load_cgroup *cg,
		  struct load_shared *sh);

#endif
