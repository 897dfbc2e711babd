/* SPDX-License-Identifier: MIT */
/*
 * Parser of irqbalance's environment file (/etc/default/irqbalance on
 * Debian, /etc/sysconfig/irqbalance on Red Hat): shell-style KEY=value
 * lines. Only the CPU bans matter to rtready: IRQBALANCE_BANNED_CPULIST
 * (a cpu list, irqbalance 1.8+) and IRQBALANCE_BANNED_CPUS (a hex mask,
 * older). When neither is set irqbalance bans the isolated and nohz_full
 * CPUs by itself; when one is set, only those CPUs are banned. A pure
 * function of a buffer (input may be hostile).
 */
#ifndef RTR_PROBE_IRQBALANCE_H
#define RTR_PROBE_IRQBALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "rtready/cpuset.h"

struct irqbalance_conf {
	bool has_cpulist;		/* IRQBALANCE_BANNED_CPULIST set (non-empty) */
	int cpulist_err;		/* its parse error, 0 when valid */
	struct rtr_cpuset cpulist;
	bool has_mask;			/* IRQBALANCE_BANNED_CPUS set (non-empty) */
	int mask_err;
	struct rtr_cpuset mask;
	bool oneshot;			/* IRQBALANCE_ONESHOT set, or --oneshot in IRQBALANCE_ARGS */
};

/*
 * Parse @len bytes of the file into @out (zeroed first). Comments,
 * "export ", quotes and unknown keys are handled; a bad value is kept as
 * its *_err. Free with irqbalance_conf_free().
 * Return: 0 or -ENOMEM.
 */
int irqbalance_conf_parse(const char *buf, size_t len, struct irqbalance_conf *out)
	__attribute__((warn_unused_result));
void irqbalance_conf_free(struct irqbalance_conf *c);

#endif
