/* SPDX-License-Identifier: MIT */
/* Running the checklist over gathered facts, into a report. */
#ifndef RTR_CHECKS_RUN_H
#define RTR_CHECKS_RUN_H

#include "checks/check.h"
#include "core/report.h"

/*
 * A selector list as given to --only / --skip: each entry is an area
 * ("irq") or a check id ("irq.affinity").
 */
struct check_filter {
	const char **only;
	size_t n_only;
	const char **skip;
	size_t n_skip;
};

/* Whether @sel names an existing area or id. */
bool checks_selector_valid(const char *sel);

/* Whether @c passes @flt. */
bool checks_selected(const struct check *c, const struct check_filter *flt);

/* Run every selected check into @r. Return: 0 or -ENOMEM. */
int checks_run(const struct check_ctx *ctx, const struct check_filter *flt, struct report *r);

#endif
