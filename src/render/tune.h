/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready tune`, text or JSON, for each of its modes: the plan
 * (dry run), what an apply or a revert did, the journal's status, the boot
 * files written. Every value shown was read or decided before; nothing is
 * read here.
 */
#ifndef RTR_RENDER_TUNE_H
#define RTR_RENDER_TUNE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "tune/apply.h"
#include "tune/journal.h"
#include "tune/mode.h"
#include "tune/tune.h"

/* Return: 0 or -EIO. */
int tune_text_write(FILE *out, const struct tune_view *v);

/* The envelope with "mode" and what the mode did. NULL on ENOMEM. */
json_t *tune_to_json(const struct tune_view *v);

/* @v as JSON or text. Return: 0 or -errno. */
int tune_render(FILE *out, const struct tune_view *v, bool json);

#endif
