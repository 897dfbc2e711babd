/* SPDX-License-Identifier: MIT */
/*
 * The facts every report's host block needs, gathered once under a root:
 * the kernel release as the root shows it (never uname() of the machine
 * running rtready, which is wrong for --root), the CPU sets and the RT CPUs.
 * Commands that do not need every fact (latency, tune, inspect) probe this
 * instead of reading the same files each in their own way.
 */
#ifndef RTR_PROBE_HOST_H
#define RTR_PROBE_HOST_H

#include "probe/cpu.h"
#include "probe/rootfs.h"
#include "probe/rtcpus.h"

struct host_facts {
	int release_err;	/* /proc/sys/kernel/osrelease */
	char release[128];
	char hostname[72];	/* /proc/sys/kernel/hostname (64 bytes at most), "" when unread */
	struct cpu_facts cpu;	/* online, isolated, nohz_full, boot parameters */
	struct rtcpus rt;
	char online_list[4096];	/* cpu.online as a list, "" when unread */
	char rt_list[4096];	/* rt.cpus as a list, "" when none */
};

/*
 * Probe @fs for the host facts and resolve the RT CPUs (@given: --rt-cpus,
 * or NULL). Return: 0, -ENOMEM, or the error of reading the online CPUs
 * (without them nothing can be measured or tuned).
 */
int probe_host(const struct rootfs *fs, const struct rtr_cpuset *given, struct host_facts *h)
	__attribute__((warn_unused_result));
/*
 * As probe_host(); with @planned, @given is the planner's choice (--rt-cpus
 * auto), and rt_list says "(planned)".
 */
int probe_host_rt(const struct rootfs *fs, const struct rtr_cpuset *given, bool planned,
		  struct host_facts *h) __attribute__((warn_unused_result));
void probe_host_free(struct host_facts *h);

#endif
