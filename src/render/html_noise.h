/* SPDX-License-Identifier: MIT */
/*
 * The noise section of the HTML report (html.c): for each result with a
 * noise run (`rtready noise`, verify --max-noise), a table of every
 * measured CPU (availability, events, noise time, largest gap, marked when
 * it passes the limit, and the first cause), then per CPU its cause table
 * (kind, name, count, total, max), folded when there are many CPUs.
 */
#ifndef RTR_RENDER_HTML_NOISE_H
#define RTR_RENDER_HTML_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/result.h"

/* Whether one of @rs has a noise run. */
bool html_noise_any(const struct result *const *rs, size_t n);

/* The section "#noise" of @rs that have a noise run; nothing when none has one. */
void html_noise_write(FILE *out, const struct result *const *rs, size_t n);

#endif
