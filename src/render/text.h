/* SPDX-License-Identifier: MIT */
/*
 * Text rendering of findings: grouped by area, failures first, each with
 * what was read, why it matters and the fix. Passes (and the evidence of
 * info items) only when the style asks for them.
 */
#ifndef RTR_RENDER_TEXT_H
#define RTR_RENDER_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/report.h"

struct text_style {
	bool color;	/* ANSI colours (terminal, NO_COLOR unset) */
	bool verbose;	/* show passes and every evidence */
};

/* Colour escape for a status, "" without colour. */
const char *text_status_color(const struct text_style *st, enum rtr_status s);
const char *text_reset(const struct text_style *st);

/* Write @r's findings as text. Return: 0 or -EIO. */
int text_write_findings(FILE *out, const struct report *r, const struct text_style *st);

/* Write "indent" + @text wrapped at @width columns, continuing lines with @indent. */
void text_wrap(FILE *out, const char *indent, const char *text, int width);

#endif
