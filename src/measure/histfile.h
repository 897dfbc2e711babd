/* SPDX-License-Identifier: MIT */
/*
 * cyclictest's histogram file (--histfile), so that the plot and parse
 * scripts written for cyclictest read rtready's results unchanged. Layout,
 * as rt-tests 2.x writes it:
 *
 *   # Histogram
 *   000000 000000	000012          one row per microsecond: the row's
 *   000001 000417	000398          index, a space, then one count per
 *   ...                            thread separated by tabs
 *   # Total: 000009963 000009970   in-range samples per thread (%09)
 *   # Min Latencies: 00003 00004   then min, avg, max in us (%05)
 *   # Avg Latencies: 00006 00006
 *   # Max Latencies: 00418 00153
 *   # Histogram Overflows: 00002 00000
 *   # Histogram Overflow at cycle number:
 *   # Thread 0: 00173 04412        the cycles that overflowed, with
 *   # Thread 1:                    " # 00012 others" past the kept ones
 *   (an empty line)
 *
 * rtready's buckets are 1 us by default. Narrower buckets that divide a
 * microsecond are summed into microsecond rows; wider ones that are whole
 * microseconds give one row per bucket, indexed by its lower edge.
 */
#ifndef RTR_MEASURE_HISTFILE_H
#define RTR_MEASURE_HISTFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/latency.h"

/* Whether buckets of @bucket_ns can be written as microsecond rows. */
bool histfile_bucket_ok(uint64_t bucket_ns);

/*
 * How to write it, as cyclictest's options change it.
 * @sum_column: -H (--histofall): with more than one thread, one more column
 *              summing the threads in every row, and in the Total, Max and
 *              Overflows lines (not in Min and Avg: cyclictest has none there).
 * @in_ns: -N: the Min, Avg and Max lines in nanoseconds (rows stay in us).
 */
struct histfile_opts {
	bool sum_column;
	bool in_ns;
};

/*
 * histfile_write() - write @r in cyclictest's format to @out (@opt NULL:
 * the plain -h layout).
 * Return: 0, -EINVAL when the bucket width cannot be written (see
 *         histfile_bucket_ok()), -EIO on a write error.
 */
int histfile_write(FILE *out, const struct latency_result *r, const struct histfile_opts *opt);

#endif
