/* SPDX-License-Identifier: MIT */
/* Facts of area 'memory' (to be filled by its probe). */
#ifndef RTR_PROBE_MEMORY_H
#define RTR_PROBE_MEMORY_H

#include "probe/rootfs.h"

struct memory_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_memory(const struct rootfs *fs, struct memory_facts *out);
void probe_memory_free(struct memory_facts *out);

#endif
