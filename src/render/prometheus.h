/* SPDX-License-Identifier: MIT */
/*
 * Prometheus text exposition (format 0.0.4) for the node exporter's
 * textfile collector: one metric family per figure, each with # HELP and
 * # TYPE, labelled by host, cpu, run phase and check id. Check statuses are
 * a state set (one series per status, 1 for the current one), so an alert
 * is `rtready_check_status{status="fail"} == 1`. With several results, a
 * "result" label (the file name) keeps their series apart.
 */
#ifndef RTR_RENDER_PROMETHEUS_H
#define RTR_RENDER_PROMETHEUS_H

#include <stddef.h>
#include <stdio.h>

#include "report/result.h"

/* Write @s as a label value: backslash, double quote and newline escaped. */
void prom_escape_label(FILE *out, const char *s);

/* Return: 0 or -EIO. */
int prom_write(FILE *out, const struct result *const *results, size_t n);

#endif
