/* SPDX-License-Identifier: MIT */
/*
 * struct timespec arithmetic. Results are normalised (0 <= tv_nsec < 1e9)
 * and saturate at the limits of time_t / int64_t instead of wrapping, so a
 * bad interval can never turn a deadline into the distant past. Inline:
 * these run in realtime loops.
 */
#ifndef RTREADY_TIMESPEC_H
#define RTREADY_TIMESPEC_H

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTR_NSEC_PER_SEC 1000000000LL
#define RTR_NSEC_PER_USEC 1000LL
#define RTR_NSEC_PER_MSEC 1000000LL

#define RTR_TIME_T_MAX ((time_t)(((uint64_t)1 << (sizeof(time_t) * 8 - 1)) - 1))
#define RTR_TIME_T_MIN (-RTR_TIME_T_MAX - 1)

/**
 * rtr_ts_normalize() - bring tv_nsec into [0, 1e9), carrying into tv_sec.
 * Return: the normalised value (saturated if tv_sec would overflow).
 */
static inline struct timespec rtr_ts_normalize(struct timespec t)
{
	long long carry = t.tv_nsec / RTR_NSEC_PER_SEC;
	long long ns = t.tv_nsec % RTR_NSEC_PER_SEC;
	time_t sec;

	if (ns < 0) {
		ns += RTR_NSEC_PER_SEC;
		carry -= 1;
	}
	if (__builtin_add_overflow(t.tv_sec, (time_t)carry, &sec)) {
		t.tv_sec = carry > 0 ? RTR_TIME_T_MAX : RTR_TIME_T_MIN;
		t.tv_nsec = carry > 0 ? RTR_NSEC_PER_SEC - 1 : 0;
		return t;
	}
	t.tv_sec = sec;
	t.tv_nsec = (long)ns;
	return t;
}

/**
 * rtr_ts_add_ns() - @t + @ns (which may be negative), saturating.
 */
static inline struct timespec rtr_ts_add_ns(struct timespec t, int64_t ns)
{
	struct timespec r;
	time_t sec;

	t = rtr_ts_normalize(t);
	r.tv_sec = (time_t)(ns / RTR_NSEC_PER_SEC);
	r.tv_nsec = (long)(ns % RTR_NSEC_PER_SEC) + t.tv_nsec;
	if (__builtin_add_overflow(t.tv_sec, r.tv_sec, &sec)) {
		r.tv_sec = ns > 0 ? RTR_TIME_T_MAX : RTR_TIME_T_MIN;
		r.tv_nsec = ns > 0 ? RTR_NSEC_PER_SEC - 1 : 0;
		return r;
	}
	r.tv_sec = sec;
	return rtr_ts_normalize(r);
}

/**
 * rtr_ts_to_ns() - @t in nanoseconds, saturated to INT64_MIN..INT64_MAX.
 */
static inline int64_t rtr_ts_to_ns(struct timespec t)
{
	int64_t ns;

	t = rtr_ts_normalize(t);
	if (__builtin_mul_overflow((int64_t)t.tv_sec, RTR_NSEC_PER_SEC, &ns) ||
	    __builtin_add_overflow(ns, (int64_t)t.tv_nsec, &ns))
		return t.tv_sec < 0 ? INT64_MIN : INT64_MAX;
	return ns;
}

/**
 * rtr_ts_from_ns() - a normalised timespec of @ns nanoseconds.
 */
static inline struct timespec rtr_ts_from_ns(int64_t ns)
{
	struct timespec t = { 0, 0 };

	return rtr_ts_add_ns(t, ns);
}

/**
 * rtr_ts_diff_ns() - @a - @b in nanoseconds, saturated.
 */
static inline int64_t rtr_ts_diff_ns(struct timespec a, struct timespec b)
{
	int64_t sec, ns;

	a = rtr_ts_normalize(a);
	b = rtr_ts_normalize(b);
	if (__builtin_sub_overflow((int64_t)a.tv_sec, (int64_t)b.tv_sec, &sec) ||
	    __builtin_mul_overflow(sec, RTR_NSEC_PER_SEC, &ns) ||
	    __builtin_add_overflow(ns, (int64_t)(a.tv_nsec - b.tv_nsec), &ns))
		return a.tv_sec < b.tv_sec ? INT64_MIN : INT64_MAX;
	return ns;
}

/**
 * rtr_ts_cmp() - Return: <0, 0 or >0 as @a is before, equal to or after @b.
 */
static inline int rtr_ts_cmp(struct timespec a, struct timespec b)
{
	a = rtr_ts_normalize(a);
	b = rtr_ts_normalize(b);
	if (a.tv_sec != b.tv_sec)
		return a.tv_sec < b.tv_sec ? -1 : 1;
	if (a.tv_nsec != b.tv_nsec)
		return a.tv_nsec < b.tv_nsec ? -1 : 1;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif
