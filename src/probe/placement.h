/* SPDX-License-Identifier: MIT */
/*
 * Where devices and their interrupts are, for the CPU planner: the NUMA node
 * of an IRQ (/proc/irq/N/node) or of a network interface
 * (/sys/class/net/IFACE/device/numa_node), and which IRQs the kernel manages
 * itself (drivers that spread one queue vector per CPU, as NVMe does: their
 * affinity cannot be changed from user space). The managed flag is shown
 * only by debugfs (/sys/kernel/debug/irq/irqs/N, CONFIG_GENERIC_IRQ_DEBUGFS),
 * so without it the planner says it could not tell.
 */
#ifndef RTR_PROBE_PLACEMENT_H
#define RTR_PROBE_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/irq.h"
#include "probe/rootfs.h"
#include "rtready/cpuset.h"

struct managed_irqs {
	int err;		/* 0, or why debugfs could not be read (-ENOENT, -EACCES) */
	size_t n;		/* managed IRQs seen */
	struct rtr_cpuset cpus;	/* the CPUs they are delivered to (effective affinity) */
};

/*
 * The managed IRQs of @irqs (IRQ_MANAGED_YES: debugfs said so) and where
 * they are delivered. out->err says why it could not be told (no debugfs).
 * Return: 0 or -ENOMEM.
 */
int probe_managed_irqs(const struct irq_facts *irqs, struct managed_irqs *out)
	__attribute__((warn_unused_result));
void managed_irqs_free(struct managed_irqs *m);

/*
 * *@node from /proc/irq/@irq/node (-1: none). Return: 0, -EBADMSG when the
 * file holds no node number, or -errno.
 */
int probe_irq_node(const struct rootfs *fs, int irq, int *node)
	__attribute__((warn_unused_result));

/*
 * *@node from /sys/class/net/@iface/device/numa_node, or its parent's for a
 * virtio-net device (-1: the device is on
 * no node, a virtual interface has no device: -ENOENT). Return: 0, -EINVAL
 * for a name that is not an interface name, -EBADMSG when the file holds no
 * node number, or -errno.
 */
int probe_net_node(const struct rootfs *fs, const char *iface, int *node)
	__attribute__((warn_unused_result));

/* A network interface and the NUMA node of its device. */
struct net_node {
	char name[16];
	int node;		/* -1: on no node */
};

/* A bound on the interfaces listed. */
#define PLACEMENT_MAX_NETS 4096

/*
 * Every interface under /sys/class/net with a device/numa_node (virtual
 * ones have none and are left out; virtio-net ones too, whose node is on
 * the parent device), sorted by name; free(*@out). Return: 0,
 * -ENOMEM, or why /sys/class/net could not be listed.
 */
int probe_net_nodes(const struct rootfs *fs, struct net_node **out, size_t *n)
	__attribute__((warn_unused_result));

#endif
