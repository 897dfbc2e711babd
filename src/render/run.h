/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready run --check`: how the program ended, which of its
 * processes the checker was attached to, and the findings (the text of the
 * findings themselves is render/text.c's), as text or JSON.
 */
#ifndef RTR_RENDER_RUN_H
#define RTR_RENDER_RUN_H

#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "run/findings.h"

struct run_view {
	const struct report *report;	/* the findings, host block filled */
	json_t *extras;			/* per finding: thread, counts, backtrace */
	const struct app_check *ac;	/* the checker's records */
	const char *const *argv;	/* the program as given */
	int argc;
	const char *path;		/* the file executed */
	long pid;
	int status;			/* as waitpid() gave it */
	const char *library;		/* the checker library preloaded */
};

/* "rtready run: PROG (pid N) exited with status S" and the attached processes. */
void run_text_header(FILE *out, const struct run_view *v);

/* The findings' envelope with "program" and "checker". NULL on ENOMEM. */
json_t *run_to_json(const struct run_view *v);

#endif
