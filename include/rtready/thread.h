/* SPDX-License-Identifier: MIT */
/*
 * Realtime threads: policy, priority, CPU affinity and a prefaulted stack,
 * set through explicit-scheduling attributes so that the thread starts with
 * them. Per-thread calls only (pthread_setschedparam, sched_setattr), never
 * sched_setscheduler(), which is an ENOSYS stub on musl.
 */
#ifndef RTREADY_THREAD_H
#define RTREADY_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtready/cpuset.h"

#ifdef __cplusplus
extern "C" {
#endif

enum rtr_policy {
	RTR_SCHED_OTHER,
	RTR_SCHED_FIFO,
	RTR_SCHED_RR,
	RTR_SCHED_DEADLINE,
	RTR_SCHED_BATCH,
	RTR_SCHED_IDLE,
};

/* The checklist: never 99, kernel threads that must win run there. */
#define RTR_PRIO_MAX_SAFE 98

/**
 * struct rtr_thread_attr - how to run a thread. Zero-initialise, then set.
 * @policy: scheduling policy.
 * @priority: 1..98 for FIFO/RR (99 needs @allow_prio99); ignored otherwise.
 * @nice: for OTHER/BATCH.
 * @allow_prio99: the caller insists on priority 99.
 * @cpus: allowed CPUs, or NULL to inherit.
 * @stack_bytes: stack size (0: 256 KiB); rounded up to a page.
 * @prefault_stack: touch the whole stack before the thread body runs.
 * @dl_runtime_ns, @dl_deadline_ns, @dl_period_ns: for SCHED_DEADLINE.
 * @name: thread name (at most 15 characters are kept), or NULL.
 */
struct rtr_thread_attr {
	enum rtr_policy policy;
	int priority;
	int nice;
	bool allow_prio99;
	const struct rtr_cpuset *cpus;
	size_t stack_bytes;
	bool prefault_stack;
	uint64_t dl_runtime_ns;
	uint64_t dl_deadline_ns;
	uint64_t dl_period_ns;
	const char *name;
};

/**
 * rtr_thread_attr_set_deadline() - make @attr a SCHED_DEADLINE thread that
 * may run @runtime_ns in every @period_ns, each job done within @deadline_ns
 * of its period's start. @deadline_ns 0 means @period_ns; @period_ns 0 means
 * @deadline_ns. The thread ends each job with sched_yield(), which waits for
 * its next period. The kernel admits the thread only when runtime/period
 * fits in the free deadline bandwidth of its root domain (the
 * sched_rt_runtime_us/sched_rt_period_us share of each CPU): creation then
 * fails with -EBUSY and rtr_last_error() gives the figures. While
 * admission control is on, a DEADLINE thread's @attr->cpus (NULL: inherit)
 * must span its whole root domain, e.g. all the isolcpus CPUs, or the
 * kernel refuses it with -EPERM. Works on glibc and musl (the raw system
 * call).
 * Return: 0, or -EINVAL unless 1024 ns <= runtime <= deadline <= period.
 */
int rtr_thread_attr_set_deadline(struct rtr_thread_attr *attr, uint64_t runtime_ns,
				 uint64_t deadline_ns, uint64_t period_ns);

/**
 * rtr_thread_create() - start @fn(@arg) in a new thread set up as @attr says.
 * The thread is scheduled and pinned before @fn runs (explicit-scheduling
 * attributes where the policy allows, otherwise set by the thread itself
 * before calling @fn); creation fails if any setting is refused.
 * Return: 0; -EINVAL (bad attribute, priority 99 without @allow_prio99);
 *         -EPERM with rtr_last_error() naming CAP_SYS_NICE / RLIMIT_RTPRIO;
 *         -EBUSY: SCHED_DEADLINE admission refused (the bandwidth asked and
 *         the limit in rtr_last_error());
 *         other -errno.
 */
int rtr_thread_create(pthread_t *thread, const struct rtr_thread_attr *attr,
		      void *(*fn)(void *), void *arg);

/**
 * rtr_thread_apply() - apply @attr to the calling thread.
 * Return: as rtr_thread_create().
 */
int rtr_thread_apply(const struct rtr_thread_attr *attr);

/**
 * rtr_policy_from_name() - "fifo", "rr", "other", "deadline", "batch",
 * "idle" (case-insensitive, also "SCHED_FIFO").
 * Return: 0 or -EINVAL.
 */
int rtr_policy_from_name(const char *name, enum rtr_policy *policy);

/** rtr_policy_name() - Return: "FIFO", "RR", "OTHER", … */
const char *rtr_policy_name(enum rtr_policy policy);

/** rtr_policy_to_kernel() - Return: SCHED_FIFO etc., -1 if unknown. */
int rtr_policy_to_kernel(enum rtr_policy policy);

/** rtr_policy_from_kernel() - Return: 0 or -EINVAL for an unknown policy. */
int rtr_policy_from_kernel(int kernel_policy, enum rtr_policy *policy);

#ifdef __cplusplus
}
#endif

#endif
