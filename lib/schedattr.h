/* SPDX-License-Identifier: MIT */
/*
 * The kernel's struct sched_attr (include/uapi/linux/sched/types.h, the
 * first version, 48 bytes) and the two system calls on it, internal to
 * librtready and shared with the tool (src/probe/dlbw.c reads a thread's
 * DEADLINE parameters, src/run/exec.c sets the program's policy between
 * fork and exec): glibc before 2.41 and musl have no wrapper, and one
 * layout keeps the library and the tool from disagreeing about it.
 */
#ifndef RTR_LIB_SCHEDATTR_H
#define RTR_LIB_SCHEDATTR_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

struct rtr__sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

/* sched_setattr(2) of thread @tid (0: the caller). Return: 0, or -1 with errno. */
static inline int rtr__sched_setattr(int tid, struct rtr__sched_attr *a)
{
	a->size = sizeof(*a);
	return (int)syscall(SYS_sched_setattr, tid, a, 0);
}

/* sched_getattr(2) of thread @tid into @a. Return: 0, or -1 with errno. */
static inline int rtr__sched_getattr(int tid, struct rtr__sched_attr *a)
{
	return (int)syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0);
}

#endif
