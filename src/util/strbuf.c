// SPDX-License-Identifier: MIT
/* Growable strings; see strbuf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static int reserve(struct strbuf *sb, size_t more)
{
	size_t need, cap;
	char *s;

	if (sb->err)
		return sb->err;
	if (__builtin_add_overflow(sb->len, more + 1, &need))
		return sb->err = -ENOMEM;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	s = realloc(sb->s, cap);
	if (!s)
		return sb->err = -ENOMEM;
	sb->s = s;
	sb->cap = cap;
	return 0;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (reserve(sb, n))
		return;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0 && !reserve(sb, (size_t)n)) {
		vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, again);
		sb->len += (size_t)n;
	}
	va_end(again);
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}

char *strbuf_take(struct strbuf *sb)
{
	char *s = sb->s ? sb->s : strdup("");

	sb->s = NULL;
	sb->len = sb->cap = 0;
	sb->err = 0;
	return s;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->err = 0;
	if (sb->s)
		sb->s[0] = '\0';
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
	sb->err = 0;
}
