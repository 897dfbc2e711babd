// SPDX-License-Identifier: MIT
/* The printer a step below src/cli reports through; see say.h. */
#include <stdarg.h>
#include <stdio.h>

#include "util/say.h"

void say(const struct say *to, bool warning, const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	to->line(to->ctx, warning, line);
}
