/* SPDX-License-Identifier: MIT */
/*
 * The exceedance plot of the HTML report: for each run of one CPU, the
 * fraction of wake-ups that were later than x, against x, both axes
 * logarithmic. The histogram beside it has a linear latency axis up to the
 * worst spike, so one 30 ms spike squeezes a 5 us idle distribution into
 * one pixel column; on log-log axes the bulk (microseconds, fractions near
 * 1) and the tail (milliseconds, one in a million) both stay readable, and
 * "how often is it later than 100 us" is read off directly.
 *
 * Drawn from the histogram (each bucket's samples lie within it), the
 * overflows and the exact outliers that latency keeps: where the overflow
 * values are not known exactly the curve is dashed. A <svg class="exceed">
 * element with role="img" and an accessible name (its <title>).
 */
#ifndef RTR_RENDER_EXCEED_H
#define RTR_RENDER_EXCEED_H

#include <stdio.h>

#include "report/result.h"

/* The axes: latency from 10^xlo to 10^xhi ns, fractions from 10^ylo to 1. */
struct exceed_scale {
	double xlo, xhi, ylo;
	bool any;		/* something was covered */
};

#define EXCEED_SCALE_INIT { 0, 0, 0, false }

/* Grow @s to cover thread @t (may be NULL) and a limit line at @limit_ns (0: none). */
void exceed_scale_cover(struct exceed_scale *s, const struct result_thread *t, double limit_ns);

/*
 * One plot as an <svg>: @idle and/or @load (either may be NULL), dashed
 * maximum markers, the limit at @limit_ns when > 0, on the axes of @s (one
 * scale for the page, so plots compare). @title is its accessible name.
 */
void exceed_write(FILE *out, const struct exceed_scale *s, const struct result_thread *idle,
		  const struct result_thread *load, double limit_ns, const char *title);

#endif
