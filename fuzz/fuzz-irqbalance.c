// SPDX-License-Identifier: MIT
/* libFuzzer target: the irqbalance environment file parser. */
#include <stddef.h>
#include <stdint.h>

#include "probe/irqbalance.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irqbalance_conf c;

	if (irqbalance_conf_parse((const char *)data, size, &c) == 0) {
		/* A value is either parsed or carries its error, never both. */
		if (c.has_cpulist && c.cpulist_err && !rtr_cpuset_is_empty(&c.cpulist))
			__builtin_trap();
		if (c.has_mask && c.mask_err && !rtr_cpuset_is_empty(&c.mask))
			__builtin_trap();
	}
	irqbalance_conf_free(&c);
	return 0;
}
