/* SPDX-License-Identifier: MIT */
/*
 * The modes of `rtready tune` on one target: the dry run (the plan), apply,
 * revert, status, and the boot files of --emit-boot. Each mode resolves
 * what it needs (the RT CPUs, the journal), does its work, and leaves a
 * view of the result for render/tune.c. Nothing here prints: messages go
 * to the caller's struct say, as "rtready: tune: LINE".
 */
#ifndef RTR_TUNE_MODE_H
#define RTR_TUNE_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "target/target.h"
#include "tune/apply.h"
#include "tune/journal.h"
#include "tune/tune.h"
#include "util/say.h"
#include "util/strbuf.h"

enum tune_mode {
	TUNE_MODE_PLAN, /* the default: a dry run */
	TUNE_MODE_APPLY,
	TUNE_MODE_REVERT,
	TUNE_MODE_STATUS,
	TUNE_MODE_EMIT_BOOT,
};

enum tune_view_kind {
	TUNE_VIEW_PLAN,		/* the dry run */
	TUNE_VIEW_APPLY,
	TUNE_VIEW_REVERT,
	TUNE_VIEW_NOTHING,	/* --revert found nothing to put back */
	TUNE_VIEW_STATUS,
	TUNE_VIEW_NO_JOURNAL,	/* --status without a journal */
	TUNE_VIEW_EMIT_BOOT,
};

/* What a mode did, as render/tune.c shows it. */
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

/* What the user asked for. */
struct tune_request {
	enum tune_mode mode;
	const bool *enabled;		/* [TUNE_COUNT] */
	int64_t idle_max_latency_us;
	const int *pids;		/* --pid: move only these processes; NULL: all */
	size_t n_pids;
	const char *state_dir;
	const char *boot_dir;		/* --emit-boot DIR */
	const char *root;		/* as the user gave it, for the host block */
};

/* A mode's result: the view, and what it points into. */
struct tune_outcome {
	struct tune_view view;
	bool failed;			/* a change could not be made or put back */
	struct rtr_cpuset online, rt, nonrt;
	char rt_list[4096], nonrt_list[4096], online_list[4096];
	struct tune_plan plan;		/* the dry run's */
	struct journal j, old;
	struct apply_result res;
	struct strbuf cmdline;
	char when[64];
};

/*
 * Run the mode of @rq on @t. *@out (NULL when out of memory) holds the
 * view to render; free it with tune_outcome_free() in every case.
 * Return: 0, or -errno when the mode could not do its job (said).
 */
int tune_mode_run(const struct tune_request *rq, const struct target *t, const struct say *say,
		  struct tune_outcome **out) __attribute__((warn_unused_result));

/* NULL is a no-op. */
void tune_outcome_free(struct tune_outcome *o);

#endif
