/* SPDX-License-Identifier: MIT */
/*
 * The overview of all CPUs of one result, for the HTML report (html.c):
 * what a reader of a 256-CPU report must see in the first screens to know
 * which CPUs are bad and how.
 *
 * - An exceedance plot per run (idle, under load) with one curve per CPU:
 *   RT and housekeeping CPUs in two muted colours, the worst CPUs (highest
 *   maximum) in strong colours and labelled.
 * - A heat map: one column per CPU, rows p50 / p99 / max of each run, a
 *   logarithmic colour scale shared by all rows, so an outlier among
 *   hundreds stands out; runs over the limit framed; every column a link to
 *   that CPU's plots.
 * - A table of every CPU (samples, p50, p99, p99.9, max, past the range, per
 *   run), written worst first so it reads right with scripts off; the page's
 *   script makes its headings sort buttons.
 *
 * Every CPU links to the element "cpu-N" that the page gives its plots.
 * The exceedance plots use the axes the page draws once (exceed.h).
 */
#ifndef RTR_RENDER_OVERVIEW_H
#define RTR_RENDER_OVERVIEW_H

#include <stdio.h>

#include "render/exceed.h"
#include "report/result.h"

/*
 * Write the overview of @r: exceedance plots on @scale (axes
 * "#@axes_id"), heat map and table. Return: 0 or -ENOMEM.
 */
int overview_write(FILE *out, const struct result *r, const struct exceed_scale *scale,
		   const char *axes_id);

/*
 * One line for the verdict: the worst CPUs of @r (at most five, worst
 * first), each a link to its plots, and a link to the overview. Nothing for
 * a result of fewer than two CPUs. Return: 0 or -ENOMEM.
 */
int overview_write_worst(FILE *out, const struct result *r);

#endif
