// SPDX-License-Identifier: MIT
/* libFuzzer target: the kernel log parser (/dev/kmsg records, or a snapshot's copy). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_facts k;

	memset(&k, 0, sizeof(k));
	kmsg_parse((const char *)data, size, &k);
	for (int e = 0; e < KMSG_EVENT_COUNT; e++) {
		/* Every kept message is NUL-ended inside its buffer. */
		if (memchr(k.hits[e].last, '\0', sizeof(k.hits[e].last)) == NULL)
			__builtin_trap();
		if (k.hits[e].count > k.records)
			__builtin_trap();
	}
	return 0;
}
