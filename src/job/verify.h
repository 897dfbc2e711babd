/* SPDX-License-Identifier: MIT */
/*
 * The run of `rtready verify` once its options are parsed: the check, the
 * priority-inheritance run, the noise phase (--max-noise), latency idle and
 * under load, with a progress line on a terminal; then the verdict, the
 * report directory (verify.json, report.html, junit.xml, metrics.prom),
 * the summary and the exit status.
 */
#ifndef RTR_JOB_VERIFY_H
#define RTR_JOB_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "job/job.h"
#include "measure/latency_load.h"
#include "render/format.h"
#include "rtready/cpuset.h"
#include "target/target.h"

struct verify_opts {
	int64_t duration_ns;		/* of each latency run */
	uint64_t interval_ns;		/* of the measuring threads */
	struct rt_request rt;		/* --rt-cpus: checked as RT CPUs and measured */
	struct rtr_cpuset load_cpus;	/* --load-cpus: where the load runs (default: all) */
	bool load_cpus_given;
	enum latency_load_kind load;	/* --load KIND, default all */
	double max_latency_us;		/* 0: latency shown, not judged */
	double max_noise_us;		/* > 0: the noise phase runs, judged by it */
	const char *report_dir;
	const char *prometheus;		/* --prometheus FILE: the metrics there too; NULL: not */
	enum output_format format;
	bool strict, quiet, help, version;
	bool trace;			/* --trace: explain the first wake-up past --max-latency */
	bool no_pi;			/* --no-pi: skip the priority-inheritance run */
};

/*
 * Verify as @o says. Return: the exit status (JOB_*), after printing why
 * through @ui when a step could not run.
 */
int verify_job_run(void *opts, const struct job_ui *ui);

#endif
