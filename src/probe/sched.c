// SPDX-License-Identifier: MIT
/* Reads the RT throttling knobs; see sched.h. */
#include <string.h>

#include "probe/sched.h"

void probe_sched(const struct rootfs *fs, struct sched_facts *s)
{
	memset(s, 0, sizeof(*s));
	s->rt_runtime_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_runtime_us",
					      &s->rt_runtime_us);
	s->rt_period_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_period_us",
					     &s->rt_period_us);
}

void probe_sched_free(struct sched_facts *s)
{
	(void)s;
}
