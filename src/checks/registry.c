// SPDX-License-Identifier: MIT
/* Every area's table, in the order the checklist walks them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checks/check.h"

static const struct {
	const struct check *rows;
	const size_t *n;
} areas[] = {
	{ kernel_checks, &kernel_checks_n },
	{ sched_checks, &sched_checks_n },
	{ cpu_checks, &cpu_checks_n },
	{ irq_checks, &irq_checks_n },
	{ mem_checks, &mem_checks_n },
	{ platform_checks, &platform_checks_n },
};

size_t checks_count(void)
{
	size_t n = 0;

	for (size_t a = 0; a < sizeof(areas) / sizeof(areas[0]); a++)
		n += *areas[a].n;
	return n;
}

const struct check *checks_at(size_t i)
{
	for (size_t a = 0; a < sizeof(areas) / sizeof(areas[0]); a++) {
		if (i < *areas[a].n)
			return &areas[a].rows[i];
		i -= *areas[a].n;
	}
	return NULL;
}

void check_set(struct check_out *out, enum rtr_status status, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	out->status = status;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strbuf_reset(&out->evidence);
	strbuf_puts(&out->evidence, buf);
}

void check_fix(struct check_out *out, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	strbuf_reset(&out->fix);
	strbuf_puts(&out->fix, buf);
}

void check_skip_read(struct check_out *out, const char *path, int err)
{
	err = err < 0 ? -err : err;
	/* Parsers say EINVAL/ERANGE for content they cannot use: say that, not "cannot read". */
	if (err == EINVAL || err == ERANGE)
		check_set(out, RTR_SKIP, "%s is not in the expected format (or not a regular file)",
			  path);
	else if (err == EFBIG)
		check_set(out, RTR_SKIP, "%s is larger than rtready reads", path);
	else
		check_set(out, RTR_SKIP, "cannot read %s: %s", path, strerror(err));
}
