// SPDX-License-Identifier: MIT
/* libFuzzer target: the irqbalance environment file parser and its setting finder. */
#include <stddef.h>
#include <stdint.h>

#include "probe/irqbalance.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irqbalance_conf c;
	struct irqbalance_setting s;

	if (irqbalance_conf_parse((const char *)data, size, &c) == 0) {
		/* A value is either parsed or carries its error, never both. */
		if (c.has_cpulist && c.cpulist_err && !rtr_cpuset_is_empty(&c.cpulist))
			__builtin_trap();
		if (c.has_mask && c.mask_err && !rtr_cpuset_is_empty(&c.mask))
			__builtin_trap();
	}
	irqbalance_conf_free(&c);
	/* The span the rewriter replaces lies in the input, the text inside the value. */
	irqbalance_find((const char *)data, size, "IRQBALANCE_BANNED_CPULIST", &s);
	if (s.form == IRQBALANCE_SET &&
	    (s.value_off + s.value_len > size || s.text_off < s.value_off ||
	     s.text_off + s.text_len > s.value_off + s.value_len))
		__builtin_trap();
	if (s.form == IRQBALANCE_UNREADABLE && !s.why)
		__builtin_trap();
	return 0;
}
