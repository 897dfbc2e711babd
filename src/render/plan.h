/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready plan`: the planned sets, every rule's note, the clusters
 * with their reasons, the boot line and the tune commands, and the checks
 * that would still warn after the reboot. Text or JSON; nothing is decided
 * here.
 */
#ifndef RTR_RENDER_PLAN_H
#define RTR_RENDER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "cpuplan/cpuplan.h"
#include "plan/session.h"

/* Return: 0 or -EIO. */
int plan_text_write(FILE *out, const struct plan_view *v);

/* The envelope plus "plan" and "after". NULL on ENOMEM. */
json_t *plan_to_json(const struct plan_view *v);

/*
 * @v as JSON or text to @path (NULL or "-": standard output), written
 * whole or not at all. Return: 0, or -errno with the line to print in @err.
 */
int plan_render(const char *path, const struct plan_view *v, bool json, char *err,
		size_t errlen) __attribute__((warn_unused_result));

#endif
