// SPDX-License-Identifier: MIT
/* The memory setup of a measuring process; see memlock.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "measure/memlock.h"
#include "rtready/error.h"
#include "rtready/mem.h"

/* What every measurement prefaults: room for the samples' allocations and the deepest stack. */
#define PREFAULT_HEAP_BYTES (2u << 20)
#define PREFAULT_STACK_BYTES (64u << 10)

int measure_lock_memory(char *why, size_t whylen)
{
	struct rtr_mem_setup ms = {
		.mallopt = true,
		.lock = true,
		.heap_bytes = PREFAULT_HEAP_BYTES,
		.stack_bytes = PREFAULT_STACK_BYTES,
	};
	const char *lib;
	struct rlimit rl;
	char lim[32] = "unknown";
	int err = rtr_mem_setup(&ms);

	/* mallopt is missing on musl: not a reason to stop. */
	if (!err || err == -ENOTSUP)
		return 0;
	lib = rtr_last_error();
	if (lib && *lib) {
		snprintf(why, whylen, "cannot lock memory: %s", lib);
		return err;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
	}
	snprintf(why, whylen, "mlockall failed (%s): RLIMIT_MEMLOCK is %s; raise it (ulimit -l) or "
		 "run with CAP_IPC_LOCK, or use --no-mlock and accept page faults", strerror(-err),
		 lim);
	return err;
}
