// SPDX-License-Identifier: MIT
/* libFuzzer target: the ELF symbol table reader (32- and 64-bit) of run --check's backtraces. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "run/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t off = 0, symoff;
	char name[64];

	/* The first 4 bytes choose the offset looked up; the rest is the file. */
	if (size < 4)
		return 0;
	for (int i = 0; i < 4; i++)
		off = off << 8 | data[i];
	(void)symtab_lookup_mem(data + 4, size - 4, off, name, sizeof(name), &symoff);
	return 0;
}
