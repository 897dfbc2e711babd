// SPDX-License-Identifier: MIT
/* Kernel configuration parser; see kconfig.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kconfig.h"

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* "CONFIG_" followed by at least one name character, up to @end. */
static size_t option_name(const char *s, const char *end)
{
	const char *p = s;

	if (end - s < 8 || memcmp(s, "CONFIG_", 7) != 0)
		return 0;
	p += 7;
	while (p < end && name_char(*p))
		p++;
	return p - s > 7 ? (size_t)(p - s) : 0;
}

static int by_name(const void *a, const void *b)
{
	const struct kconfig_opt *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* Equal names keep input order (pointers into one buffer grow). */
	if (c)
		return c;
	return (x->name > y->name) - (x->name < y->name);
}

void kconfig_free(struct kconfig *kc)
{
	if (!kc)
		return;
	free(kc->text);
	free(kc->opts);
	kc->text = NULL;
	kc->opts = NULL;
	kc->n = 0;
}

static int add(struct kconfig *kc, size_t *cap, const char *name, const char *value)
{
	if (kc->n >= KCONFIG_OPTIONS_MAX)
		return 0;	/* ignore the excess of a hostile file */
	if (kc->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 1024;
		struct kconfig_opt *o = realloc(kc->opts, ncap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		kc->opts = o;
		*cap = ncap;
	}
	kc->opts[kc->n].name = name;
	kc->opts[kc->n].value = value;
	kc->n++;
	return 0;
}

int kconfig_parse(const char *buf, size_t len, struct kconfig *out)
{
	static const char not_set[] = " is not set";
	size_t cap = 0, w = 0;
	char *t, *p, *end;
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (len > KCONFIG_TEXT_MAX)
		return -EFBIG;
	t = malloc(len + 1);
	if (!t)
		return -ENOMEM;
	memcpy(t, buf, len);
	t[len] = '\0';
	out->text = t;
	end = t + len;
	for (p = t; p < end && !err;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end, *next = nl ? nl + 1 : end;
		size_t n;

		*eol = '\0';
		if (eol > p && eol[-1] == '\r')
			eol[-1] = '\0', eol--;
		if (p[0] == '#' && p[1] == ' ' && (n = option_name(p + 2, eol)) &&
		    (size_t)(eol - (p + 2 + n)) == sizeof(not_set) - 1 &&
		    memcmp(p + 2 + n, not_set, sizeof(not_set) - 1) == 0) {
			p[2 + n] = '\0';
			err = add(out, &cap, p + 2, "n");
		} else if ((n = option_name(p, eol)) && p[n] == '=' &&
			   !memchr(p + n + 1, '\0', (size_t)(eol - (p + n + 1)))) {
			p[n] = '\0';
			err = add(out, &cap, p, p + n + 1);
		}
		p = next;
	}
	if (err || out->n == 0) {
		kconfig_free(out);
		return err ? err : -EINVAL;
	}
	/* Sort, then keep the last of equal names. */
	qsort(out->opts, out->n, sizeof(out->opts[0]), by_name);
	for (size_t r = 0; r < out->n; r++) {
		if (r + 1 < out->n && strcmp(out->opts[r].name, out->opts[r + 1].name) == 0)
			continue;
		out->opts[w++] = out->opts[r];
	}
	out->n = w;
	return 0;
}

const char *kconfig_get(const struct kconfig *kc, const char *name)
{
	size_t lo = 0, hi = kc ? kc->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, kc->opts[mid].name);

		if (c == 0)
			return kc->opts[mid].value;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

enum kconfig_tristate kconfig_tristate(const struct kconfig *kc, const char *name)
{
	const char *v = kconfig_get(kc, name);

	if (!v)
		return KCONFIG_ABSENT;
	if (strcmp(v, "y") == 0)
		return KCONFIG_YES;
	if (strcmp(v, "m") == 0)
		return KCONFIG_MODULE;
	if (strcmp(v, "n") == 0)
		return KCONFIG_NO;
	return KCONFIG_OTHER;
}
