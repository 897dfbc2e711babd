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
#include "tune/tune.h"

enum tune_view_kind {
	TUNE_VIEW_PLAN,		/* the dry run */
	TUNE_VIEW_APPLY,
	TUNE_VIEW_REVERT,
	TUNE_VIEW_NOTHING,	/* --revert found nothing to put back */
	TUNE_VIEW_STATUS,
	TUNE_VIEW_NO_JOURNAL,	/* --status without a journal */
	TUNE_VIEW_EMIT_BOOT,
};

struct tune_view {
	enum tune_view_kind kind;
	struct host_info host;		/* rt_cpus "" where the mode resolved no CPUs */
	const char *rt_list, *nonrt_list;	/* plan, apply, emit-boot */
	const struct tune_plan *plan;	/* plan, apply */
	const struct journal *journal;	/* revert, status */
	const struct apply_result *result;	/* apply, revert */
	const char *state_dir;
	const char *when;		/* the apply's time, as text (revert, status) */
	bool this_boot;			/* status: the journal is of this boot */
	const char *why;		/* nothing: the reason */
	const char *cmdline, *boot_dir;	/* emit-boot */
	const char *boot_files[2];	/* emit-boot: the names written in boot_dir */
};

/* Return: 0 or -EIO. */
int tune_text_write(FILE *out, const struct tune_view *v);

/* The envelope with "mode" and what the mode did. NULL on ENOMEM. */
json_t *tune_to_json(const struct tune_view *v);

#endif
