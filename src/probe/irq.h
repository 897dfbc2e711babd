/* SPDX-License-Identifier: MIT */
/* Facts of area 'irq' (to be filled by its probe). */
#ifndef RTR_PROBE_IRQ_H
#define RTR_PROBE_IRQ_H

#include "probe/rootfs.h"

struct irq_facts {
	int err;	/* 0, or why the area could not be read at all */
};

/* Fill @out from @fs. Never fails as a whole: fields carry their own errors. */
void probe_irq(const struct rootfs *fs, struct irq_facts *out);
void probe_irq_free(struct irq_facts *out);

#endif
