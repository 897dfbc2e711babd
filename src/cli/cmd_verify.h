/* SPDX-License-Identifier: MIT */
/* Options of `rtready verify`, parsed without side effects (unit-tested). */
#ifndef RTR_CLI_CMD_VERIFY_H
#define RTR_CLI_CMD_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "measure/latency_load.h"
#include "rtready/cpuset.h"
#include "target/target.h"

#define VERIFY_DEFAULT_DURATION_NS (10LL * 1000000000LL)
#define VERIFY_DEFAULT_REPORT_DIR "rtready-report"

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

/* Parse argv (argv[0] = "verify"). Return: 0, or -EINVAL with a message in @err. */
int verify_opts_parse(int argc, char **argv, void *opts, char *err, size_t errlen);
void verify_opts_free(void *opts);

#endif
