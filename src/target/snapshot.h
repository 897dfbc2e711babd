/* SPDX-License-Identifier: MIT */
/*
 * One `rtready snapshot`: open the root, make the directory, gather the
 * facts while recording the files read, write them under the directory,
 * and the metadata file beside them. Nothing here prints: messages go to
 * the caller's struct say, as "rtready: snapshot: LINE".
 */
#ifndef RTR_TARGET_SNAPSHOT_H
#define RTR_TARGET_SNAPSHOT_H

#include <stdbool.h>

#include "probe/snapshot.h"
#include "util/say.h"

/*
 * Capture the tree under @root into the directory @dir (not empty only
 * with @force), recorded in @snap (free it with snapshot_free() in every
 * case), with the metadata file whose text @meta_text makes
 * (render/snapshot.c; NULL on ENOMEM). Return: 0, or -errno (said).
 */
int target_snapshot(const char *dir, const char *root, bool force,
		    char *(*meta_text)(const struct snapshot_meta *m, const struct snapshot *s),
		    const struct say *say, struct snapshot *snap)
	__attribute__((warn_unused_result));

/* Say what a snapshot of @root left out (warnings). */
void target_snapshot_left(const char *root, const struct snapshot *snap, const struct say *say);

#endif
