/* SPDX-License-Identifier: MIT */
/*
 * Latency histograms with fixed-width buckets. Nothing is ever dropped: a
 * sample past the range counts as an overflow, and the largest overflowing
 * values are kept exactly in a bounded list. Memory is allocated once, in
 * rtr_hist_init(); rtr_hist_add() never allocates, so it is safe in a
 * realtime loop. Invariant: sum(counts) + overflows == samples.
 */
#ifndef RTREADY_HIST_H
#define RTREADY_HIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rtr_hist {
	uint64_t bucket_ns;	/* width of one bucket */
	size_t nbuckets;	/* bucket i holds [i*bucket_ns, (i+1)*bucket_ns) */
	uint64_t *counts;
	uint64_t samples;
	uint64_t overflows;	/* samples >= nbuckets * bucket_ns */
	uint64_t min_ns;	/* UINT64_MAX while empty */
	uint64_t max_ns;
	uint64_t sum_ns;	/* saturates at UINT64_MAX */
	size_t outliers_cap;	/* how many overflowing values are kept exactly */
	size_t n_outliers;
	uint64_t *outliers;	/* the largest overflowing values, unordered */
};

/**
 * rtr_hist_init() - allocate a histogram.
 * @h: the histogram to set up.
 * @bucket_ns: bucket width, > 0.
 * @range_ns: values from 0 to @range_ns - 1 fall in buckets; rounded up to a
 *            whole bucket; at most 2^32 buckets.
 * @outliers_cap: how many of the largest overflowing values to keep (0: none).
 * Return: 0, -EINVAL, -ENOMEM.
 */
int rtr_hist_init(struct rtr_hist *h, uint64_t bucket_ns, uint64_t range_ns,
		  size_t outliers_cap);

/** rtr_hist_free() - release @h's memory (NULL or a zeroed struct: no-op). */
void rtr_hist_free(struct rtr_hist *h);

/** rtr_hist_reset() - forget every sample, keep the configuration. */
void rtr_hist_reset(struct rtr_hist *h);

/**
 * rtr_hist_add() - count one sample. No allocation, no system call.
 */
void rtr_hist_add(struct rtr_hist *h, uint64_t value_ns);

/**
 * rtr_hist_merge() - add every sample of @src to @dst.
 * Return: 0, or -EINVAL when the bucket widths differ. @src may cover a
 *         wider range: its samples past @dst's range become overflows of
 *         @dst (exact values only as far as @src kept them).
 */
int rtr_hist_merge(struct rtr_hist *dst, const struct rtr_hist *src);

/**
 * rtr_hist_avg_ns() - Return: the mean, 0 when empty.
 */
uint64_t rtr_hist_avg_ns(const struct rtr_hist *h);

/**
 * rtr_hist_percentile() - the value at quantile @q (0 < q <= 1, e.g. 0.999).
 *
 * The smallest value v such that at least ceil(q * samples) samples are
 * <= v, reported as the upper edge of v's bucket (clamped to min and max,
 * so p100 == max). In the overflow region the kept outliers give the
 * exact value; past them, the range end is returned as a lower bound.
 * Return: the value in ns, 0 when empty.
 */
uint64_t rtr_hist_percentile(const struct rtr_hist *h, double q);

/**
 * rtr_hist_range_ns() - Return: the end of the bucketed range.
 */
uint64_t rtr_hist_range_ns(const struct rtr_hist *h);

#ifdef __cplusplus
}
#endif

#endif
