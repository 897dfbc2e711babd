/* SPDX-License-Identifier: MIT */
/*
 * The time on a clock in nanoseconds: the one reader the modules share
 * (the measuring loops read their clocks themselves, inline).
 */
#ifndef RTR_UTIL_CLOCK_H
#define RTR_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* clock_ns() - the time on @clk; the clocks rtready reads cannot fail. */
static inline int64_t clock_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* mono_ns() - CLOCK_MONOTONIC now. */
static inline int64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
