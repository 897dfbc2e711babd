// SPDX-License-Identifier: MIT
/* libFuzzer target: /proc/PID/stat lines. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_stat ps;

	if (parse_proc_stat((const char *)data, size, &ps) == 0) {
		/* What the parser promises: a bounded comm, sane ranges. */
		if (strlen(ps.comm) >= sizeof(ps.comm) || ps.pid <= 0 || ps.nice < -20 ||
		    ps.nice > 19 || ps.rt_priority > 99)
			__builtin_trap();
	}
	return 0;
}
