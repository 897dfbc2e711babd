/* SPDX-License-Identifier: MIT */
/* Facts of area 'tasks' (to be filled by its probe). */
#ifndef RTR_PROBE_TASKS_H
#define RTR_PROBE_TASKS_H

#include "probe/rootfs.h"

struct tasks_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_tasks(const struct rootfs *fs, struct tasks_facts *out);
void probe_tasks_free(struct tasks_facts *out);

#endif
