// SPDX-License-Identifier: MIT
/*
 * Fixed-bucket latency histogram with exact overflow tracking. The add path
 * is branch-light and allocation-free because it runs inside the measuring
 * loop of a realtime thread.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtready/hist.h"
#include "internal.h"

#define MAX_BUCKETS (1ULL << 32)

/*
 * calloc() of a large array maps zero pages that are only faulted in at the
 * first store, which would be in rtr_hist_add() on the realtime path. Write
 * every page now (volatile: a store of zero into calloc'ed memory may
 * otherwise be dropped as redundant).
 */
static void prefault(void *mem, size_t bytes)
{
	volatile uint64_t *p = mem;
	size_t step = 4096 / sizeof(*p);

	for (size_t i = 0; i < bytes / sizeof(*p); i += step)
		p[i] = 0;
}

RTR_EXPORT int rtr_hist_init(struct rtr_hist *h, uint64_t bucket_ns, uint64_t range_ns,
			     size_t outliers_cap)
{
	uint64_t n;

	memset(h, 0, sizeof(*h));
	if (bucket_ns == 0 || range_ns == 0)
		return -EINVAL;
	n = range_ns / bucket_ns + (range_ns % bucket_ns != 0);
	if (n > MAX_BUCKETS || outliers_cap > (1u << 20))
		return -EINVAL;
	h->counts = calloc((size_t)n, sizeof(*h->counts));
	if (!h->counts)
		return -ENOMEM;
	if (outliers_cap) {
		h->outliers = calloc(outliers_cap, sizeof(*h->outliers));
		if (!h->outliers) {
			free(h->counts);
			h->counts = NULL;
			return -ENOMEM;
		}
	}
	prefault(h->counts, (size_t)n * sizeof(*h->counts));
	if (outliers_cap)
		prefault(h->outliers, outliers_cap * sizeof(*h->outliers));
	h->bucket_ns = bucket_ns;
	h->nbuckets = (size_t)n;
	h->outliers_cap = outliers_cap;
	h->min_ns = UINT64_MAX;
	return 0;
}

RTR_EXPORT void rtr_hist_free(struct rtr_hist *h)
{
	if (!h)
		return;
	free(h->counts);
	free(h->outliers);
	memset(h, 0, sizeof(*h));
}

RTR_EXPORT void rtr_hist_reset(struct rtr_hist *h)
{
	if (h->counts)
		memset(h->counts, 0, h->nbuckets * sizeof(*h->counts));
	h->samples = h->overflows = h->max_ns = h->sum_ns = 0;
	h->min_ns = UINT64_MAX;
	h->n_outliers = 0;
}

RTR_EXPORT uint64_t rtr_hist_range_ns(const struct rtr_hist *h)
{
	return (uint64_t)h->nbuckets * h->bucket_ns;
}

/* Keep the outliers_cap largest overflowing values: replace the smallest. */
static void keep_outlier(struct rtr_hist *h, uint64_t v)
{
	size_t lo = 0;

	if (h->n_outliers < h->outliers_cap) {
		h->outliers[h->n_outliers++] = v;
		return;
	}
	if (h->outliers_cap == 0)
		return;
	for (size_t i = 1; i < h->n_outliers; i++)
		if (h->outliers[i] < h->outliers[lo])
			lo = i;
	if (v > h->outliers[lo])
		h->outliers[lo] = v;
}

RTR_EXPORT void rtr_hist_add(struct rtr_hist *h, uint64_t v)
{
	uint64_t b = v / h->bucket_ns;

	h->samples++;
	if (__builtin_add_overflow(h->sum_ns, v, &h->sum_ns))
		h->sum_ns = UINT64_MAX;
	if (v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
	if (b < h->nbuckets) {
		h->counts[b]++;
	} else {
		h->overflows++;
		keep_outlier(h, v);
	}
}

RTR_EXPORT int rtr_hist_merge(struct rtr_hist *dst, const struct rtr_hist *src)
{
	if (dst->bucket_ns != src->bucket_ns)
		return -EINVAL;
	for (size_t i = 0; i < src->nbuckets; i++) {
		if (!src->counts[i])
			continue;
		if (i < dst->nbuckets) {
			dst->counts[i] += src->counts[i];
		} else {
			dst->overflows += src->counts[i];
			/* Exact values are lost in a wider bucket: keep its lower edge. */
			keep_outlier(dst, (uint64_t)i * src->bucket_ns);
		}
	}
	dst->overflows += src->overflows;
	for (size_t i = 0; i < src->n_outliers; i++)
		keep_outlier(dst, src->outliers[i]);
	dst->samples += src->samples;
	if (__builtin_add_overflow(dst->sum_ns, src->sum_ns, &dst->sum_ns))
		dst->sum_ns = UINT64_MAX;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	return 0;
}

RTR_EXPORT uint64_t rtr_hist_avg_ns(const struct rtr_hist *h)
{
	return h->samples ? h->sum_ns / h->samples : 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static uint64_t clamp(const struct rtr_hist *h, uint64_t v)
{
	if (v < h->min_ns)
		return h->min_ns;
	if (v > h->max_ns)
		return h->max_ns;
	return v;
}

RTR_EXPORT uint64_t rtr_hist_percentile(const struct rtr_hist *h, double q)
{
	uint64_t rank, seen = 0, from_top, v;
	uint64_t *top;

	if (h->samples == 0 || !(q > 0.0))
		return 0;
	if (q >= 1.0)
		return h->max_ns;
	rank = (uint64_t)ceil(q * (double)h->samples);
	if (rank == 0)
		rank = 1;
	for (size_t i = 0; i < h->nbuckets; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			return clamp(h, (uint64_t)(i + 1) * h->bucket_ns - 1);
	}
	/* In the overflow region: rank counted from the largest sample down. */
	from_top = h->samples - rank;	/* 0 is the largest */
	if (from_top >= h->n_outliers)
		return clamp(h, rtr_hist_range_ns(h));
	/* Not on the realtime path: a sorted copy is fine here. */
	top = malloc(h->n_outliers * sizeof(*top));
	if (!top)
		return clamp(h, rtr_hist_range_ns(h));
	memcpy(top, h->outliers, h->n_outliers * sizeof(*top));
	qsort(top, h->n_outliers, sizeof(*top), cmp_desc);
	v = top[from_top];
	free(top);
	return v;
}
