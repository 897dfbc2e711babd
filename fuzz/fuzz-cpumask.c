// SPDX-License-Identifier: MIT
/* libFuzzer target: kernel hex cpu masks ("ff,00000001") and their round trip. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtready/cpuset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtr_cpuset a = RTR_CPUSET_INIT, b = RTR_CPUSET_INIT;
	char *s = malloc(size + 1), *out;
	size_t need;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (rtr_cpuset_parse_mask(&a, s) == 0) {
		need = rtr_cpuset_format_mask(&a, 0, NULL, 0);
		out = malloc(need + 1);
		if (out) {
			rtr_cpuset_format_mask(&a, 0, out, need + 1);
			if (rtr_cpuset_parse_mask(&b, out) != 0 || !rtr_cpuset_equal(&a, &b))
				__builtin_trap();
			free(out);
		}
	}
	rtr_cpuset_free(&a);
	rtr_cpuset_free(&b);
	free(s);
	return 0;
}
