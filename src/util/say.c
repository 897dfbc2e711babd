// SPDX-License-Identifier: MIT
/* The printer a step below src/cli reports through; see say.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/say.h"

void say(const struct say *to, bool warning, const char *fmt, ...)
{
	char *line = NULL;
	va_list ap;
	int n;

	/* On the heap: rtready runs with ulimit -s 32, and a line may hold two paths. */
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	to->line(to->ctx, warning, n < 0 ? strerror(ENOMEM) : line);
	if (n >= 0)
		free(line);
}

int say_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return err;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}
