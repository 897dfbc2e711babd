// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the option value parsers (util/parse.c) and
 * cli_time(), which read what users type: durations with units, sizes,
 * integers in a range. The first byte picks the bare number's unit.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opt.h"
#include "util/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t units[] = { 1, 1000, 1000000000 };
	char err[256], *s;
	int64_t unit, v, i;
	uint64_t bytes;

	if (size < 1)
		return 0;
	unit = units[data[0] % 3];
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (parse_duration_ns(s, unit, &v) == 0 && v < 0)
		__builtin_trap();
	(void)parse_size(s, &bytes);
	if (parse_int64(s, -100, 100, &i) == 0 && (i < -100 || i > 100))
		__builtin_trap();
	err[0] = '\0';
	if (cli_time("--x", s, unit, 1000, 10000000000LL, &v, err, sizeof(err)) == 0) {
		if (v < 1000 || v > 10000000000LL)
			__builtin_trap();
	} else if (!err[0] || !memchr(err, '\0', sizeof(err))) {
		__builtin_trap();
	}
	if (cli_time("--x", s, unit, 0, INT64_MAX, &v, err, sizeof(err)) == 0 && v < 0)
		__builtin_trap();
	free(s);
	return 0;
}
