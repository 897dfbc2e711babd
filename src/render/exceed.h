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

/*
 * The same for a page that draws many: with @axes_id, the plot has no
 * <style> of its own (the page's style sheet styles svg.exceed) and its
 * axes are <use href="#@axes_id"/>, drawn once by exceed_write_axes() on the
 * same scale; curves are drawn to the pixel. NULL @axes_id: exceed_write().
 */
void exceed_write_plot(FILE *out, const struct exceed_scale *s, const struct result_thread *idle,
		       const struct result_thread *load, double limit_ns, const char *title,
		       const char *axes_id);

/* The frame, grid and labels of a plot on @s, as SVG elements (no <svg> around them). */
void exceed_write_axes(FILE *out, const struct exceed_scale *s);

/* True when @t (may be NULL) has a curve to draw. */
bool exceed_has_curve(const struct result_thread *t);

/*
 * One curve of @t as a <path class="@cls">, on @s, points closer than
 * @min_px pixels merged (0.4: fine; 1 or more: coarse, whole pixels, for
 * plots of hundreds of curves). Nothing when @t has no curve.
 */
void exceed_curve(FILE *out, const struct exceed_scale *s, const struct result_thread *t,
		  const char *cls, double min_px);

/* The pixel position of latency @ns and fraction @frac on @s (for labels). */
void exceed_point(const struct exceed_scale *s, double ns, double frac, double *x, double *y);

/* The fraction at a curve's last step (one sample in all of @t's), 0 without a curve. */
double exceed_end_fraction(const struct result_thread *t);

/*
 * The line in the middle of a plot of @idle and @load (either NULL) that
 * has nothing to draw: not measured, or no histogram in the result.
 */
void exceed_write_empty(FILE *out, const struct result_thread *idle,
			const struct result_thread *load);

/* The size of every exceedance plot (the viewBox), and its plot area. */
enum { EXCEED_W = 640, EXCEED_H = 290, EXCEED_ML = 60, EXCEED_MR = 16, EXCEED_MT = 26,
       EXCEED_MB = 44 };

#endif
