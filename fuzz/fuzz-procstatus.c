// SPDX-License-Identifier: MIT
/* libFuzzer target: /proc/PID/status and /proc/PID/limits. */
#include <stddef.h>
#include <stdint.h>

#include "probe/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proc_status st;
	struct proc_limits lim;

	if (parse_proc_status((const char *)data, size, &st) == 0 &&
	    (st.have & PROC_ST_CPUS) && st.cpus_allowed_err)
		__builtin_trap();
	proc_status_free(&st);
	(void)parse_proc_limits((const char *)data, size, &lim);
	return 0;
}
