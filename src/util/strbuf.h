/* SPDX-License-Identifier: MIT */
/* A growable NUL-terminated string for building evidence, fixes and output. */
#ifndef RTR_UTIL_STRBUF_H
#define RTR_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *s;	/* always NUL-terminated once anything was added; may be NULL */
	size_t len;
	size_t cap;
	int err;	/* sticky: -ENOMEM after a failed growth */
};

#define STRBUF_INIT { NULL, 0, 0, 0 }

/* Append formatted text; on allocation failure sets sb->err and keeps what it had. */
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
/* The text so far, "" when empty (never NULL). */
const char *strbuf_str(const struct strbuf *sb);
/* Hand the string over to the caller (free() it); the strbuf is reset. */
char *strbuf_take(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

#endif
