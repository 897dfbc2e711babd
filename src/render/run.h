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

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"
#include "run/findings.h"
#include "run/session.h"

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

/*
 * The report of a run --check that ended (@s, run as @rq asked) to
 * @rq->report (standard error when NULL), written whole or not at all:
 * JSON, or text with colour where @color says so for the stream.
 * Return: 0, or -errno with the line to print in @err.
 */
int run_render_report(const struct run_session *s, const struct run_request *rq, bool json,
		      bool (*color)(FILE *fp), char *err, size_t errlen)
	__attribute__((warn_unused_result));

#endif
