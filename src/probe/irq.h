/* SPDX-License-Identifier: MIT */
/*
 * Facts of area 'irq': the default affinity of new interrupts, every IRQ's
 * requested (smp_affinity_list) and effective (effective_affinity_list)
 * CPUs from /proc/irq/N, the names and per-CPU counts of /proc/interrupts,
 * and irqbalance's CPU bans from its environment file. Whether irqbalance
 * runs comes from the tasks facts.
 */
#ifndef RTR_PROBE_IRQ_H
#define RTR_PROBE_IRQ_H

#include "probe/interrupts.h"
#include "probe/irqbalance.h"
#include "probe/rootfs.h"
#include "rtready/cpuset.h"

/* A bound on /proc/irq entries: far above real machines. */
#define IRQ_MAX_ENTRIES (1u << 18)

struct irq_info {
	int irq;
	int affinity_err;		/* 0, or why smp_affinity(_list) was not read */
	struct rtr_cpuset affinity;	/* what was requested */
	int effective_err;		/* -ENOENT: the kernel does not report it */
	struct rtr_cpuset effective;	/* where the chip actually delivers it */
};

struct irq_facts {
	int err;			/* 0, or why /proc/irq could not be listed */
	int default_err;		/* /proc/irq/default_smp_affinity */
	struct rtr_cpuset default_affinity;
	struct irq_info *irqs;		/* sorted by irq */
	size_t n;
	bool truncated;			/* IRQ_MAX_ENTRIES reached */
	int interrupts_err;		/* /proc/interrupts read or parse error */
	struct interrupts_table interrupts;
	int balance_err;		/* -ENOENT: no irqbalance environment file */
	char balance_path[64];		/* the file read */
	struct irqbalance_conf balance;
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_irq(const struct rootfs *fs, struct irq_facts *out);
/*
 * As probe_irq() with /proc/irq only: the affinities, without the names and
 * counts of /proc/interrupts (tens of MiB on a large machine) and without
 * irqbalance's configuration (interrupts_err and balance_err are -ENODATA).
 */
void probe_irq_affinity(const struct rootfs *fs, struct irq_facts *out);
void probe_irq_free(struct irq_facts *out);

/* The entry of IRQ @irq (binary search), or NULL. */
const struct irq_info *irq_facts_find(const struct irq_facts *f, int irq);

#endif
