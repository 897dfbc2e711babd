// SPDX-License-Identifier: MIT
/* Probe of area 'platform'; see platform.h. */
#include <string.h>

#include "probe/platform.h"

void probe_platform(const struct rootfs *fs, struct platform_facts *out)
{
	(void)fs;
	memset(out, 0, sizeof(*out));
}

void probe_platform_free(struct platform_facts *out)
{
	(void)out;
}
