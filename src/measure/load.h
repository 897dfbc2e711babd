/* SPDX-License-Identifier: MIT */
/*
 * Load generation for `rtready load`, `rtready latency --load` and
 * `rtready verify`: hackbench-style messaging (groups of sender and
 * receiver tasks over socket pairs or pipes, as processes or threads), CPU
 * hogs, memory churn (allocate, touch, free: page faults and reclaim) and
 * repeated out-of-memory kills of a child confined in its own memory cgroup.
 *
 * load_start() forks one supervisor process and returns at once; all the
 * load lives below that process, at SCHED_OTHER (with the requested nice
 * value and CPUs) whatever the caller's policy, so a realtime caller never
 * lends its priority to the load. The supervisor runs at a lower nice
 * value than its workers when it may (nice -20 with CAP_SYS_NICE), so that
 * a CPU full of hogs cannot keep it from stopping them. Figures are kept in
 * a shared mapping that load_stats() reads at any time. load_stop() ends
 * everything: every task reaped, the OOM cgroup removed. If the caller
 * dies, the supervisor is told by PR_SET_PDEATHSIG and cleans up the same
 * way; every task dies with its parent, and at the deadline by a timer of
 * its own, whatever happens to the supervisor.
 *
 * Call load_start() from a thread that lives as long as the load (the
 * parent-death signal follows the thread that forked). Nothing here touches
 * the caller's signal handlers or mask.
 */
#ifndef RTR_MEASURE_LOAD_H
#define RTR_MEASURE_LOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"

/* hackbench's defaults. */
#define LOAD_DEFAULT_GROUPS 10
#define LOAD_DEFAULT_FDS 20
#define LOAD_DEFAULT_LOOPS 100
#define LOAD_DEFAULT_DATASIZE 100
/* Memory limit of the OOM victim's cgroup: small, so each cycle is quick. */
#define LOAD_DEFAULT_OOM_LIMIT (32u << 20)

/* Bounds that keep a typo from exhausting the machine. */
#define LOAD_MAX_GROUPS 1000
#define LOAD_MAX_FDS 256
#define LOAD_MAX_DATASIZE (1u << 20)
#define LOAD_MAX_CPU_HOGS 4096

/*
 * Bounds per CPU of the load (its --cpus, else the CPUs rtready may run
 * on). Past them more tasks add nothing a realtime thread would feel (it
 * preempts them all the same), but every task has to be scheduled once
 * to start and once to die, so start-up and stopping stretch from
 * milliseconds to minutes. Messaging gets hackbench's default run (10
 * groups of 20 + 20 tasks) per CPU, and that run on any machine.
 */
#define LOAD_CPU_HOGS_PER_CPU 32
#define LOAD_MSG_TASKS_PER_CPU 400

struct load_config {
	/* Messaging load; off when groups is 0. */
	unsigned int groups;	/* groups of fds senders + fds receivers */
	unsigned int fds;	/* senders (and receivers) per group */
	uint64_t loops;		/* messages each sender sends to each receiver */
	uint32_t datasize;	/* bytes per message */
	bool pipes;		/* pipes instead of AF_UNIX stream socket pairs */
	bool threads;		/* threads instead of processes */
	uint64_t runs;		/* messaging runs; 0: restart until the load ends */

	unsigned int cpu_hogs;	/* busy-looping tasks; 0: none */
	uint64_t memory_bytes;	/* size of each allocate-touch-free cycle; 0: none */
	bool oom;		/* repeated OOM kills of a confined child */
	uint64_t oom_limit_bytes; /* memory limit of its cgroup */

	/*
	 * How long the load runs: > 0 that long; 0 until load_stop(), or until
	 * the messaging runs are done when @runs > 0 and nothing else is asked.
	 */
	int64_t duration_ns;
	int nice;		/* nice value of every load task (-20..19); 0 keeps the caller's */
	struct rtr_cpuset cpus;	/* CPUs of the load; empty: the caller's affinity */
};

/* What the load did so far (or in total once it has ended). */
struct load_stats {
	bool running;		/* the supervisor has not ended yet */
	int error;		/* 0, or -errno of what made the load fail */
	char error_text[160];	/* what failed, "" when error is 0 */
	int64_t elapsed_ns;	/* since load_start() (until the end) */

	uint64_t runs;		/* completed messaging runs */
	uint64_t messages;	/* messages delivered in completed runs */
	int64_t run_ns;		/* summed time of the completed runs (hackbench's "Time") */
	int64_t last_run_ns;	/* time of the last completed run */

	uint64_t cpu_loops;	/* work units done by the CPU hogs (1 unit ~ 1M iterations) */
	uint64_t memory_cycles;	/* allocate-touch-free cycles done */
	uint64_t memory_pages;	/* pages touched (each a page fault) */
	uint64_t oom_children;	/* OOM victims started */
	uint64_t oom_kills;	/* OOM kills counted by the cgroup (memory.events) */
};

struct load;

/* Fill @c with hackbench's defaults (10 groups, 20 fds, 100 loops, 100 bytes, one run). */
void load_config_init(struct load_config *c);
void load_config_free(struct load_config *c);

/* Messages of one messaging run: groups x fds senders x fds receivers x loops. */
uint64_t load_messages_per_run(const struct load_config *c);

/*
 * The CPUs the load of @c runs on: those of @c->cpus that the caller may
 * use, else all the caller may use (at least 1).
 */
unsigned int load_cpu_count(const struct load_config *c);

/*
 * Validate @c, the task counts against load_cpu_count() included.
 * Return: 0, or -EINVAL with a one-line reason in @err.
 */
int load_config_check(const struct load_config *c, char *err, size_t errlen);

/*
 * Start the load described by @c (copied) and return its handle in @out.
 * Return: 0 or -errno (-EINVAL for a bad config, -ENOMEM, fork errors).
 * Problems found inside the supervisor later (no memory cgroup for --oom,
 * too many open files) end the load and show in load_stats().error.
 */
int load_start(const struct load_config *c, struct load **out)
	__attribute__((warn_unused_result));

/*
 * Wait up to @timeout_ns (< 0: no limit) for the load to end by itself.
 * Returns early with 0 when a signal interrupts the wait.
 * Return: 1 when it has ended, 0 when it is still running, -errno.
 */
int load_wait(struct load *l, int64_t timeout_ns);

/*
 * Stop the load: the supervisor kills and reaps every task, removes its
 * cgroup and exits; this waits for it (idempotent, also after it ended).
 * Return: 0, or the load's error (as in load_stats()).
 */
int load_stop(struct load *l);

/* Copy the current figures into @st. Safe at any time until load_free(). */
void load_stats(const struct load *l, struct load_stats *st);

/* Stop the load if needed and release @l (NULL is a no-op). */
void load_free(struct load *l);

/*
 * `rtready load`: start the load of @c, wait until it ends or *@stop is
 * set (checked every 100 ms too, as a signal may land just before a wait),
 * stop it and copy its figures into @st; *@interrupted tells a stop.
 * Return: 0, or -errno when it could not start.
 */
int load_run(const struct load_config *c, const volatile sig_atomic_t *stop,
	     struct load_stats *st, bool *interrupted) __attribute__((warn_unused_result));

#endif
