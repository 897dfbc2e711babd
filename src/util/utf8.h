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

#endif
