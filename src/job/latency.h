/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready latency` once its options are parsed: pick the CPUs,
 * run the latency session (src/measure/session.c) with live lines on a
 * terminal, write the summary (text or JSON), --json and --histfile, and
 * decide the exit status.
 */
#ifndef RTR_JOB_LATENCY_H
#define RTR_JOB_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "measure/latency.h"
#include "measure/latency_load.h"
#include "render/format.h"
#include "target/target.h"

struct latency_opts {
	struct latency_config cfg;	/* cpus: the CPUs measured, resolved at the start */
	struct rt_request affinity;	/* -a LIST, auto or auto:N */
	unsigned int threads;		/* -t N: the first N CPUs; 0: all */
	enum output_format format;
	const char *output;		/* --output FILE, NULL: stdout */
	const char *histfile;		/* --histfile FILE */
	bool quiet;			/* -q: no live lines; cyclictest's T: lines in the summary */
	bool duration_given;		/* -D given (-l alone measures until the loops are done) */
	bool hist_print;		/* -h or -H: cyclictest's histogram in the text output */
	bool histofall;			/* -H: with the column summing every thread */
	bool in_ns;			/* -N: latencies in ns in the text output */
	bool verbose;			/* -v: every sample, "thread:wake-up:latency" */
	const char *json_file;		/* --json FILE: the JSON there, the text on stdout */
	bool pretty;			/* --pretty: indented JSON (default: one line) */
	int32_t dma_us;			/* --dma-latency US; -1: leave it alone */
	bool has_load;			/* --load KIND given */
	enum latency_load_kind load;
	bool trace;			/* --trace: explain a threshold hit from the kernel trace */
	const char *trace_file;		/* --trace-file FILE (implies --trace) */
	bool prio_given;		/* -p given (refused with --policy deadline) */
	bool interval_given;		/* -i given (with deadline: must equal --period) */
	bool trace_all;			/* --trace-all: go on past the threshold, explain every hit */
	bool help;
	bool version;
};

/*
 * Measure as @o says (@o->cfg.cpus is set to the CPUs measured), with the
 * command line's services @ui. Return: the exit status (JOB_*), after
 * printing why through @ui when it is not JOB_OK.
 */
int latency_job_run(void *opts, const struct job_ui *ui);

#endif
