/* SPDX-License-Identifier: MIT */
/* Renderers of rtready inspect results: text tables and JSON. */
#ifndef RTR_RENDER_INSPECT_H
#define RTR_RENDER_INSPECT_H

#include <stdio.h>

#include "inspect/inspect.h"
#include "render/text.h"

/* Findings first, then one table per process. Return: 0 or -EIO/-ENOMEM. */
int inspect_write_text(FILE *out, const struct inspect_result *res, const struct report *r,
		       const struct text_style *st);

/*
 * The JSON document, streamed to @out: envelope, findings, window, perf,
 * processes, summary (laid out as json_write() lays out a tree).
 * Return: 0, -EIO or -ENOMEM.
 */
int inspect_write_json(FILE *out, const struct inspect_result *res, const struct report *r);

#endif
