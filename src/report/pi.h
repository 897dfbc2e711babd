/* SPDX-License-Identifier: MIT */
/*
 * The check sync.priority_inheritance, from the verdict of a `rtready pi`
 * run (src/measure/pi.h): pi and verify report it the same way.
 */
#ifndef RTR_REPORT_PI_H
#define RTR_REPORT_PI_H

#include "core/report.h"
#include "measure/pi.h"

/* Add the finding of @res to @r. Return: 0 or -ENOMEM. */
int pi_finding_add(struct report *r, const struct pi_result *res)
	__attribute__((warn_unused_result));

#endif
