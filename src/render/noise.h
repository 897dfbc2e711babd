/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready noise`: per measured CPU the loop rate, the noise
 * time and availability, the largest gap, the histogram of every gap
 * between two clock reads (oslat's 1 us buckets) and the cause table, as
 * text or as JSON (the envelope plus "config", "attribution", "cpus").
 */
#ifndef RTR_RENDER_NOISE_H
#define RTR_RENDER_NOISE_H

#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "measure/noise.h"

/* Return: 0 or -EIO. */
int noise_text_write(FILE *out, const struct noise_result *r);

/*
 * Every gap with its cause, one line each, for scripts (--gaps FILE):
 * "cpu start_ns end_ns duration_ns kind id name" (tab-separated; id -1
 * when there is none). Return: 0 or -EIO.
 */
int noise_gaps_write(FILE *out, const struct noise_result *r);

/*
 * A cause table, as `rtready noise` prints it (kind, name with the pid or
 * IRQ number, count, total and max in us), indented by two; nothing when
 * @n is 0. Also latency --trace-all's.
 */
void noise_causes_text_write(FILE *out, const struct noise_cause *causes, size_t n);

/* One line of a cause table: {kind, name, id (when there is one), count, total_ns, max_ns}. */
json_t *noise_cause_to_json(const struct noise_cause *c);

/* NULL on ENOMEM. */
json_t *noise_to_json(const struct noise_result *r, const struct host_info *host);

#endif
