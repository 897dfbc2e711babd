// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: `rtready report`'s reader of result files (check,
 * latency, verify JSON), shape count before parse included, then the
 * verdict and the HTML page of what was read (its plots draw untrusted
 * histograms, overflows and outliers on log axes).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "render/html.h"
#include "report/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result r;
	char err[512];

	if (result_load_buffer((const char *)data, size, "fuzz", &r, err, sizeof(err)) == 0) {
		struct result_verdict v = { 0 };

		if (result_judge(&r, 100.0, &v) == 0) {
			const struct result *rs[1] = { &r };
			FILE *sink = fopen("/dev/null", "w");

			result_verdict_free(&r.verdict);
			r.verdict = v;
			if (sink) {
				(void)html_write(sink, rs, 1);
				fclose(sink);
			}
		}
	}
	result_free(&r);
	return 0;
}
