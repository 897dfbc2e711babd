/* SPDX-License-Identifier: MIT */
/*
 * Per-thread kernel counters through perf_event_open(2), without the perf
 * tool: page faults, context switches and CPU migrations (software events,
 * available in VMs too) and cache misses (a hardware event, often missing in
 * a VM). Counters that the kernel refuses are marked unavailable with the
 * reason; the others still count.
 */
#ifndef RTR_INSPECT_PERF_H
#define RTR_INSPECT_PERF_H

#include <stdbool.h>
#include <stdint.h>

enum perf_counter {
	PERF_PAGE_FAULTS,
	PERF_CONTEXT_SWITCHES,
	PERF_CPU_MIGRATIONS,
	PERF_CACHE_MISSES,
	PERF_NCOUNTERS,
};

struct perf_thread {
	int tid;
	int fd[PERF_NCOUNTERS];		/* -1 when not open */
	int err[PERF_NCOUNTERS];	/* 0, or why it could not be opened */
	uint64_t value[PERF_NCOUNTERS];
	bool read_ok[PERF_NCOUNTERS];
};

/* The JSON / text name of a counter ("page-faults", ...). */
const char *perf_counter_name(enum perf_counter c);

/* Open every counter for thread @tid (counting starts now). */
void perf_thread_open(struct perf_thread *p, int tid);

/* Read the counts (fills value/read_ok) and close the descriptors. */
void perf_thread_close(struct perf_thread *p);

/*
 * Explain a perf_event_open error for a user: names the
 * /proc/sys/kernel/perf_event_paranoid value (@paranoid, or INT32_MIN when
 * unknown) and CAP_PERFMON.
 */
void perf_explain(int err, int paranoid, char *buf, unsigned long len);

/*
 * As perf_explain() for counter @c: a hardware counter the kernel does not
 * offer is explained as such (a virtual machine without a virtual PMU).
 */
void perf_counter_explain(enum perf_counter c, int err, int paranoid, char *buf,
			  unsigned long len);

/*
 * Of the @n threads of @p, how many could not count @c, and the first
 * error met (0 when none). Return: that number.
 */
size_t perf_counter_gaps(const struct perf_thread *p, size_t n, enum perf_counter c, int *err);

#endif
