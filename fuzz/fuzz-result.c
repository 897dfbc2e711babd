// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: `rtready report`'s reader of result files (check,
 * latency, verify JSON), shape count before parse included.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "report/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	char err[512];

	if (result_load_buffer((const char *)data, size, "fuzz", &r, err, sizeof(err)) == 0) {
		struct result_verdict v = { 0 };

		if (result_judge(&r, 100.0, &v) == 0)
			result_verdict_free(&v);
	}
	result_free(&r);
	return 0;
}
