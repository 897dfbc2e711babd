/* SPDX-License-Identifier: MIT */
/*
 * Parser of irqbalance's environment file (/etc/default/irqbalance on
 * Debian, /etc/sysconfig/irqbalance on Red Hat): shell-style KEY=value
 * lines. Only the CPU bans matter to rtready: IRQBALANCE_BANNED_CPULIST
 * (a cpu list, irqbalance 1.8+) and IRQBALANCE_BANNED_CPUS (a hex mask,
 * older). When neither is set irqbalance bans the isolated and nohz_full
 * CPUs by itself; when one is set, only those CPUs are banned. Pure
 * functions of a buffer (input may be hostile).
 *
 * One grammar serves the reader (irqbalance_conf_parse) and the rewriter of
 * rtready tune (irqbalance_find): a line that sets a key is
 *
 *	[blanks] [export blanks] KEY=VALUE [blanks [# comment]]
 *
 * where VALUE is empty, one bare word without quotes, '$', '`', '\\' or
 * shell operators, '...' or "..." (the latter without '\\', '$' or '`'),
 * and blanks are spaces, tabs and the CR of a CRLF line. Any other line
 * that names the key as a word outside a comment (KEY = 0, KEY=$X,
 * KEY="a"b, KEY=0 cmd, readonly KEY=0, an unterminated quote) is read as
 * a setting rtready cannot read: never guessed, never rewritten.
 */
#ifndef RTR_PROBE_IRQBALANCE_H
#define RTR_PROBE_IRQBALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "rtready/cpuset.h"

struct irqbalance_conf {
	bool has_cpulist;		/* IRQBALANCE_BANNED_CPULIST set (non-empty) */
	int cpulist_err;		/* its parse error, 0 when valid */
	struct rtr_cpuset cpulist;
	bool has_mask;			/* IRQBALANCE_BANNED_CPUS set (non-empty) */
	int mask_err;
	struct rtr_cpuset mask;
	bool oneshot;			/* IRQBALANCE_ONESHOT set, or --oneshot in IRQBALANCE_ARGS */
};

/* How the last line that names a key sets it. */
enum irqbalance_form {
	IRQBALANCE_UNSET,	/* no line names it */
	IRQBALANCE_SET,		/* KEY=VALUE in the grammar above */
	IRQBALANCE_UNREADABLE,	/* named in a form outside the grammar: see why */
};

struct irqbalance_setting {
	enum irqbalance_form form;
	size_t line_no;		/* 1-based line of that last line (0 when unset) */
	size_t value_off;	/* IRQBALANCE_SET: the value as written, quotes included */
	size_t value_len;
	size_t text_off;	/* IRQBALANCE_SET: the value itself, quotes removed */
	size_t text_len;
	char quote;		/* '"', '\'' or 0 (bare) */
	const char *why;	/* IRQBALANCE_UNREADABLE: what is outside the grammar */
};

/*
 * Find the last line of @buf (@len bytes) that names @key (the one the
 * shell keeps) and how it sets it. Lines end at '\n'; NUL bytes are no
 * blank and no word character, so a line holding one is unreadable where
 * it names the key.
 */
void irqbalance_find(const char *buf, size_t len, const char *key, struct irqbalance_setting *out);

/*
 * Parse @len bytes of the file into @out (zeroed first), by
 * irqbalance_find() for each key. An empty value unsets; an unreadable
 * setting or a bad value is kept as its *_err (-EINVAL). Free with
 * irqbalance_conf_free().
 * Return: 0 or -ENOMEM.
 */
int irqbalance_conf_parse(const char *buf, size_t len, struct irqbalance_conf *out)
	__attribute__((warn_unused_result));
void irqbalance_conf_free(struct irqbalance_conf *c);

#endif
