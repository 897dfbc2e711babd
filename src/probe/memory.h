/* SPDX-License-Identifier: MIT */
/*
 * Memory facts: swap devices and swappiness, transparent huge pages, KSM,
 * automatic NUMA balancing, and the resource limits (RLIMIT_RTPRIO,
 * RLIMIT_MEMLOCK) and capabilities of the invoking user's process, read
 * from /proc/self/{limits,status} under the root (a snapshot holds the
 * files of the process that recorded it).
 */
#ifndef RTR_PROBE_MEMORY_H
#define RTR_PROBE_MEMORY_H

#include <stdint.h>

#include "probe/knob.h"
#include "probe/procstat.h"
#include "probe/rootfs.h"

struct memory_facts {
	int swaps_err;			/* /proc/swaps */
	unsigned int swap_devices;	/* active swap areas */
	uint64_t swap_total_kb, swap_used_kb;
	struct knob swappiness;		/* /proc/sys/vm/swappiness */

	int thp_enabled_err;		/* /sys/kernel/mm/transparent_hugepage/enabled */
	char thp_enabled[32];		/* the active choice: always, madvise, never */
	int thp_defrag_err;		/* .../defrag */
	char thp_defrag[32];		/* always, defer, defer+madvise, madvise, never */

	struct knob ksm_run;		/* /sys/kernel/mm/ksm/run: 0 stopped, 1 running, 2 unmerge */
	struct knob numa_balancing;	/* /proc/sys/kernel/numa_balancing */
	/*
	 * The directories that hold those files exist: only then does a missing
	 * file say "not built in" rather than "not captured" (an empty --root).
	 */
	bool sys_mm_dir;		/* /sys/kernel/mm */
	bool sysctl_kernel_dir;		/* /proc/sys/kernel */

	int limits_err;			/* /proc/self/limits */
	struct proc_limits limits;
	int cap_err;			/* CapEff of /proc/self/status */
	uint64_t cap_eff;
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_memory(const struct rootfs *fs, struct memory_facts *out);
void probe_memory_free(struct memory_facts *out);

/*
 * Parse /proc/swaps (a header, then "/dev/sda2 partition 8388604 0 -2"
 * rows; sizes in KiB). Return: 0 or -EINVAL when the header is missing or
 * a row is malformed.
 */
int memory_parse_swaps(const char *buf, size_t len, unsigned int *devices, uint64_t *total_kb,
		       uint64_t *used_kb) __attribute__((warn_unused_result));

#endif
