/* SPDX-License-Identifier: MIT */
/* Facts of area 'platform' (to be filled by its probe). */
#ifndef RTR_PROBE_PLATFORM_H
#define RTR_PROBE_PLATFORM_H

#include "probe/rootfs.h"

struct platform_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_platform(const struct rootfs *fs, struct platform_facts *out);
void probe_platform_free(struct platform_facts *out);

#endif
