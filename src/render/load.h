/* SPDX-License-Identifier: MIT */
/*
 * Output of `rtready load`: what is started (before the run), and what was
 * done (hackbench's "Time:" line first, for scripts that parse it), as text
 * or JSON.
 */
#ifndef RTR_RENDER_LOAD_H
#define RTR_RENDER_LOAD_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/report.h"
#include "measure/load.h"

/* The load about to start, one line per kind. */
void load_describe_text(FILE *out, const struct load_config *c);

/* Return: 0 or -EIO. */
int load_text_write(FILE *out, const struct load_config *c, const struct load_stats *st,
		    bool interrupted);

/* The envelope with "config" and "figures". NULL on ENOMEM. */
json_t *load_to_json(const struct load_config *c, const struct load_stats *st, bool interrupted,
		     const struct host_info *host);

/* As JSON with @host, or as text when @host is NULL. Return: 0 or -errno. */
int load_write(FILE *out, const struct load_config *c, const struct load_stats *st,
	       bool interrupted, const struct host_info *host);

#endif
