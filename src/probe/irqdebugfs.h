/* SPDX-License-Identifier: MIT */
/*
 * One IRQ's debugfs file, /sys/kernel/debug/irq/irqs/N (kernel/irq/debugfs.c,
 * CONFIG_GENERIC_IRQ_DEBUGFS): the only place the kernel says that it
 * manages an IRQ's affinity itself (IRQD_AFFINITY_MANAGED).
 */
#ifndef RTR_PROBE_IRQDEBUGFS_H
#define RTR_PROBE_IRQDEBUGFS_H

#include <stdbool.h>
#include <stddef.h>

#include "rtready/cpuset.h"

/* A debugfs IRQ file is well under a page; cap it anyway. */
#define IRQ_DEBUGFS_CAP (64u << 10)

/*
 * Parse one file:
 *
 *   handler:  handle_edge_irq
 *   dstate:   0x3560a200
 *               IRQD_ACTIVATED
 *               IRQD_AFFINITY_MANAGED
 *   affinity: 0-3
 *   effectv:  2
 *
 * *@managed: the IRQD_AFFINITY_MANAGED state is listed; @effective: the
 * "effectv:" CPUs (else "affinity:"), left empty when neither is there.
 * Pure, for tests and fuzzing. Return: 0, -EINVAL for a bad CPU list or a
 * NUL byte, -ENOMEM.
 */
int irq_debugfs_parse(const char *text, size_t len, bool *managed, struct rtr_cpuset *effective)
	__attribute__((warn_unused_result));

#endif
