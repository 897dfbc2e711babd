// SPDX-License-Identifier: MIT
/* libFuzzer target: /proc/stat, as plan reads it for the housekeeping load. */
#include <stddef.h>
#include <stdint.h>

#include "probe/cpuload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtr_cpuset ex = RTR_CPUSET_INIT;
	struct cpuload_sample s, t;
	struct cpuload l;

	if (rtr_cpuset_set(&ex, 1))
		return 0;
	if (cpuload_parse_stat((const char *)data, size, NULL, &s) == 0) {
		/* What the parser promises: some CPU counted, busy never above all. */
		if (!s.n_cpus || s.busy_ticks > s.all_ticks)
			__builtin_trap();
		if (cpuload_parse_stat((const char *)data, size, &ex, &t) == 0 &&
		    (t.n_cpus > s.n_cpus || t.busy_ticks > t.all_ticks))
			__builtin_trap();
		if (cpuload_between(&s, &s, 1, &l) == 0)
			__builtin_trap();	/* no time passed between equal samples */
	}
	rtr_cpuset_free(&ex);
	return 0;
}
