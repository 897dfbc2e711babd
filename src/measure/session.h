/* SPDX-License-Identifier: MIT */
/*
 * One latency session, for every command that measures wake-up latency
 * (latency, verify): start the load, set the kernel trace up, run the
 * measuring threads, read the trace back, stop the load, and say what
 * stopped the run. The order is the one that keeps each step safe: the
 * load's supervisor is forked before the run blocks its signals, and the
 * stop signals wait while the trace is set up and read back, so Ctrl-C
 * never leaves a tracing instance or a load behind. The caller chooses the
 * CPUs, renders, and decides the exit status from the outcome.
 */
#ifndef RTR_MEASURE_SESSION_H
#define RTR_MEASURE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/latency.h"
#include "measure/latency_load.h"

struct latency_session {
	const struct latency_config *cfg;	/* cpus, policy, interval, threshold, ... */
	int32_t dma_us;				/* /dev/cpu_dma_latency; -1 leave it alone */
	bool load;				/* run the load of @load_kind meanwhile */
	enum latency_load_kind load_kind;
	const struct rtr_cpuset *load_cpus;	/* where the load runs; NULL every CPU */
	unsigned int load_ncpus;		/* CPU hogs, where the kind has them */
	bool trace;				/* record the kernel trace; explain the hit */
	const char *trace_file;			/* where the window around the hit goes */
	uint64_t tick_ns;			/* 0: no live figures */
	void (*tick)(void *ctx, const struct latency_live_view *v, size_t n);
	void (*started)(void *ctx, struct latency_run *run);	/* NULL; for -v's drain */
	void *ctx;				/* of tick and started */
	bool trace_all;				/* with cfg->threshold_all: every hit, a cause table */
};

/* The step that failed, in the order they run. */
enum session_step {
	SESSION_OK,
	SESSION_LOAD,		/* the load did not start */
	SESSION_TRACE,		/* the trace could not be set up */
	SESSION_START,		/* the measuring threads did not start */
	SESSION_COLLECT,	/* the results could not be collected */
	SESSION_LOAD_FAILED,	/* the load failed during the run (the result stands) */
	SESSION_STOPPED,	/* a measuring thread ran away or failed (the result stands) */
};

struct session_outcome {
	enum session_step failed;
	int err;			/* -errno of the failed step */
	char why[640];			/* what failed, one line, for "rtready: CMD: ..." */
	char trace_note[640];		/* the trace could not be analysed or saved; "" */
	bool measured;			/* the result holds the run's samples */
};

/*
 * Run the session into @res (zeroed by the caller). Return: 0 when the run
 * was measured and nothing failed, else the -errno of @out->failed (for
 * SESSION_LOAD_FAILED and SESSION_STOPPED the result is complete).
 */
int latency_session_run(const struct latency_session *s, struct latency_result *res,
			struct session_outcome *out) __attribute__((warn_unused_result));

#endif
