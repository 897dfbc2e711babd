// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the parser of cpuset.cpus.partition ("member", "root",
 * "isolated", or one of the last two with " invalid (reason)"), a file a
 * snapshot may fill with anything. Parsed into the buffers the probe uses
 * and into small ones (the first byte picks their sizes), so that a long
 * reason is cut, never written past its end; a value taken must be one of
 * the three types, and a valid one carries no reason.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/partition.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const char *text, size_t tlen, size_t rlen)
{
	/* Exactly the sizes asked for, on the heap: ASan sees a write past them. */
	char *type = malloc(tlen), *reason = malloc(rlen ? rlen : 1);
	bool valid = false;
	int err;

	if (!type || !reason)
		goto out;
	err = partition_parse_state(text, type, tlen, &valid, rlen ? reason : NULL, rlen);
	if (err && err != -EINVAL)
		__builtin_trap();
	if (!err) {
		if (strnlen(type, tlen) == tlen)
			__builtin_trap(); /* not terminated */
		if (tlen >= sizeof("isolated") && strcmp(type, "member") && strcmp(type, "root") &&
		    strcmp(type, "isolated"))
			__builtin_trap();
		if (rlen && strnlen(reason, rlen) == rlen)
			__builtin_trap();
		if (valid && rlen && reason[0])
			__builtin_trap();
	}
out:
	free(type);
	free(reason);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	/* The rest of the input, NUL-terminated as the probe's read gives it. */
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	one(text, 16, 160);
	one(text, 1 + data[0] % 16, data[0] / 16 % 12);
	free(text);
	return 0;
}
