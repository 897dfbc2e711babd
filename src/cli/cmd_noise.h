/* SPDX-License-Identifier: MIT */
/* Options of `rtready noise` (unit-tested). */
#ifndef RTR_CLI_CMD_NOISE_H
#define RTR_CLI_CMD_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "measure/noise.h"

struct noise_opts {
	struct noise_config cfg;
	bool cpus_given;
	size_t cpus_auto;	/* -a auto[:N]: N + 1 */
	enum output_format format;
	const char *output;
	const char *gaps;	/* --gaps FILE: every gap with its cause */
	bool help, version;
};

/* Parse argv into @o (noise_config_free(&o->cfg) after, whatever the result). Never exits. */
int noise_opts_parse(int argc, char **argv, struct noise_opts *o, char *err, size_t errlen);

/*
 * verify's noise phase: spin on @cpus (one online CPU is left out for
 * housekeeping when @cpus holds them all) for @duration_ns, then add the
 * finding noise.max_gap to @r: fail when a CPU's largest gap passes
 * @max_noise_us, with the largest gap and its cause as evidence; skip when
 * the run could not be made (@why says why). *@out keeps the result (free
 * it with noise_result_free(), also after an error); *@interrupted tells a
 * SIGINT/SIGTERM. Return: 0 or -ENOMEM.
 */
int noise_verify_phase(struct report *r, const struct rtr_cpuset *cpus,
		       const struct rtr_cpuset *online, uint64_t duration_ns, double max_noise_us,
		       struct noise_result *out, bool *interrupted, char *why, size_t whylen)
	__attribute__((warn_unused_result));

#endif
