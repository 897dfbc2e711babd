// SPDX-License-Identifier: MIT
/* Lookup in a sorted array; see sorted.h. */
#include <string.h>

#include "util/sorted.h"

const void *sorted_find_int(const void *base, size_t n, size_t size, size_t key_offset, int key)
{
	const char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k;

		memcpy(&k, b + mid * size + key_offset, sizeof(k));
		if (k == key)
			return b + mid * size;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int sorted_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}
