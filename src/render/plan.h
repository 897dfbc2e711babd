/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready plan`: the planned sets, every rule's note, the clusters
 * with their reasons, the boot line and the tune commands, and the checks
 * that would still warn after the reboot. Text or JSON; nothing is decided
 * here.
 */
#ifndef RTR_RENDER_PLAN_H
#define RTR_RENDER_PLAN_H

#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "cpuplan/cpuplan.h"

struct plan_view {
	const struct cpuplan *plan;
	size_t online;			/* online CPUs */
	const char *cmdline;		/* the kernel parameters */
	const char *cmdline_note;	/* why a parameter is there or not */
	const char *tune_apply;		/* the rtready tune commands */
	const char *tune_emit_boot;
	const struct report *after;	/* checks on the planned machine */
	const struct host_info *host;
	const char *tune_isolate;	/* the no-reboot path: tune --isolate */
	const char *isolate_why;	/* why it cannot work here; "" when it can */
};

/* Return: 0 or -EIO. */
int plan_text_write(FILE *out, const struct plan_view *v);

/* The envelope plus "plan" and "after". NULL on ENOMEM. */
json_t *plan_to_json(const struct plan_view *v);

#endif
