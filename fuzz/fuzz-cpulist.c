// SPDX-License-Identifier: MIT
/* libFuzzer target: kernel cpu lists ("0-3,8,10-15:2") and their round trip. */
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
	if (rtr_cpuset_parse_list(&a, s) == 0) {
		/* Formatting and parsing again gives the same set. */
		need = rtr_cpuset_format_list(&a, NULL, 0);
		out = malloc(need + 1);
		if (out) {
			rtr_cpuset_format_list(&a, out, need + 1);
			if (rtr_cpuset_parse_list(&b, out) != 0 || !rtr_cpuset_equal(&a, &b))
				__builtin_trap();
			free(out);
		}
	}
	rtr_cpuset_free(&a);
	rtr_cpuset_free(&b);
	free(s);
	return 0;
}
