/* SPDX-License-Identifier: MIT */
/* Renderers of rtready inspect results: text tables and JSON. */
#ifndef RTR_RENDER_INSPECT_H
#define RTR_RENDER_INSPECT_H

#include <stdio.h>

#include <jansson.h>

#include "inspect/inspect.h"
#include "render/text.h"

/* Findings first, then one table per process. Return: 0 or -EIO/-ENOMEM. */
int inspect_write_text(FILE *out, const struct inspect_result *res, const struct report *r,
		       const struct text_style *st);

/* The JSON object: envelope, window, perf, findings, processes, summary. NULL on ENOMEM. */
json_t *inspect_to_json(const struct inspect_result *res, const struct report *r);

#endif
