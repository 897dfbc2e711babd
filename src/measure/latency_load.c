// SPDX-License-Identifier: MIT
/* The loads of `rtready latency --load`; see latency_load.h. */
#include <errno.h>
#include <string.h>

#include "measure/latency_load.h"

static const char *const names[] = {
	[LATENCY_LOAD_HACKBENCH] = "hackbench",
	[LATENCY_LOAD_CPU] = "cpu",
	[LATENCY_LOAD_MEMORY] = "memory",
	[LATENCY_LOAD_ALL] = "all",
};

int latency_load_parse(const char *name, enum latency_load_kind *out)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			*out = (enum latency_load_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *latency_load_name(enum latency_load_kind kind)
{
	if ((size_t)kind < sizeof(names) / sizeof(names[0]))
		return names[kind];
	return "unknown";
}

int latency_load_config(enum latency_load_kind kind, unsigned int ncpus, struct load_config *out)
{
	bool messaging = kind == LATENCY_LOAD_HACKBENCH || kind == LATENCY_LOAD_ALL;

	load_config_init(out);
	/* Until load_stop(): runs restart back to back for the whole measurement. */
	out->duration_ns = 0;
	out->runs = 0;
	if (!messaging)
		out->groups = 0;
	if (kind == LATENCY_LOAD_CPU || kind == LATENCY_LOAD_ALL)
		out->cpu_hogs = ncpus ? ncpus : 1;
	if (kind == LATENCY_LOAD_MEMORY || kind == LATENCY_LOAD_ALL)
		out->memory_bytes = LATENCY_LOAD_MEMORY_BYTES;
	if ((size_t)kind >= sizeof(names) / sizeof(names[0]))
		return -EINVAL;
	return 0;
}
