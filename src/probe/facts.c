// SPDX-License-Identifier: MIT
/* Runs every probe once; see facts.h. */
#include <stdio.h>
#include <string.h>

#include "probe/facts.h"

int facts_gather(const struct rootfs *fs, struct facts *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->root, sizeof(f->root), "%s", fs->path);
	f->host = fs->host;
	probe_sched(fs, &f->sched);
	return 0;
}

void facts_free(struct facts *f)
{
	probe_sched_free(&f->sched);
}
