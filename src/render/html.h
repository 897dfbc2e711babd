/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (inline CSS and SVG and one
 * inline script that sorts the CPU table, allowed by its hash; nothing
 * fetched; a Content-Security-Policy says so to the browser; the page reads
 * the same with scripts off). In order: the verdict; the checks that failed
 * or warned (evidence, reason and fix), the others folded; the overview of
 * every CPU (overview.h); per-CPU plots folded in <details>, each a
 * histogram on a logarithmic count scale with the idle and loaded runs
 * overlaid and its exceedance plot (log-log; exceed.h), all on one scale
 * with axes drawn once; the noise runs, availability and cause table per
 * CPU (html_noise.h); the system facts. Several results are shown side
 * by side, in the order given (before/after). It displays struct result
 * and decides nothing.
 */
#ifndef RTR_RENDER_HTML_H
#define RTR_RENDER_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "report/result.h"

/* Write the page for @n results. Return: 0, -ENOMEM or -EIO. */
int html_write(FILE *out, const struct result *const *results, size_t n);

/*
 * One histogram plot as an <svg> element: @idle and/or @load (either may be
 * NULL or without histogram), a dashed line at @limit_ns when > 0.
 * @title names it for screen readers. Exposed for tests.
 */
void html_write_histogram(FILE *out, const struct result_thread *idle,
			  const struct result_thread *load, double limit_ns, const char *title);

#endif
