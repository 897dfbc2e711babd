/* SPDX-License-Identifier: MIT */
/*
 * Renderers of `rtready latency` results: the live per-CPU lines shown
 * while it runs, the text summary and the JSON object of docs/CONTRACTS.md. They
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
 * @in_ns: latencies in nanoseconds instead of microseconds (-N).
 */
void latency_text_live(FILE *out, const struct latency_config *cfg,
		       const struct latency_live_view *v, size_t n, bool redraw, bool in_ns);

/* The summary table. Return: 0 or -EIO. */
int latency_text_write(FILE *out, const struct latency_result *r, bool color, bool in_ns);

/*
 * cyclictest's "T: 0 ( 1234) P:80 I:1000 C:  10000 Min: ... Max: ..." lines,
 * one per thread, as it prints them at the end of a -q run (the layout grep
 * scripts know). Return: 0 or -EIO.
 */
int latency_text_tlines(FILE *out, const struct latency_result *r, bool in_ns);

/* The JSON document (envelope, config, threads, summary, stop). NULL on ENOMEM. */
json_t *latency_to_json(const struct latency_result *r, const struct host_info *host);

struct trace_result;

/* The "trace" object of --trace (src/measure/trace.h). NULL on ENOMEM. */
json_t *latency_trace_to_json(const struct trace_result *t);

/* The --trace explanation: a paragraph and the table of contributors. Return: 0 or -EIO. */
int latency_trace_text_write(FILE *out, const struct trace_result *t, bool color);

/*
 * --trace-all: the "trace_all" object (source, lost events, note) and, in
 * each entry of @threads (one per CPU, in order), "over_threshold" and
 * "causes". Return: 0 or -ENOMEM.
 */
int latency_trace_all_to_json(const struct latency_result *r, json_t *root, json_t *threads);

/* --trace-all: every CPU's cause table of the wake-ups over the threshold. Return: 0 or -EIO. */
int latency_trace_all_text_write(FILE *out, const struct latency_result *r, bool color);

/* How cyclictest's options shape the text summary (latency_text_summary()). */
struct latency_text_shape {
	bool quiet;		/* -q: cyclictest's T: lines first; with @hist, the histogram alone */
	bool hist;		/* -h or -H (without --histfile): cyclictest's histogram too */
	bool sum_column;	/* -H: the histogram's column summing every thread */
	bool in_ns;		/* -N */
	bool color;
};

/*
 * The text summary, shaped by cyclictest's options: -q -h (or -H) is the
 * histogram alone, as cyclictest prints it (plot scripts read every line
 * that is not a comment as a row); -q starts with its T: lines; -h without
 * -q adds the histogram after the table. Return: 0 or -errno.
 */
int latency_text_summary(FILE *fp, const struct latency_result *r,
			 const struct latency_text_shape *s);

/*
 * The JSON of latency_to_json(), one compact line unless @pretty: a run's
 * JSON may have to cross a serial console. Return: 0 or -errno.
 */
int latency_json_write(FILE *fp, const struct latency_result *r, const struct host_info *host,
		       bool pretty);

#endif
