// SPDX-License-Identifier: MIT
/*
 * /proc/PID/stat and /proc/PID/status parsers; see procstat.h. Every number
 * is copied into a small stack buffer before conversion, so input without a
 * terminating NUL (or with NULs inside) is handled by length alone.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procstat.h"
#include "util/utf8.h"

/* Longest token we convert: 20 digits of uint64 plus sign and slack. */
#define NUM_MAX 32

/* Copy @n bytes of @s into @buf as a C string; false when it does not fit or holds a NUL. */
static bool token(const char *s, size_t n, char *buf, size_t size)
{
	if (n == 0 || n >= size || memchr(s, '\0', n))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

static int to_u64(const char *s, size_t n, uint64_t *v)
{
	char buf[NUM_MAX], *end;
	unsigned long long x;

	if (!token(s, n, buf, sizeof(buf)) || buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	return 0;
}

static int to_i64(const char *s, size_t n, int64_t *v)
{
	char buf[NUM_MAX], *end;
	long long x;

	if (!token(s, n, buf, sizeof(buf)) ||
	    !((buf[0] >= '0' && buf[0] <= '9') || (buf[0] == '-' && buf[1] >= '0' && buf[1] <= '9')))
		return -EINVAL;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	return 0;
}

static int to_int(const char *s, size_t n, int64_t min, int64_t max, int *v)
{
	int64_t x;
	int err = to_i64(s, n, &x);

	if (err)
		return err;
	if (x < min || x > max)
		return -ERANGE;
	*v = (int)x;
	return 0;
}

/*
 * Copy a comm or Name into @dst, harmless for a terminal and valid as JSON
 * text: a thread may name itself with any bytes, so control characters (C0,
 * DEL, C1) and bytes that are not UTF-8 each become '?'.
 */
static void copy_name(char *dst, size_t size, const char *src, size_t n)
{
	utf8_scrub(dst, size, src, n, UTF8_SCRUB_CONTROLS);
}

/*
 * A sample line (a thread named "a) (b" of pid 42):
 *   42 (a) (b) S 1 42 42 0 -1 4194560 97 0 0 0 1 2 0 0 20 0 1 0 3301 ...
 * The fields after comm are single-space separated decimal numbers, except
 * field 3 (state), a single letter.
 */
int parse_proc_stat(const char *buf, size_t len, struct proc_stat *out)
{
	const char *open, *close = NULL, *p, *end = buf + len;
	int64_t pid;
	int err, field;

	memset(out, 0, sizeof(*out));
	open = memchr(buf, '(', len);
	if (!open)
		return -EINVAL;
	for (const char *q = end; q > open + 1; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!close)
		return -EINVAL;
	/* "PID " before the comm. */
	p = open;
	while (p > buf && p[-1] == ' ')
		p--;
	err = to_i64(buf, (size_t)(p - buf), &pid);
	if (err)
		return err;
	if (pid <= 0 || pid > INT_MAX)
		return -ERANGE;
	out->pid = (int)pid;
	copy_name(out->comm, sizeof(out->comm), open + 1, (size_t)(close - open - 1));

	/* Walk the fields from 3 on. */
	p = close + 1;
	for (field = 3; field <= 41; field++) {
		const char *t;
		size_t n;

		if (p >= end || *p != ' ')
			return -EINVAL;
		t = ++p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		n = (size_t)(p - t);
		if (n == 0)
			return -EINVAL;
		switch (field) {
		case 3:
			if (n != 1 || t[0] < 'A' || t[0] > 'z')
				return -EINVAL;
			out->state = t[0];
			break;
		case 4:
			err = to_int(t, n, 0, INT_MAX, &out->ppid);
			break;
		case 9: {
			uint64_t f;

			err = to_u64(t, n, &f);
			if (!err && f > UINT_MAX)
				err = -ERANGE;
			out->flags = (unsigned int)f;
			break;
		}
		case 10:
			err = to_u64(t, n, &out->minflt);
			break;
		case 12:
			err = to_u64(t, n, &out->majflt);
			break;
		case 14:
			err = to_u64(t, n, &out->utime_ticks);
			break;
		case 15:
			err = to_u64(t, n, &out->stime_ticks);
			break;
		case 18:
			err = to_i64(t, n, &out->priority);
			break;
		case 19:
			err = to_int(t, n, -20, 19, &out->nice);
			break;
		case 20:
			err = to_i64(t, n, &out->num_threads);
			break;
		case 22:
			err = to_u64(t, n, &out->start_ticks);
			break;
		case 23:
			err = to_u64(t, n, &out->vsize_bytes);
			break;
		case 24:
			err = to_i64(t, n, &out->rss_pages);
			break;
		case 39:
			err = to_int(t, n, -1, INT_MAX, &out->processor);
			break;
		case 40: {
			int v = 0;

			err = to_int(t, n, 0, 99, &v);
			out->rt_priority = (unsigned int)v;
			break;
		}
		case 41: {
			int v = 0;

			err = to_int(t, n, 0, INT_MAX, &v);
			out->policy = (unsigned int)v;
			break;
		}
		default:
			/* Unused here, but it must still look like a number. */
			if (t[0] != '-' && (t[0] < '0' || t[0] > '9'))
				err = -EINVAL;
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

void proc_status_free(struct proc_status *st)
{
	if (st)
		rtr_cpuset_free(&st->cpus_allowed);
}

/* "  1234 kB" -> 1234 */
static int kb_value(const char *v, size_t n, uint64_t *out)
{
	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	if (n >= 3 && memcmp(v + n - 3, " kB", 3) == 0)
		n -= 3;
	return to_u64(v, n, out);
}

static int hex_value(const char *v, size_t n, uint64_t *out)
{
	char buf[NUM_MAX], *end;
	unsigned long long x;

	if (!token(v, n, buf, sizeof(buf)) || n > 16)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f') ||
		      (buf[i] >= 'A' && buf[i] <= 'F')))
			return -EINVAL;
	x = strtoull(buf, &end, 16);
	*out = x;
	return 0;
}

static int parse_cpus(const char *v, size_t n, struct rtr_cpuset *set)
{
	char *s;
	int err;

	if (memchr(v, '\0', n))
		return -EINVAL;
	s = malloc(n + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n);
	s[n] = '\0';
	err = rtr_cpuset_parse_list(set, s);
	free(s);
	return err;
}

/*
 * Sample lines:
 *   Name:\tcyclictest
 *   VmLck:\t   10240 kB
 *   Cpus_allowed_list:\t2-3
 *   voluntary_ctxt_switches:\t150
 */
int parse_proc_status(const char *buf, size_t len, struct proc_status *out)
{
	const char *p = buf, *end = buf + len;
	bool any = false;

	memset(out, 0, sizeof(*out));
	out->cpus_allowed_err = -ENOENT;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *colon, *v;
		size_t klen, vlen;
		unsigned int bit = 0;
		int err = 0;
		int64_t i;

		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon)
			goto next;
		klen = (size_t)(colon - p);
		v = colon + 1;
		while (v < eol && (*v == '\t' || *v == ' '))
			v++;
		vlen = (size_t)(eol - v);
		while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t' || v[vlen - 1] == '\r'))
			vlen--;

#define KEY(k) (klen == sizeof(k) - 1 && memcmp(p, k, klen) == 0)
		if (KEY("Name")) {
			copy_name(out->name, sizeof(out->name), v, vlen);
			bit = PROC_ST_NAME;
		} else if (KEY("Tgid")) {
			err = to_int(v, vlen, 0, INT_MAX, &out->tgid);
			bit = PROC_ST_TGID;
		} else if (KEY("Pid")) {
			err = to_int(v, vlen, 0, INT_MAX, &out->pid);
			bit = PROC_ST_PID;
		} else if (KEY("PPid")) {
			err = to_int(v, vlen, 0, INT_MAX, &out->ppid);
			bit = PROC_ST_PPID;
		} else if (KEY("Threads")) {
			err = to_i64(v, vlen, &out->threads);
			bit = PROC_ST_THREADS;
		} else if (KEY("VmSize")) {
			err = kb_value(v, vlen, &out->vm_size_kb);
			bit = PROC_ST_VMSIZE;
		} else if (KEY("VmLck")) {
			err = kb_value(v, vlen, &out->vm_lck_kb);
			bit = PROC_ST_VMLCK;
		} else if (KEY("VmPin")) {
			err = kb_value(v, vlen, &out->vm_pin_kb);
			bit = PROC_ST_VMPIN;
		} else if (KEY("VmRSS")) {
			err = kb_value(v, vlen, &out->vm_rss_kb);
			bit = PROC_ST_VMRSS;
		} else if (KEY("VmSwap")) {
			err = kb_value(v, vlen, &out->vm_swap_kb);
			bit = PROC_ST_VMSWAP;
		} else if (KEY("CapEff")) {
			err = hex_value(v, vlen, &out->cap_eff);
			bit = PROC_ST_CAPEFF;
		} else if (KEY("Kthread")) {
			err = to_i64(v, vlen, &i);
			if (!err && i != 0 && i != 1)
				err = -EINVAL;
			out->kthread = !err && i == 1;
			bit = PROC_ST_KTHREAD;
		} else if (KEY("voluntary_ctxt_switches")) {
			err = to_u64(v, vlen, &out->voluntary_ctxt_switches);
			bit = PROC_ST_VCSW;
		} else if (KEY("nonvoluntary_ctxt_switches")) {
			err = to_u64(v, vlen, &out->nonvoluntary_ctxt_switches);
			bit = PROC_ST_NVCSW;
		} else if (KEY("Cpus_allowed_list")) {
			err = parse_cpus(v, vlen, &out->cpus_allowed);
			out->cpus_allowed_err = err;
			if (err == -ENOMEM)
				return err;
			bit = PROC_ST_CPUS;
		}
#undef KEY
		/* A repeated line wins over an earlier one, garbage included. */
		if (bit && !err) {
			out->have |= bit;
			any = true;
		} else if (bit) {
			out->have &= ~bit;
		}
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	return any ? 0 : -EINVAL;
}

static int limit_value(const char *s, size_t n, uint64_t *v)
{
	if (n == 9 && memcmp(s, "unlimited", 9) == 0) {
		*v = PROC_LIMIT_INFINITY;
		return 0;
	}
	return to_u64(s, n, v);
}

/* The next blank-separated word of [*p, end). */
static bool next_word(const char **p, const char *end, const char **w, size_t *n)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	*w = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*n = (size_t)(s - *w);
	*p = s;
	return *n > 0;
}

int parse_proc_limits(const char *buf, size_t len, struct proc_limits *out)
{
	static const struct {
		const char *label;
		size_t offset;
	} rows[] = {
		{ "Max realtime priority", offsetof(struct proc_limits, rtprio) },
		{ "Max realtime timeout", offsetof(struct proc_limits, rttime) },
		{ "Max locked memory", offsetof(struct proc_limits, memlock) },
		{ "Max nice priority", offsetof(struct proc_limits, nice) },
	};
	const char *p = buf, *end = buf + len;
	bool any = false;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			size_t ln = strlen(rows[i].label), n1, n2;
			struct proc_limit *l = (struct proc_limit *)((char *)out + rows[i].offset);
			const char *q = p + ln, *w1, *w2;
			uint64_t soft, hard;

			if ((size_t)(eol - p) <= ln || memcmp(p, rows[i].label, ln) != 0 ||
			    (*q != ' ' && *q != '\t'))
				continue;
			if (next_word(&q, eol, &w1, &n1) && next_word(&q, eol, &w2, &n2) &&
			    limit_value(w1, n1, &soft) == 0 && limit_value(w2, n2, &hard) == 0) {
				l->found = true;
				l->soft = soft;
				l->hard = hard;
				any = true;
			}
			break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return any ? 0 : -EINVAL;
}
