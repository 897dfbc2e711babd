// SPDX-License-Identifier: MIT
/*
 * irqbalance environment file parser; see irqbalance.h for the grammar.
 * The file is read by systemd's EnvironmentFile= or sourced by an init
 * script; the grammar is the part of shell syntax whose meaning is plain,
 * and a line outside it that names a key is reported, never guessed at, so
 * that what rtready reads and what it rewrites are always the same span.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/irqbalance.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A character that ends a bare word, or gives it a meaning beyond its text. */
static bool special(char c)
{
	return c == '\0' || blank(c) || strchr("\"'\\$`;&|<>()", c) != NULL;
}

/* Whether @key occurs in the @n bytes at @p as a whole word. */
static bool names_key(const char *p, size_t n, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(p + i, key, k) == 0 && (i == 0 || !word_char(p[i - 1])) &&
		    (i + k == n || !word_char(p[i + k])))
			return true;
	return false;
}

/*
 * One line (@n bytes at @line, starting at offset @off of the file) against
 * the grammar. Return: whether it names @key; *@out is filled when it does.
 */
static bool scan_line(const char *line, size_t n, size_t off, const char *key,
		      struct irqbalance_setting *out)
{
	size_t i = 0, k = strlen(key), v;
	bool exported = false;

	while (i < n && blank(line[i]))
		i++;
	if (i == n || line[i] == '#')
		return false;	/* blank or a comment */
	if (!names_key(line + i, n - i, key))
		return false;
	memset(out, 0, sizeof(*out));
	out->form = IRQBALANCE_UNREADABLE;
	if (n - i > 6 && memcmp(line + i, "export", 6) == 0 && blank(line[i + 6])) {
		exported = true;
		for (i += 6; i < n && blank(line[i]); i++)
			;
	}
	if (n - i < k || memcmp(line + i, key, k) != 0 || (n - i > k && word_char(line[i + k]))) {
		out->why = "the key is not at the start of the line (a command, an expansion "
			   "or another assignment names it)";
		return true;
	}
	i += k;
	if (i == n || line[i] != '=') {
		size_t j = i;

		while (j < n && blank(line[j]))
			j++;
		if (exported && (j == n || line[j] == '#'))
			return false;	/* "export KEY": exports, sets nothing */
		out->why = "no '=' right after the key (the shell reads 'KEY = value' as a "
			   "command)";
		return true;
	}
	v = ++i;
	if (i < n && (line[i] == '"' || line[i] == '\'')) {
		const char *close = memchr(line + i + 1, line[i], n - i - 1);

		out->quote = line[i];
		if (!close) {
			out->why = "an unterminated quote";
			return true;
		}
		out->text_off = off + i + 1;
		out->text_len = (size_t)(close - (line + i + 1));
		for (size_t j = i + 1; j < i + 1 + out->text_len; j++) {
			if (line[j] == '\0') {
				out->why = "a NUL byte in the value";
				return true;
			}
			if (out->quote == '"' && strchr("\\$`", line[j])) {
				out->why = "an escape or expansion ('\\', '$' or '`') in the "
					   "quoted value";
				return true;
			}
		}
		i = (size_t)(close - line) + 1;
	} else {
		while (i < n && !special(line[i]))
			i++;
		out->text_off = off + v;
		out->text_len = i - v;
	}
	out->value_off = off + v;
	out->value_len = i - v;
	if (i < n && !blank(line[i])) {
		out->why = "the value is not one plain word or quoted string (an escape, an "
			   "expansion, an operator or a second part joined to it)";
		return true;
	}
	while (i < n && blank(line[i]))
		i++;
	if (i < n && line[i] != '#') {
		out->why = "more words after the value (the shell runs them as a command)";
		return true;
	}
	out->form = IRQBALANCE_SET;
	out->why = NULL;
	return true;
}

void irqbalance_find(const char *buf, size_t len, const char *key, struct irqbalance_setting *out)
{
	struct irqbalance_setting s;
	size_t pos = 0, line_no = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		line_no++;
		if (scan_line(line, n, pos, key, &s)) {
			*out = s;
			out->line_no = line_no;
		}
		pos += n + 1;
	}
}

/*
 * The value of @key as a new string in *@val (NULL when unset or empty).
 * Return: 0, -EINVAL (unreadable), -ENOMEM.
 */
static int value_of(const char *buf, size_t len, const char *key, char **val)
{
	struct irqbalance_setting s;

	*val = NULL;
	irqbalance_find(buf, len, key, &s);
	if (s.form == IRQBALANCE_UNREADABLE)
		return -EINVAL;
	if (s.form == IRQBALANCE_UNSET || s.text_len == 0)
		return 0;
	*val = strndup(buf + s.text_off, s.text_len);
	return *val ? 0 : -ENOMEM;
}

/*
 * The CPUs of setting @key, parsed by @parse into @set: *@has when the
 * setting is there (even unreadable), *@err why it could not be taken (then
 * @set is left empty). Return: 0 or -ENOMEM.
 */
static int banned_set(const char *buf, size_t len, const char *key,
		      int (*parse)(struct rtr_cpuset *, const char *), struct rtr_cpuset *set,
		      bool *has, int *err)
{
	char *val = NULL;
	int rc = value_of(buf, len, key, &val);

	if (rc == -ENOMEM)
		return rc;
	*has = rc || val;
	*err = rc ? rc : val ? parse(set, val) : 0;
	free(val);
	if (*err == -ENOMEM)
		return -ENOMEM;
	if (*err)
		rtr_cpuset_clear(set);
	return 0;
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
	char *val = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = banned_set(buf, len, "IRQBALANCE_BANNED_CPULIST", rtr_cpuset_parse_list, &out->cpulist,
			&out->has_cpulist, &out->cpulist_err);
	if (rc)
		return rc;
	rc = banned_set(buf, len, "IRQBALANCE_BANNED_CPUS", rtr_cpuset_parse_mask, &out->mask,
			&out->has_mask, &out->mask_err);
	if (rc)
		return rc;
	rc = value_of(buf, len, "IRQBALANCE_ONESHOT", &val);
	if (rc == -ENOMEM)
		return rc;
	out->oneshot = val != NULL;
	free(val);
	rc = value_of(buf, len, "IRQBALANCE_ARGS", &val);
	if (rc == -ENOMEM)
		return rc;
	out->oneshot = out->oneshot || (val && has_oneshot_arg(val));
	free(val);
	return 0;
}

void irqbalance_conf_free(struct irqbalance_conf *c)
{
	if (!c)
		return;
	rtr_cpuset_free(&c->cpulist);
	rtr_cpuset_free(&c->mask);
}
