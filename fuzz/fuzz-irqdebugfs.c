// SPDX-License-Identifier: MIT
/* libFuzzer target: the debugfs IRQ file parser (managed flag, effective CPUs). */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/irqdebugfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtr_cpuset eff = RTR_CPUSET_INIT;
	bool managed;
	int rc = irq_debugfs_parse((const char *)data, size, &managed, &eff);

	/* Memory use is bounded by the input: a small input never runs out. */
	if (rc == -ENOMEM)
		__builtin_trap();
	rtr_cpuset_free(&eff);
	return 0;
}
