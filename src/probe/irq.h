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

/*
 * Whether the kernel manages an IRQ's affinity itself: the queue vectors
 * that drivers such as NVMe, virtio-blk and SAS spread over the CPUs
 * (pci_alloc_irq_vectors_affinity). User space cannot move them (EIO);
 * isolcpus=managed_irq keeps them off isolated CPUs where it can.
 */
enum irq_managed {
	IRQ_MANAGED_UNKNOWN = 0,	/* no debugfs, and no spread set seen */
	IRQ_MANAGED_NO,			/* debugfs: not managed */
	IRQ_MANAGED_YES,		/* debugfs: IRQD_AFFINITY_MANAGED */
	IRQ_MANAGED_SPREAD,		/* inferred: see irq_infer_spread() */
};

struct irq_info {
	int irq;
	int affinity_err;		/* 0, or why smp_affinity(_list) was not read */
	struct rtr_cpuset affinity;	/* what was requested */
	int effective_err;		/* -ENOENT: the kernel does not report it */
	struct rtr_cpuset effective;	/* where the chip actually delivers it */
	enum irq_managed managed;
	struct rtr_cpuset managed_effective;	/* debugfs "effectv:" (IRQ_MANAGED_YES/NO) */
};

struct irq_facts {
	int err;			/* 0, or why /proc/irq could not be listed */
	int default_err;		/* /proc/irq/default_smp_affinity */
	struct rtr_cpuset default_affinity;
	struct irq_info *irqs;		/* sorted by irq */
	size_t n;
	bool truncated;			/* IRQ_MAX_ENTRIES reached */
	int managed_err;		/* why debugfs irq/irqs could not be read (-ENOENT) */
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

/*
 * Without debugfs, tell managed IRQs from their pattern: the MSI vectors of
 * one device that share a name but for a trailing queue number
 * ("virtio0-req.2", "nvme0q3"), whose requested CPUs split the online CPUs
 * (the columns of /proc/interrupts) between them, with no CPU in two. A
 * wider vector of the same name (NVMe's admin queue, on every CPU) is left
 * out. Marks them IRQ_MANAGED_SPREAD where the managed state is unknown.
 * A network driver that spreads its queues by hand matches as well: a
 * check treats the mark as a likelihood. Pure, for tests.
 */
void irq_infer_spread(struct irq_facts *f);

/* The entry of IRQ @irq (binary search), or NULL. */
const struct irq_info *irq_facts_find(const struct irq_facts *f, int irq);

#endif
