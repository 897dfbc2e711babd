// SPDX-License-Identifier: MIT
/* Kernel command-line splitter; see cmdline.h. Modelled on the kernel's next_arg(). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cmdline.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

void cmdline_free(struct cmdline *cl)
{
	if (!cl)
		return;
	free(cl->text);
	free(cl->params);
	cl->text = NULL;
	cl->params = NULL;
	cl->n = 0;
}

/* Remove the double quotes of one argument in place (the kernel strips them). */
static void unquote(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++)
		if (*r != '"')
			*w++ = *r;
	*w = '\0';
}

int cmdline_parse(const char *buf, size_t len, struct cmdline *out)
{
	const char *nul;
	size_t cap = 0;
	char *p;

	memset(out, 0, sizeof(*out));
	if (len > CMDLINE_TEXT_MAX)
		return -EFBIG;
	nul = memchr(buf, '\0', len);
	if (nul)
		len = (size_t)(nul - buf);
	out->text = malloc(len + 1);
	if (!out->text)
		return -ENOMEM;
	memcpy(out->text, buf, len);
	out->text[len] = '\0';

	for (p = out->text; *p;) {
		bool quoted = false;
		char *start, *eq = NULL;

		while (blank(*p))
			p++;
		if (!*p)
			break;
		start = p;
		/* One argument: up to white space outside quotes. */
		for (; *p && (quoted || !blank(*p)); p++) {
			if (*p == '"')
				quoted = !quoted;
			else if (*p == '=' && !eq)
				eq = p;
		}
		if (*p)
			*p++ = '\0';
		if (strcmp(start, "--") == 0)
			break;	/* the rest is for init */
		if (out->n >= CMDLINE_PARAMS_MAX)
			continue;
		if (out->n == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct cmdline_param *np = realloc(out->params, ncap * sizeof(*np));

			if (!np) {
				cmdline_free(out);
				return -ENOMEM;
			}
			out->params = np;
			cap = ncap;
		}
		if (eq)
			*eq = '\0';
		unquote(start);
		if (eq)
			unquote(eq + 1);
		out->params[out->n].name = start;
		out->params[out->n].value = eq ? eq + 1 : NULL;
		out->n++;
	}
	return 0;
}

/* Parameter names match with '-' and '_' interchangeable. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct cmdline_param *cmdline_get(const struct cmdline *cl, const char *name)
{
	for (size_t i = cl ? cl->n : 0; i > 0; i--)
		if (same_name(cl->params[i - 1].name, name))
			return &cl->params[i - 1];
	return NULL;
}
