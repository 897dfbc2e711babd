// SPDX-License-Identifier: MIT
/* libFuzzer target: kernel config text (kconfig_parse and lookups). */
#include <stddef.h>
#include <stdint.h>

#include "probe/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kconfig kc;

	if (kconfig_parse((const char *)data, size, &kc) == 0) {
		/* Every stored option must be found again by name. */
		for (size_t i = 0; i < kc.n; i++)
			if (kconfig_get(&kc, kc.opts[i].name) != kc.opts[i].value)
				__builtin_trap();
		(void)kconfig_tristate(&kc, "CONFIG_PREEMPT_RT");
		kconfig_free(&kc);
	}
	return 0;
}
