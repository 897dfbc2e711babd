// SPDX-License-Identifier: MIT
/*
 * Markup escaping; see markup.h. Input is decoded as UTF-8 one code point
 * at a time so that a byte sequence XML cannot carry (a truncated or
 * overlong sequence, a surrogate, a control character) is replaced rather
 * than passed on to make xmllint or a CI server reject the whole file.
 */
#include <stdbool.h>
#include <stdint.h>

#include "render/markup.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/*
 * Decode one UTF-8 code point at @p; return its length (1..4) and the code
 * point in *cp, or 0 when the sequence is malformed (then skip one byte).
 */
static int utf8_decode(const unsigned char *p, uint32_t *cp)
{
	uint32_t c;
	int len;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		c = p[0] & 0x1f;
		len = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		c = p[0] & 0x0f;
		len = 3;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		c = p[0] & 0x07;
		len = 4;
	} else {
		return 0;	/* continuation byte, 0xc0/0xc1 (overlong), 0xf5+ */
	}
	/* The NUL terminator is not a continuation byte, so this stops at the end. */
	for (int i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;	/* overlong or beyond Unicode */
	*cp = c;
	return len;
}

static bool xml_allowed(uint32_t c)
{
	if (c < 0x20)
		return c == '\t' || c == '\n' || c == '\r';
	if (c == 0x7f)
		return false;
	if (c >= 0xd800 && c <= 0xdfff)
		return false;
	return c != 0xfffe && c != 0xffff;
}

void markup_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s)
		return;
	while (*p) {
		uint32_t c;
		int len = utf8_decode(p, &c);

		if (len == 0) {
			fputs(replacement, out);
			p++;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		case '\t': fputs("&#9;", out); break;
		case '\n': fputs("&#10;", out); break;
		case '\r': fputs("&#13;", out); break;
		default:
			if (xml_allowed(c))
				fwrite(p, 1, (size_t)len, out);
			else
				fputs(replacement, out);
		}
		p += len;
	}
}

void markup_put(FILE *out, const char *before, const char *s, const char *after)
{
	fputs(before, out);
	markup_escape(out, s);
	fputs(after, out);
}
