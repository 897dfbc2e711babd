// SPDX-License-Identifier: MIT
/*
 * /proc/interrupts parser; see interrupts.h. The kernel prints each row as
 * "%*d:" or "%3s:", one "%10u " count per online CPU, then (numbered IRQs)
 * the chip name, the hardware IRQ number with its trigger or flow name, and
 * the action names joined by ", " (kernel/irq/proc.c show_interrupts). The
 * chip and trigger are told apart from the action names by their shape
 * (a number, "Edge"/"Level", "5-edge"), since the padding between them is
 * not a reliable separator.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe/interrupts.h"

struct span {
	const char *p;
	size_t n;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Cut the next blank-separated token off @s; false at the end. */
static bool next_token(struct span *s, struct span *tok)
{
	while (s->n && blank(*s->p)) {
		s->p++;
		s->n--;
	}
	if (!s->n)
		return false;
	tok->p = s->p;
	while (s->n && !blank(*s->p)) {
		s->p++;
		s->n--;
	}
	tok->n = (size_t)(s->p - tok->p);
	return true;
}

static void trim(struct span *s)
{
	while (s->n && blank(*s->p)) {
		s->p++;
		s->n--;
	}
	while (s->n && blank(s->p[s->n - 1]))
		s->n--;
}

/* Copy for display: truncated, control bytes (and NUL) shown as '?'. */
static void copy_text(char *dst, size_t dstlen, const char *src, size_t n)
{
	size_t i;

	if (n >= dstlen)
		n = dstlen - 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	dst[n] = '\0';
}

/* A whole token of decimal digits that fits in uint64_t. */
static bool parse_u64(const struct span *tok, uint64_t *v)
{
	uint64_t x = 0;

	if (!tok->n)
		return false;
	for (size_t i = 0; i < tok->n; i++) {
		if (!digit(tok->p[i]))
			return false;
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(tok->p[i] - '0'), &x))
			return false;
	}
	*v = x;
	return true;
}

/* "CPU0 CPU1 ..." (only online CPUs are listed, so numbers may skip). */
static int parse_header(struct span line, struct interrupts_table *t)
{
	struct span tok;
	size_t cap = 0;

	while (next_token(&line, &tok)) {
		uint64_t cpu;
		struct span num = { tok.p + 3, tok.n - 3 };

		if (tok.n < 4 || memcmp(tok.p, "CPU", 3) != 0 || !parse_u64(&num, &cpu) ||
		    cpu >= RTR_CPUSET_MAX_CPUS || t->n_cols >= INTERRUPTS_MAX_COLS)
			return -EINVAL;
		if (t->n_cols == cap) {
			int *n;

			cap = cap ? cap * 2 : 16;
			n = realloc(t->col_cpu, cap * sizeof(*n));
			if (!n)
				return -ENOMEM;
			t->col_cpu = n;
		}
		t->col_cpu[t->n_cols++] = (int)cpu;
	}
	return t->n_cols ? 0 : -EINVAL;
}

/* A piece of "1-edge", "27 Level", "2-fasteoi": not an action name. */
static bool hwirq_part(const struct span *tok)
{
	return digit(tok->p[0]) || tok->p[0] == '-' ||
	       (tok->n == 4 && strncasecmp(tok->p, "edge", 4) == 0) ||
	       (tok->n == 5 && strncasecmp(tok->p, "level", 5) == 0);
}

static void split_description(struct span rest, struct interrupt_row *row)
{
	struct span tok, save;
	size_t hw_len = 0;

	trim(&rest);
	if (row->irq < 0) {
		copy_text(row->actions, sizeof(row->actions), rest.p, rest.n);
		return;
	}
	if (!next_token(&rest, &tok))
		return;
	copy_text(row->chip, sizeof(row->chip), tok.p, tok.n);
	for (;;) {
		save = rest;
		if (!next_token(&rest, &tok) || !hwirq_part(&tok)) {
			rest = save;
			break;
		}
		if (hw_len && hw_len + 1 < sizeof(row->hwirq))
			row->hwirq[hw_len++] = ' ';
		if (hw_len + 1 < sizeof(row->hwirq)) {
			copy_text(row->hwirq + hw_len, sizeof(row->hwirq) - hw_len, tok.p, tok.n);
			hw_len = strlen(row->hwirq);
		}
	}
	trim(&rest);
	copy_text(row->actions, sizeof(row->actions), rest.p, rest.n);
}

