/* SPDX-License-Identifier: MIT */
/*
 * What the main thread of `rtready latency` shows while the run goes on:
 * the refreshed live lines on a terminal, or -v's sample lines. Handed to
 * the latency session as its tick and started callbacks.
 */
#ifndef RTR_JOB_LIVE_H
#define RTR_JOB_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/latency.h"

struct live_ctx {
	FILE *out;
	const struct latency_config *cfg;
	struct latency_run *run;
	bool show;		/* the refreshed lines */
	bool verbose;		/* -v */
	bool in_ns;
	bool drawn;
	uint64_t *lost;		/* -v: samples the ring dropped, per thread */
	uint64_t *told;		/* and how many of them were already said */
	int out_err;		/* a write to @out failed (-errno): the run was stopped */
};

/* The session's tick: live lines and -v's samples; a failed write stops the run. */
void live_tick(void *ctx, const struct latency_live_view *v, size_t n);

/* The session's started callback: -v's samples are drained from the tick. */
void live_started(void *ctx, struct latency_run *run);

/* Free what live_started() took. */
void live_free(struct live_ctx *l);

#endif
