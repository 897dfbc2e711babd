// SPDX-License-Identifier: MIT
/*
 * /proc/PID/stat (through librtready's parser, lib/statparse.c, so the library
 * and the tool read it one way), /proc/PID/status and limits parsers; see
 * procstat.h. Numbers are converted by length, NULs inside are refused.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procstat.h"
#include "statparse.h"	/* lib/: the stat parser and number conversions */
#include "util/utf8.h"

/*
 * Copy a comm or Name into @dst, harmless for a terminal and valid as JSON
 * text: a thread may name itself with any bytes, so control characters (C0,
 * DEL, C1) and bytes that are not UTF-8 each become '?'.
 */
static void copy_name(char *dst, size_t size, const char *src, size_t n)
{
	utf8_scrub(dst, size, src, n, UTF8_SCRUB_CONTROLS);
}

int parse_proc_stat(const char *buf, size_t len, struct proc_stat *out)
{
	struct rtr__proc_stat s;
	int err;

	memset(out, 0, sizeof(*out));
	err = rtr__proc_parse_stat(buf, len, &s);
	if (err)
		return err;
	out->pid = s.pid;
	copy_name(out->comm, sizeof(out->comm), s.comm, s.comm_len);
	out->state = s.state;
	out->ppid = s.ppid;
	out->flags = s.flags;
	out->minflt = s.minflt;
	out->majflt = s.majflt;
	out->utime_ticks = s.utime_ticks;
	out->stime_ticks = s.stime_ticks;
	out->priority = s.priority;
	out->nice = s.nice;
	out->num_threads = s.num_threads;
	out->start_ticks = s.start_ticks;
	out->vsize_bytes = s.vsize_bytes;
	out->rss_pages = s.rss_pages;
	out->processor = s.processor;
	out->rt_priority = s.rt_priority;
	out->policy = s.policy;
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
	return rtr__proc_to_u64(v, n, out);
}

static int hex_value(const char *v, size_t n, uint64_t *out)
{
	char buf[RTR_PROC_NUM_MAX], *end;
	unsigned long long x;

	if (!rtr__proc_token(v, n, buf, sizeof(buf)) || n > 16)
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
	s = strndup(v, n);	/* all @n bytes: none is a NUL */
	if (!s)
		return -ENOMEM;
	err = rtr_cpuset_parse_list(set, s);
	free(s);
	return err;
}

/*
 * "NSpid:\t4242\t1": the thread's id in its own PID namespace and in each
 * one above it, outermost first. Return: 0 with *@n the count, -EINVAL.
 */
static int nspid_levels(const char *v, size_t vlen, int *n)
{
	const char *p = v, *end = v + vlen;
	int count = 0, id;

	while (p < end && count < 64) {
		const char *q = p;

		while (q < end && *q != '\t' && *q != ' ')
			q++;
		if (rtr__proc_to_int(p, (size_t)(q - p), 1, INT_MAX, &id))
			return -EINVAL;
		count++;
		while (q < end && (*q == '\t' || *q == ' '))
			q++;
		p = q;
	}
	if (count == 0 || p < end)
		return -EINVAL;
	*n = count;
	return 0;
}

/* How the value of a line of /proc/PID/status is read. */
enum st_kind { ST_NAME, ST_INT, ST_I64, ST_U64, ST_KB, ST_HEX, ST_FLAG, ST_NSPID, ST_CPUS };

/* The lines rtready uses: each one's key, kind, bit in ->have and field. */
static const struct st_key {
	const char *key;
	size_t len;
	enum st_kind kind;
	unsigned int bit;
	size_t at;
} st_keys[] = {
#define K(key, kind, bit, field) \
	{ key, sizeof(key) - 1, kind, bit, offsetof(struct proc_status, field) }
	K("Name", ST_NAME, PROC_ST_NAME, name),
	K("Tgid", ST_INT, PROC_ST_TGID, tgid),
	K("Pid", ST_INT, PROC_ST_PID, pid),
	K("PPid", ST_INT, PROC_ST_PPID, ppid),
	K("Threads", ST_I64, PROC_ST_THREADS, threads),
	K("VmSize", ST_KB, PROC_ST_VMSIZE, vm_size_kb),
	K("VmLck", ST_KB, PROC_ST_VMLCK, vm_lck_kb),
	K("VmPin", ST_KB, PROC_ST_VMPIN, vm_pin_kb),
	K("VmRSS", ST_KB, PROC_ST_VMRSS, vm_rss_kb),
	K("VmSwap", ST_KB, PROC_ST_VMSWAP, vm_swap_kb),
	K("CapEff", ST_HEX, PROC_ST_CAPEFF, cap_eff),
	K("Kthread", ST_FLAG, PROC_ST_KTHREAD, kthread),
	K("NSpid", ST_NSPID, PROC_ST_NSPID, nspid_levels),
	K("voluntary_ctxt_switches", ST_U64, PROC_ST_VCSW, voluntary_ctxt_switches),
	K("nonvoluntary_ctxt_switches", ST_U64, PROC_ST_NVCSW, nonvoluntary_ctxt_switches),
	K("Cpus_allowed_list", ST_CPUS, PROC_ST_CPUS, cpus_allowed),
#undef K
};

/* Store the value @v of the line @k into @out. Return: 0, -EINVAL (garbage), -ENOMEM. */
static int st_value(const struct st_key *k, const char *v, size_t vlen, struct proc_status *out)
{
	void *f = (char *)out + k->at;
	int64_t i;
	int err;

	switch (k->kind) {
	case ST_NAME:
		copy_name(f, sizeof(out->name), v, vlen);
		return 0;
	case ST_INT:
		return rtr__proc_to_int(v, vlen, 0, INT_MAX, f);
	case ST_I64:
		return rtr__proc_to_i64(v, vlen, f);
	case ST_U64:
		return rtr__proc_to_u64(v, vlen, f);
	case ST_KB:
		return kb_value(v, vlen, f);
	case ST_HEX:
		return hex_value(v, vlen, f);
	case ST_FLAG:
		err = rtr__proc_to_i64(v, vlen, &i);
		if (!err && i != 0 && i != 1)
			err = -EINVAL;
		*(bool *)f = !err && i == 1;
		return err;
	case ST_NSPID:
		return nspid_levels(v, vlen, f);
	case ST_CPUS:
		err = parse_cpus(v, vlen, f);
		out->cpus_allowed_err = err;
		return err;
	}
	return -EINVAL;
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
		for (size_t k = 0; k < sizeof(st_keys) / sizeof(st_keys[0]); k++) {
			if (st_keys[k].len != klen || memcmp(p, st_keys[k].key, klen))
				continue;
			err = st_value(&st_keys[k], v, vlen, out);
			if (err == -ENOMEM)
				return err;
			bit = st_keys[k].bit;
			break;
		}
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
	return rtr__proc_to_u64(s, n, v);
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