static int push_count(struct interrupts_table *t, size_t *cap, uint64_t v)
{
	if (t->n_counts == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		uint64_t *n = realloc(t->counts, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->counts = n;
		*cap = ncap;
	}
	t->counts[t->n_counts++] = v;
	return 0;
}

/* One row; 1 when the line is not a row (skipped and counted). */
static int parse_row(struct span line, struct interrupts_table *t, size_t *counts_cap,
		     struct interrupt_row *row)
{
	struct span name, tok, save;
	const char *colon;
	uint64_t v;
	int err;

	trim(&line);
	colon = line.n ? memchr(line.p, ':', line.n) : NULL;
	if (!colon)
		return 1;
	name.p = line.p;
	name.n = (size_t)(colon - line.p);
	if (name.n == 0 || name.n >= sizeof(row->name))
		return 1;
	for (size_t i = 0; i < name.n; i++)
		if (blank(name.p[i]) || (unsigned char)name.p[i] < 0x20)
			return 1;
	memset(row, 0, sizeof(*row));
	copy_text(row->name, sizeof(row->name), name.p, name.n);
	row->irq = -1;
	if (parse_u64(&name, &v)) {
		if (v >= INTERRUPTS_MAX_IRQ)
			return 1;
		row->irq = (int)v;
	}
	line.p = colon + 1;
	line.n -= name.n + 1;
	row->counts_off = t->n_counts;
	while (row->n_counts < t->n_cols) {
		save = line;
		if (!next_token(&line, &tok))
			break;
		if (!parse_u64(&tok, &v)) {
			line = save;
			break;
		}
		err = push_count(t, counts_cap, v);
		if (err)
			return err;
		row->n_counts++;
		if (__builtin_add_overflow(row->total, v, &row->total))
			row->total = UINT64_MAX;
	}
	if (row->n_counts == 0) {
		t->n_counts = row->counts_off;
		return 1;
	}
	split_description(line, row);
	return 0;
}

static int cmp_irq(const void *a, const void *b, void *ctx)
{
	const struct interrupt_row *rows = ctx;
	int x = rows[*(const size_t *)a].irq, y = rows[*(const size_t *)b].irq;

	return (x > y) - (x < y);
}

static int build_index(struct interrupts_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n_rows; i++)
		n += t->rows[i].irq >= 0;
	if (!n)
		return 0;
	t->by_irq = malloc(n * sizeof(*t->by_irq));
	if (!t->by_irq)
		return -ENOMEM;
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].irq >= 0)
			t->by_irq[t->n_by_irq++] = i;
	qsort_r(t->by_irq, t->n_by_irq, sizeof(*t->by_irq), cmp_irq, t->rows);
	return 0;
}

int interrupts_parse(const char *buf, size_t len, struct interrupts_table *out)
{
	size_t pos = 0, rows_cap = 0, counts_cap = 0;
	bool header = false;
	int err = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len && !err) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		struct span line = { buf + pos, nl ? (size_t)(nl - (buf + pos)) : len - pos };
		struct span probe = line;

		pos += line.n + 1;
		trim(&probe);
		if (!probe.n)
			continue;
		if (!header) {
			err = parse_header(line, out);
			header = true;
			continue;
		}
		if (out->n_rows == rows_cap) {
			struct interrupt_row *n;

			if (rows_cap >= INTERRUPTS_MAX_ROWS) {
				out->bad_lines++;
				continue;
			}
			rows_cap = rows_cap ? rows_cap * 2 : 64;
			n = realloc(out->rows, rows_cap * sizeof(*n));
			if (!n) {
				err = -ENOMEM;
				break;
			}
			out->rows = n;
		}
		err = parse_row(line, out, &counts_cap, &out->rows[out->n_rows]);
		if (err == 1) {
			out->bad_lines++;
			err = 0;
		} else if (err == 0) {
			out->n_rows++;
		}
	}
	if (!err && !header)
		err = -EINVAL;
	return err ? err : build_index(out);
}

void interrupts_free(struct interrupts_table *t)
{
	if (!t)
		return;
	free(t->col_cpu);
	free(t->rows);
	free(t->counts);
	free(t->by_irq);
	memset(t, 0, sizeof(*t));
}

const struct interrupt_row *interrupts_find(const struct interrupts_table *t, int irq)
{
	size_t lo = 0, hi = t->n_by_irq;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct interrupt_row *r = &t->rows[t->by_irq[mid]];

		if (r->irq == irq)
			return r;
		if (r->irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint64_t interrupts_sum_on(const struct interrupts_table *t, const struct interrupt_row *row,
			   const struct rtr_cpuset *cpus)
{
	uint64_t sum = 0;

	for (unsigned int c = 0; c < row->n_counts && c < t->n_cols; c++)
		if (rtr_cpuset_test(cpus, t->col_cpu[c]) &&
		    __builtin_add_overflow(sum, t->counts[row->counts_off + c], &sum))
			return UINT64_MAX;
	return sum;
}
