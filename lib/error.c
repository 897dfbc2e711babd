// SPDX-License-Identifier: MIT
/*
 * The per-thread explanation of the last failure (rtr_last_error()). A
 * thread-local buffer: no allocation, no lock, and each thread sees only
 * its own message.
 */
#include <stdarg.h>
#include <stdio.h>

#include "rtready/error.h"
#include "internal.h"

static _Thread_local char last_error[768];

int rtr__fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

void rtr__clear_error(void)
{
	last_error[0] = '\0';
}

RTR_EXPORT const char *rtr_last_error(void)
{
	return last_error;
}
