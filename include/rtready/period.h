/* SPDX-License-Identifier: MIT */
/*
 * The periodic loop of the checklist: read CLOCK_MONOTONIC once, then sleep
 * to absolute deadlines advanced by the period, so that no error ever
 * accumulates. Each wake-up returns how late it was; missed periods are
 * counted as overruns, and the loop catches up without bursts.
 */
#ifndef RTREADY_PERIOD_H
#define RTREADY_PERIOD_H

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rtr_period {
	struct timespec next;	/* the next absolute deadline */
	int64_t period_ns;
	uint64_t cycles;	/* completed waits */
	uint64_t overruns;	/* periods skipped because a cycle ran late */
};

/**
 * rtr_period_init() - start a period of @period_ns from now.
 * Return: 0, -EINVAL for a period <= 0, -errno of clock_gettime.
 */
int rtr_period_init(struct rtr_period *p, int64_t period_ns);

/**
 * rtr_period_wait() - sleep until the next deadline (absolute
 * clock_nanosleep on CLOCK_MONOTONIC, resumed after EINTR), then advance
 * it by one period. If the caller is already past the following deadline,
 * the missed periods are counted in @p->overruns and skipped.
 * @latency_ns: if not NULL, receives how late the wake-up was.
 * No allocation; system calls: the sleep and one clock read.
 * Return: 0 or -errno.
 */
int rtr_period_wait(struct rtr_period *p, int64_t *latency_ns);

#ifdef __cplusplus
}
#endif

#endif
