// SPDX-License-Identifier: MIT
/*
 * irqbalance environment file parser; see irqbalance.h. The file is read
 * by systemd's EnvironmentFile= or sourced by an init script, so we accept
 * what both accept in practice: "KEY=value", "KEY="value"", "KEY='value'",
 * an optional "export ", comments and blank lines.
 */
#include <errno.h>
#include <string.h>

#include "probe/irqbalance.h"

/* Longest value we look at: a cpu list for 8192 CPUs fits easily. */
#define VALUE_MAX 8192

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * The value after '=' into @out: quotes removed, a bare value ends at a
 * blank or '#'. Return: false when it does not fit or is unterminated.
 */
static bool unquote(const char *p, size_t n, char *out, size_t outlen)
{
	size_t i = 0, o = 0;
	char q = 0;

	if (n && (p[0] == '"' || p[0] == '\'')) {
		q = p[0];
		i = 1;
	}
	for (; i < n; i++) {
		if (q && p[i] == q) {
			q = 0;
			break;
		}
		if (!q && (blank(p[i]) || p[i] == '#'))
			break;
		if (p[i] == '\0' || o + 1 >= outlen)
			return false;
		out[o++] = p[i];
	}
	out[o] = '\0';
	return q == 0;
}

static bool key_is(const char *p, size_t n, const char *key)
{
	return n == strlen(key) && memcmp(p, key, n) == 0;
}

/* "-o" or "--oneshot" among the blank-separated words of @args. */
static bool has_oneshot_arg(char *args)
{
	char *save = NULL;

	for (char *w = strtok_r(args, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (strcmp(w, "-o") == 0 || strcmp(w, "--oneshot") == 0)
			return true;
	return false;
}

int irqbalance_conf_parse(const char *buf, size_t len, struct irqbalance_conf *out)
{
	char value[VALUE_MAX];
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos), *eq;
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t k;

		pos += n + 1;
		while (n && blank(*line)) {
			line++;
			n--;
		}
		if (n >= 7 && memcmp(line, "export ", 7) == 0) {
			line += 7;
			n -= 7;
			while (n && blank(*line)) {
				line++;
				n--;
			}
		}
		if (!n || *line == '#')
			continue;
		eq = memchr(line, '=', n);
		if (!eq)
			continue;
		k = (size_t)(eq - line);
		if (!unquote(eq + 1, n - k - 1, value, sizeof(value)))
			value[0] = '\x01';	/* unusable: reported as -EINVAL below */
		/* Like the shell, the last assignment wins; an empty one unsets. */
		if (key_is(line, k, "IRQBALANCE_BANNED_CPULIST")) {
			rtr_cpuset_clear(&out->cpulist);
			out->has_cpulist = value[0] != '\0';
			out->cpulist_err = !value[0] ? 0 : value[0] == '\x01' ? -EINVAL :
					   rtr_cpuset_parse_list(&out->cpulist, value);
		} else if (key_is(line, k, "IRQBALANCE_BANNED_CPUS")) {
			rtr_cpuset_clear(&out->mask);
			out->has_mask = value[0] != '\0';
			out->mask_err = !value[0] ? 0 : value[0] == '\x01' ? -EINVAL :
					rtr_cpuset_parse_mask(&out->mask, value);
		} else if (key_is(line, k, "IRQBALANCE_ONESHOT") && value[0]) {
			out->oneshot = true;
		} else if (key_is(line, k, "IRQBALANCE_ARGS") && value[0] != '\x01') {
			out->oneshot = out->oneshot || has_oneshot_arg(value);
		}
		if (out->cpulist_err == -ENOMEM || out->mask_err == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

void irqbalance_conf_free(struct irqbalance_conf *c)
{
	if (!c)
		return;
	rtr_cpuset_free(&c->cpulist);
	rtr_cpuset_free(&c->mask);
}
