/* SPDX-License-Identifier: MIT */
/*
 * The progress line of `rtready verify` on a terminal: "[2/3] latency,
 * idle: 7 s left, worst wake-up so far 41.2 us", redrawn in place.
 */
#ifndef RTR_JOB_PROGRESS_H
#define RTR_JOB_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "measure/latency.h"

struct progress {
	FILE *tty;		/* NULL: show nothing */
	int step;		/* 1..3 */
	const char *what;
	int64_t start_ns, duration_ns;
	uint64_t max_ns;	/* worst wake-up so far in this run */
};

/* Step @step of 3 begins: @what, for @duration_ns (0: no time to count down). */
void progress_begin(struct progress *p, int step, const char *what, int64_t duration_ns);

/* The latency session's tick (@ctx: the progress): time left and the worst wake-up. */
void progress_tick(void *ctx, const struct latency_live_view *v, size_t n);

/* The step ends: "[N/3] what: @how" on its own line. */
void progress_end(struct progress *p, const char *how);

#endif
