// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the checker's record lines (run/findings.c). The
 * program under test writes them, so they are as trusted as the program:
 * any bytes, truncated lines, repeated or contradictory records.
 */
#include <stddef.h>
#include <stdint.h>

#include "run/findings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct app_check c = { 0 };

	if (app_check_parse((const char *)data, size, &c) == 0) {
		if (c.n_recs > c.cap_recs || c.n_procs > c.cap_procs ||
		    c.n_modules > c.cap_modules || c.n_unjudged > c.cap_unjudged)
			__builtin_trap();
		for (size_t i = 0; i < c.n_modules; i++)
			if (!c.modules[i].obj)
				__builtin_trap();
	}
	app_check_free(&c);
	return 0;
}
