/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready pi`: the scenario's configuration, each mutex kind's
 * waits and the verdict, as text or as the check envelope with a "pi"
 * object.
 */
#ifndef RTR_RENDER_PI_H
#define RTR_RENDER_PI_H

#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "measure/pi.h"

/* Return: 0 or -EIO. */
int pi_text_write(FILE *out, const struct pi_result *res);

/* The envelope of @r ("checks") with "pi". NULL on ENOMEM. */
json_t *pi_to_json(const struct pi_result *res, const struct report *r);

#endif
