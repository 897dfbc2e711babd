/* SPDX-License-Identifier: MIT */
/* UTF-8 decoding for names and strings that come from untrusted sources. */
#ifndef RTR_UTIL_UTF8_H
#define RTR_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the valid UTF-8 sequence at @s (reading at most @n bytes; a
 * NUL ends a sequence early) and its code point in *@cp, or 0 when the
 * bytes there are not valid UTF-8: a stray continuation byte, a truncated
 * sequence, an overlong form, a surrogate, a value past U+10FFFF.
 */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* Flag of utf8_scrub(): replace control characters (C0, DEL, C1) too. */
#define UTF8_SCRUB_CONTROLS 1u

/*
 * Copy the @n bytes at @src into @dst (@size > 0 bytes, always NUL-ended),
 * with each byte that is not UTF-8, each character that does not fit
 * whole, and with UTF8_SCRUB_CONTROLS each control character, written as
 * '?'. The result is valid UTF-8. Return: its length.
 */
size_t utf8_scrub(char *dst, size_t size, const char *src, size_t n, unsigned flags);

#endif
