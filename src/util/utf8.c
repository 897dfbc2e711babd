// SPDX-License-Identifier: MIT
/* UTF-8 decoding; see utf8.h. */
#include <stdbool.h>
#include <string.h>

#include "util/utf8.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	uint32_t v;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, v = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, v = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, v = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

size_t utf8_scrub(char *dst, size_t size, const char *src, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < size;) {
		uint32_t cp = 0;
		size_t len = utf8_decode(s + i, n - i, &cp);
		bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);

		if (len == 0 || ((flags & UTF8_SCRUB_CONTROLS) && control) || o + len >= size) {
			dst[o++] = '?';
			i += len ? len : 1;
			continue;
		}
		memcpy(dst + o, s + i, len);
		o += len;
		i += len;
	}
	dst[o] = '\0';
	return o;
}
