/* SPDX-License-Identifier: MIT */
/*
 * Renderers of `rtready latency` results: the live per-CPU lines shown
 * while it runs, the text summary and the JSON object of DESIGN.md. They
 * print what struct latency_result holds and compute nothing.
 */
#ifndef RTR_RENDER_LATENCY_H
#define RTR_RENDER_LATENCY_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "measure/latency.h"

/*
 * Live lines, one per CPU. With @redraw, the cursor first goes back up over
 * the previous @n lines so they are replaced in place (a terminal only).
 */
void latency_text_live(FILE *out, const struct latency_config *cfg,
		       const struct latency_live_view *v, size_t n, bool redraw);

/* The summary table. Return: 0 or -EIO. */
int latency_text_write(FILE *out, const struct latency_result *r, bool color);

/* The JSON document (envelope, config, threads, summary, stop). NULL on ENOMEM. */
json_t *latency_to_json(const struct latency_result *r, const struct host_info *host);

struct trace_result;

/* The "trace" object of --trace (src/measure/trace.h). NULL on ENOMEM. */
json_t *latency_trace_to_json(const struct trace_result *t);

/* The --trace explanation: a paragraph and the table of contributors. Return: 0 or -EIO. */
int latency_trace_text_write(FILE *out, const struct trace_result *t, bool color);

#endif
