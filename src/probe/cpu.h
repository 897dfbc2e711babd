/* SPDX-License-Identifier: MIT */
/* Facts of area 'cpu' (to be filled by its probe). */
#ifndef RTR_PROBE_CPU_H
#define RTR_PROBE_CPU_H

#include "probe/rootfs.h"

struct cpu_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_cpu(const struct rootfs *fs, struct cpu_facts *out);
void probe_cpu_free(struct cpu_facts *out);

#endif
