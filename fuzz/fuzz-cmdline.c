// SPDX-License-Identifier: MIT
/* libFuzzer target: the kernel command line splitter. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmdline cl;

	if (cmdline_parse((const char *)data, size, &cl) == 0) {
		for (size_t i = 0; i < cl.n; i++) {
			/* Names and values are C strings inside the owned text. */
			if (strlen(cl.params[i].name) > size)
				__builtin_trap();
			if (!cmdline_get(&cl, cl.params[i].name))
				__builtin_trap();
		}
		(void)cmdline_get(&cl, "isolcpus");
		cmdline_free(&cl);
	}
	return 0;
}
