/* SPDX-License-Identifier: MIT */
/* Scheduler knobs: RT throttling (sched_rt_runtime_us / sched_rt_period_us). */
#ifndef RTR_PROBE_SCHED_H
#define RTR_PROBE_SCHED_H

#include <stdint.h>

#include "probe/rootfs.h"

struct sched_facts {
	int rt_runtime_err;		/* 0 when rt_runtime_us was read, else -errno */
	int64_t rt_runtime_us;		/* -1: throttling off */
	int rt_period_err;
	int64_t rt_period_us;
};

/* Fill @s from /proc/sys/kernel. Never fails: each field carries its error. */
void probe_sched(const struct rootfs *fs, struct sched_facts *s);
void probe_sched_free(struct sched_facts *s);

#endif
