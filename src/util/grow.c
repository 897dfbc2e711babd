// SPDX-License-Identifier: MIT
/* A growing array; see grow.h. */
#include <errno.h>
#include <stdlib.h>

#include "util/grow.h"

int grow_array(void **p, size_t *cap, size_t n, size_t size, size_t max)
{
	size_t c;
	void *q;

	if (n < *cap)
		return 0;
	if (*cap >= max)
		return -ENOSPC;
	c = *cap ? *cap * 2 : 256;
	if (c > max)
		c = max;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}
