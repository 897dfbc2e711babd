/* SPDX-License-Identifier: MIT */
/*
 * The good program as a SCHED_DEADLINE job loop (issue 29): the RT thread
 * makes itself DEADLINE (200 us every 1 ms, through the raw sched_setattr
 * system call, as most programs do), then each job does its work and ends
 * with sched_yield(), which sleeps until the next period. The includer
 * says what a job does: pass_deadline.c the clean work, fail_deadline.c
 * work that allocates.
 */
#ifndef RTR_TESTS_PRELOAD_DEADLINE_H
#define RTR_TESTS_PRELOAD_DEADLINE_H

#include <stdint.h>
#include <sys/syscall.h>

#include "rtprog.h"

/* The kernel's struct sched_attr (include/uapi/linux/sched/types.h), first version. */
struct dl_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static void *dl_loop(void *arg)
{
	struct rt_job *job = arg;
	struct dl_attr a = { .size = sizeof(a), .sched_policy = 6 /* SCHED_DEADLINE */,
			     .sched_runtime = 200000, .sched_deadline = PERIOD_NS,
			     .sched_period = PERIOD_NS };

	if (job->prepare)
		job->prepare(job);
	if (syscall(SYS_sched_setattr, 0, &a, 0) != 0)
		die("sched_setattr SCHED_DEADLINE", errno);
	sched_yield();	/* start at a period's beginning */
	for (int p = 0; p < job->periods; p++) {
		job->work(job, p);
		sched_yield();
	}
	return NULL;
}

/* Run @job's loop as SCHED_DEADLINE on a thread of its own (created OTHER). */
static inline int run_deadline(struct rt_job *job)
{
	pthread_attr_t a;
	pthread_t t;
	int rc;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 256 * 1024);
	rc = pthread_create(&t, &a, dl_loop, job);
	pthread_attr_destroy(&a);
	if (rc)
		die("pthread_create", rc);
	pthread_join(t, NULL);
	return 0;
}

#endif
