// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the scheduler debug file's dl_rq sections, the snapshot's
 * DEADLINE lines and the dl.* fields of /proc/PID/sched.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/dlbw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dlbw_facts f;
	struct dlbw_cpu *cpus;
	size_t n;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dlbw_parse_sched_debug(text, &cpus, &n) == 0) {
		/* Sections found: at least one, each a CPU number in range. */
		if (n == 0 || !cpus)
			__builtin_trap();
		for (size_t i = 0; i < n; i++)
			if (cpus[i].cpu < 0 || cpus[i].cpu >= RTR_CPUSET_MAX_CPUS)
				__builtin_trap();
		free(cpus);
	} else if (cpus || n) {
		__builtin_trap();
	}
	memset(&f, 0, sizeof(f));
	if (dlbw_parse_snapshot(text, &f) == 0 && f.n_tasks && !f.tasks)
		__builtin_trap();
	probe_dlbw_free(&f);
	{
		struct dlbw_sched_fields sf;

		if (dlbw_parse_proc_sched(text, &sf) == 0 && sf.n > DLBW_SCHED_FIELDS)
			__builtin_trap();
	}
	free(text);
	return 0;
}
