// SPDX-License-Identifier: MIT
/*
 * markup_escape(), the one function between result text and the HTML page
 * or the JUnit file, and the Prometheus label escaper: exact outputs for
 * hostile strings, and a property check over random bytes (the output
 * never contains a raw markup character, is valid UTF-8, and holds no
 * character XML 1.0 forbids).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "render/markup.h"
#include "render/prometheus.h"

static char *run(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, in);
	fclose(f);
	return buf;
}

/* What @fn writes for @in is exactly @want. */
static void expect_fn(void (*fn)(FILE *, const char *), const char *in, const char *want)
{
	char *got = run(fn, in);

	assert_string_equal(got, want);
	free(got);
}

static void expect(const char *in, const char *want)
{
	expect_fn(markup_escape, in, want);
}

static void put_dd(FILE *f, const char *in)
{
	markup_put(f, "<dd class=\"x\">", in, "</dd>");
}

/* markup_put(): the tags as they are, the text between them escaped, nothing for NULL. */
static void test_put(void **state)
{
	(void)state;
	expect_fn(put_dd, "a<b & \"c\"", "<dd class=\"x\">a&lt;b &amp; &quot;c&quot;</dd>");
	expect_fn(put_dd, NULL, "<dd class=\"x\"></dd>");
}

static void test_exact(void **state)
{
	(void)state;
	expect("", "");
	expect("plain text 0-3", "plain text 0-3");
	expect("<script>alert('x')</script>",
	       "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	expect("a & b \"c\"", "a &amp; b &quot;c&quot;");
	expect("&amp;", "&amp;amp;");	/* already escaped text is text */
	expect("]]> <!-- --> </pre>", "]]&gt; &lt;!-- --&gt; &lt;/pre&gt;");
	expect("l1\nl2\tx\r", "l1&#10;l2&#9;x&#13;");
	/* Controls, DEL and the non-characters XML forbids become U+FFFD. */
	expect("a\x01" "b\x1f" "c\x7f", "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd");
	expect("\xef\xbf\xbe\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd");
	/* Valid UTF-8 passes unchanged: µ, em dash, an emoji. */
	expect("\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80", "\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80");
	/* Malformed: lone continuation, truncated, overlong, surrogate, past U+10FFFF. */
	expect("\x80", "\xef\xbf\xbd");
	expect("a\xc3", "a\xef\xbf\xbd");
	expect("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	expect("\xe0\x80\xaf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	expect("\xed\xa0\x80", "\xef\xbf\xbd");
	expect("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* NULL writes nothing. */
	{
		char *got = run(markup_escape, NULL);

		assert_string_equal(got, "");
		free(got);
	}
}

/* Is @s valid UTF-8 with only XML-allowed characters and no raw < > " ' ? */
static bool clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		uint32_t c;
		int len;

		if (*p < 0x80) {
			if (*p == '<' || *p == '>' || *p == '"' || *p == '\'')
				return false;
			if (*p < 0x20 || *p == 0x7f)
				return false;	/* even tab/newline are references */
			if (*p == '&' && !(strncmp((const char *)p, "&amp;", 5) == 0 ||
					   strncmp((const char *)p, "&lt;", 4) == 0 ||
					   strncmp((const char *)p, "&gt;", 4) == 0 ||
					   strncmp((const char *)p, "&quot;", 6) == 0 ||
					   strncmp((const char *)p, "&#", 2) == 0))
				return false;
			p++;
			continue;
		}
		if (*p >= 0xc2 && *p <= 0xdf)
			len = 2, c = *p & 0x1f;
		else if (*p >= 0xe0 && *p <= 0xef)
			len = 3, c = *p & 0x0f;
		else if (*p >= 0xf0 && *p <= 0xf4)
			len = 4, c = *p & 0x07;
		else
			return false;
		for (int i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			c = (c << 6) | (p[i] & 0x3f);
		}
		if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)))
			return false;
		if ((c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
			return false;
		p += len;
	}
	return true;
}

static void test_random_bytes(void **state)
{
	unsigned int seed = 12345;
	char in[64];

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand_r(&seed) % (sizeof(in) - 1));
		char *out;

		for (size_t i = 0; i < n; i++) {
			/* Bias towards the interesting bytes. */
			static const char pick[] = "<>&\"'\n\t\x01\x7f\x80\xc3\xed\xef\xf0\xf4\xbf";

			in[i] = rand_r(&seed) % 3 ? pick[rand_r(&seed) % (sizeof(pick) - 1)]
						  : (char)(rand_r(&seed) % 255 + 1);
		}
		in[n] = '\0';
		out = run(markup_escape, in);
		assert_true(clean(out));
		free(out);
	}
}

static void test_prom_label(void **state)
{
	(void)state;
	expect_fn(prom_escape_label, "a\"b\\c\nd <e> \xc2\xb5", "a\\\"b\\\\c\\nd <e> \xc2\xb5");
	expect_fn(prom_escape_label, NULL, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_prom_label),
	};

	return unit_run(tests, NULL, NULL);
}
