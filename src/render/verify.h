/* SPDX-License-Identifier: MIT */
/*
 * The verify document (verify.json, and standard output with --format
 * json): the envelope with the host's name, the configuration, the check
 * result, the idle and loaded latency results, and how the run ended. The
 * verdict is added by the caller once judged.
 */
#ifndef RTR_RENDER_VERIFY_H
#define RTR_RENDER_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/report.h"
#include "measure/latency.h"
#include "measure/noise.h"
#include "report/result.h"
#include "rtready/cpuset.h"

struct verify_view {
	const struct host_info *host;
	const char *hostname;			/* "" when unknown */
	const struct rtr_cpuset *measured_cpus;
	const struct rtr_cpuset *load_cpus;	/* NULL: the load ran on every online CPU */
	const char *online;			/* the online CPUs, as a list */
	int64_t duration_ns, interval_ns;
	const char *load;			/* the load's name */
	double max_latency_us;			/* <= 0: no limit given */
	const struct report *check;
	const struct latency_result *lat[PHASE_COUNT];	/* NULL: the phase did not finish */
	bool interrupted;
	const char *error;			/* "" unless the run failed */
	const struct noise_result *noise;	/* --max-noise; NULL when it did not run */
	double max_noise_us;
};

/* NULL on ENOMEM. */
json_t *verify_to_json(const struct verify_view *v);

#endif
