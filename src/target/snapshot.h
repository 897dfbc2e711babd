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

struct snapshot_request {
	const char *dir;	/* where to write the tree */
	const char *root;	/* what to capture: "/" or another tree */
	bool force;		/* write into a non-empty directory */
	/* The metadata file's text (render/snapshot.c); NULL on ENOMEM. */
	char *(*meta_text)(const struct snapshot_meta *m, const struct snapshot *s);
};

/*
 * Take the snapshot @rq asks for into @snap (free it with snapshot_free()
 * in every case). Return: 0, or -errno (said).
 */
int target_snapshot(const struct snapshot_request *rq, const struct say *say,
		    struct snapshot *snap) __attribute__((warn_unused_result));

/* Say what a snapshot taken left out (warnings). */
void target_snapshot_left(const struct snapshot_request *rq, const struct snapshot *snap,
			  const struct say *say);

#endif
