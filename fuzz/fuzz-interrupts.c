// SPDX-License-Identifier: MIT
/* libFuzzer target: the /proc/interrupts parser, and lookups in its result. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/interrupts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct interrupts_table t;
	struct rtr_cpuset all = RTR_CPUSET_INIT;

	if (interrupts_parse((const char *)data, size, &t) == 0) {
		for (size_t i = 0; i < t.n_cols; i++)
			if (rtr_cpuset_set(&all, t.col_cpu[i]))
				__builtin_trap();
		for (size_t i = 0; i < t.n_rows; i++) {
			const struct interrupt_row *r = &t.rows[i];

			/* Counts stay inside the array; strings are terminated. */
			if (r->n_counts > t.n_cols || r->counts_off + r->n_counts > t.n_counts)
				__builtin_trap();
			if (strlen(r->actions) >= sizeof(r->actions) || strlen(r->chip) >= sizeof(r->chip))
				__builtin_trap();
			if (r->irq >= 0 && !interrupts_find(&t, r->irq))
				__builtin_trap();
			(void)interrupts_sum_on(&t, r, &all);
		}
	}
	interrupts_free(&t);
	rtr_cpuset_free(&all);
	return 0;
}
