/* SPDX-License-Identifier: MIT */
/* Facts of area 'kernel' (to be filled by its probe). */
#ifndef RTR_PROBE_KERNEL_H
#define RTR_PROBE_KERNEL_H

#include "probe/rootfs.h"

struct kernel_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_kernel(const struct rootfs *fs, struct kernel_facts *out);
void probe_kernel_free(struct kernel_facts *out);

#endif
