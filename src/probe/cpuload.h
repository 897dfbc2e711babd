/* SPDX-License-Identifier: MIT */
/*
 * The load housekeeping must carry, measured over a short window: the busy
 * time of the CPUs (/proc/stat's per-CPU lines: user, nice, system, irq,
 * softirq) and the device interrupts delivered (/proc/interrupts' numbered
 * rows). Two samples and their difference; the parser of /proc/stat is a
 * pure function of a buffer, like every parser of the probes.
 */
#ifndef RTR_PROBE_CPULOAD_H
#define RTR_PROBE_CPULOAD_H

#include <stddef.h>
#include <stdint.h>

#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* Keep housekeeping CPUs under this share busy (percent). */
#define CPULOAD_TARGET_PCT 50

struct cpuload_sample {
	uint64_t busy_ticks;	/* user + nice + system + irq + softirq, summed */
	uint64_t all_ticks;	/* busy + idle + iowait + steal, summed */
	size_t n_cpus;		/* CPU lines counted (those not excluded) */
	uint64_t irqs;		/* device interrupts so far (numbered rows, all CPUs) */
	int irqs_err;		/* /proc/interrupts unread: irqs is 0 */
};

/*
 * Sum the per-CPU lines ("cpu0 ...", not the "cpu" total) of /proc/stat
 * text, leaving out the CPUs in @exclude (may be NULL); @out is zeroed first.
 * Return: 0, -EINVAL when no CPU line could be read.
 */
int cpuload_parse_stat(const char *buf, size_t len, const struct rtr_cpuset *exclude,
		       struct cpuload_sample *out) __attribute__((warn_unused_result));

/* One sample of /proc/stat and /proc/interrupts under @fs. Return: 0 or -errno. */
int cpuload_sample(const struct rootfs *fs, const struct rtr_cpuset *exclude,
		   struct cpuload_sample *out) __attribute__((warn_unused_result));

struct cpuload {
	double busy_cpus;	/* CPUs' worth of busy time over the window */
	double irq_per_s;	/* device interrupts per second (-1: unknown) */
	size_t housekeeping;	/* CPUs that carry busy_cpus under CPULOAD_TARGET_PCT, >= 1 */
};

/*
 * The load between samples @a and @b taken @window_ns apart.
 * Return: 0, -EINVAL when the samples do not fit together (counters went
 * back, other CPUs, no time passed).
 */
int cpuload_between(const struct cpuload_sample *a, const struct cpuload_sample *b,
		    int64_t window_ns, struct cpuload *out) __attribute__((warn_unused_result));

#endif
