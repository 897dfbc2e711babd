/* SPDX-License-Identifier: MIT */
/*
 * All facts `check` needs about one machine, gathered in one pass from a
 * root directory. Plain data: no file handles survive gathering, so checks
 * (pure functions of these structs) can be tested on hand-made facts. Each
 * area has its own probe and header; a field that could not be read
 * carries the negative errno that explains why, so a check can say "skip"
 * with a reason instead of guessing.
 */
#ifndef RTR_PROBE_FACTS_H
#define RTR_PROBE_FACTS_H

#include "probe/cpu.h"
#include "probe/dlbw.h"
#include "probe/irq.h"
#include "probe/kernel.h"
#include "probe/kmsg.h"
#include "probe/memory.h"
#include "probe/partition.h"
#include "probe/platform.h"
#include "probe/rootfs.h"
#include "probe/sched.h"
#include "probe/tasks.h"
#include "probe/tuned.h"

struct facts {
	char root[4096];	/* the root directory read, for evidence */
	bool host;		/* the live machine, not a snapshot */
	struct kernel_facts kernel;	/* uname, config, cmdline, preemption */
	struct sched_facts sched;	/* RT throttling, RT group scheduling */
	struct tasks_facts tasks;	/* every task: policy, priority, affinity */
	struct dlbw_facts dlbw;		/* SCHED_DEADLINE bandwidth in use */
	struct cpu_facts cpu;		/* online, isolated, topology, governors, idle */
	struct partition_facts partition;	/* cgroup v2 isolated partitions */
	struct irq_facts irq;		/* /proc/interrupts, /proc/irq/N */
	struct memory_facts memory;	/* swap, THP, KSM, limits */
	struct platform_facts platform;	/* clock source, hypervisor */
	struct kmsg_facts kmsg;		/* the kernel log's realtime failures */
	struct tuned_facts tuned;	/* tuned's active profile */
};

/* Gather everything from @fs into @f. Return: 0 or -ENOMEM. */
int facts_gather(const struct rootfs *fs, struct facts *f);
void facts_free(struct facts *f);

#endif
