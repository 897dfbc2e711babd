// SPDX-License-Identifier: MIT
/* The loads of `rtready latency --load`; see latency_load.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "measure/latency.h"
#include "measure/latency_load.h"
#include "rtready/cpuset.h"

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

int latency_load_begin(enum latency_load_kind kind, const struct rtr_cpuset *cpus,
		       unsigned int ncpus, struct load **out)
{
	struct load_config lc;
	int err;

	memset(&lc, 0, sizeof(lc));
	err = latency_load_config(kind, ncpus, &lc);
	if (!err && cpus)
		err = rtr_cpuset_copy(&lc.cpus, cpus);
	err = err ?: load_start(&lc, out);
	load_config_free(&lc);
	return err;
}

int latency_load_end(enum latency_load_kind kind, struct load *load,
		     struct latency_load_info *li)
{
	struct load_stats st;
	int err = load_stop(load);

	load_stats(load, &st);
	li->kind = latency_load_name(kind);
	li->runs = st.runs;
	li->messages = st.messages;
	li->cpu_loops = st.cpu_loops;
	li->memory_cycles = st.memory_cycles;
	if (err || st.error) {
		snprintf(li->error, sizeof(li->error), "%s",
			 st.error_text[0] ? st.error_text : strerror(-(err ?: st.error)));
		return -EIO;
	}
	return 0;
}
