/* SPDX-License-Identifier: MIT */
/*
 * The metadata file at the top of a snapshot (rtready-snapshot.json): the
 * envelope with the capture's host, the hostname and date, the counts, and
 * what check would have read but the capture refused.
 */
#ifndef RTR_RENDER_SNAPSHOT_H
#define RTR_RENDER_SNAPSHOT_H

#include "probe/snapshot.h"

/* The file's text, with a final newline; NULL on ENOMEM. Free it. */
char *snapshot_meta_text(const struct snapshot_meta *m, const struct snapshot *s);

#endif
