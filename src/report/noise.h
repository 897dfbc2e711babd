/* SPDX-License-Identifier: MIT */
/*
 * The check noise.max_gap from a `rtready noise` run (src/measure/noise.h):
 * verify's noise phase, judged against --max-noise.
 */
#ifndef RTR_REPORT_NOISE_H
#define RTR_REPORT_NOISE_H

#include "core/report.h"
#include "measure/noise.h"

/*
 * Add noise.max_gap to @r: fail when a CPU's largest gap of @res passes
 * @max_noise_us, with the largest gap and its cause as evidence; skip when
 * the run could not be made (@run_err != 0, @why says why) or was
 * interrupted. Return: 0 or -ENOMEM.
 */
int noise_finding_add(struct report *r, const struct noise_result *res, int run_err,
		      const char *why, double max_noise_us) __attribute__((warn_unused_result));

#endif
