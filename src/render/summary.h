/* SPDX-License-Identifier: MIT */
/*
 * The short text summary of a result that `rtready verify` prints: the
 * checks that failed or warned (one line each), the latency per CPU idle
 * next to loaded, and the verdict with its reason. It shows struct result
 * and decides nothing.
 */
#ifndef RTR_RENDER_SUMMARY_H
#define RTR_RENDER_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "report/result.h"

/* Return: 0 or -EIO. */
int summary_write(FILE *out, const struct result *r, bool color);

#endif
