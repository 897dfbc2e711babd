/* SPDX-License-Identifier: MIT */
/*
 * Which CPUs are meant for realtime work, decided once for every command.
 * The user's --rt-cpus wins; else what the kernel isolates (the sysfs files
 * show what is in effect), else the command line that asked for it (on
 * kernels or snapshots without those files); CPUs isolated at run time by
 * cgroup v2 isolated partitions count as the boot's domain isolation does. check, tune, latency, verify
 * and inspect all take the RT CPUs from here, so they cannot disagree.
 */
#ifndef RTR_PROBE_RTCPUS_H
#define RTR_PROBE_RTCPUS_H

#include <stdbool.h>

#include "probe/cpu.h"
#include "rtready/cpuset.h"

enum rtcpus_source {
	RTCPUS_NONE,		/* nothing declared: the set is empty */
	RTCPUS_GIVEN,		/* --rt-cpus */
	RTCPUS_ISOLATED,	/* /sys/devices/system/cpu/isolated */
	RTCPUS_ISOLCPUS,	/* isolcpus= on the command line */
	RTCPUS_PARTITION,	/* cpuset.cpus.isolated: cgroup v2 isolated partitions */
	RTCPUS_NOHZ_FULL,	/* /sys/devices/system/cpu/nohz_full */
	RTCPUS_NOHZ_FULL_PARAM,	/* nohz_full= on the command line */
	RTCPUS_PLANNED,		/* --rt-cpus auto: the choice of rtready plan */
};

struct rtcpus {
	struct rtr_cpuset cpus;	/* empty when none is declared */
	enum rtcpus_source source;
};

#define RTCPUS_INIT { RTR_CPUSET_INIT, RTCPUS_NONE }

/*
 * Decide the RT CPUs from the CPU facts, or take @given (NULL: not given).
 * Return: 0 or -ENOMEM.
 */
int rtcpus_resolve(const struct cpu_facts *c, const struct rtr_cpuset *given, struct rtcpus *out)
	__attribute__((warn_unused_result));

/*
 * As rtcpus_resolve(); with @planned, @given is the planner's choice
 * (--rt-cpus auto) and the source says so. Return: 0 or -ENOMEM.
 */
int rtcpus_resolve_planned(const struct cpu_facts *c, const struct rtr_cpuset *given, bool planned,
			   struct rtcpus *out) __attribute__((warn_unused_result));

/*
 * The RT CPUs for a report's host block: "2-3", or "2-3 (planned)" when the
 * planner chose them. Return: the length needed, as rtr_cpuset_format_list().
 */
size_t rtcpus_format(const struct rtcpus *r, char *buf, size_t len);

/*
 * "--rt-cpus", "isolated CPUs", "isolcpus=", "isolated partition", "nohz_full",
 * "nohz_full=", "rtready plan", or NULL for none.
 */
const char *rtcpus_source_name(enum rtcpus_source s);

void rtcpus_free(struct rtcpus *r);

#endif
