// SPDX-License-Identifier: MIT
/*
 * The /proc/PID/stat parser and number conversions; see statparse.h. Every
 * number is copied into a small stack buffer before conversion, so input
 * without a terminating NUL (or with NULs inside) is handled by length alone.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "statparse.h"

/* Copy @n bytes of @s into @buf as a C string; false when it does not fit or holds a NUL. */
bool rtr__proc_token(const char *s, size_t n, char *buf, size_t size)
{
	if (n == 0 || n >= size || memchr(s, '\0', n))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

int rtr__proc_to_u64(const char *s, size_t n, uint64_t *v)
{
	char buf[RTR_PROC_NUM_MAX], *end;
	unsigned long long x;

	if (!rtr__proc_token(s, n, buf, sizeof(buf)) || buf[0] < '0' || buf[0] > '9')
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

int rtr__proc_to_i64(const char *s, size_t n, int64_t *v)
{
	char buf[RTR_PROC_NUM_MAX], *end;
	long long x;

	if (!rtr__proc_token(s, n, buf, sizeof(buf)) ||
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

int rtr__proc_to_int(const char *s, size_t n, int64_t min, int64_t max, int *v)
{
	int64_t x;
	int err = rtr__proc_to_i64(s, n, &x);

	if (err)
		return err;
	if (x < min || x > max)
		return -ERANGE;
	*v = (int)x;
	return 0;
}

/*
 * A sample line (a thread named "a) (b" of pid 42):
 *   42 (a) (b) S 1 42 42 0 -1 4194560 97 0 0 0 1 2 0 0 20 0 1 0 3301 ...
 * The fields after comm are single-space separated decimal numbers, except
 * field 3 (state), a single letter.
 */
int rtr__proc_parse_stat(const char *buf, size_t len, struct rtr__proc_stat *out)
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
	err = rtr__proc_to_i64(buf, (size_t)(p - buf), &pid);
	if (err)
		return err;
	if (pid <= 0 || pid > INT_MAX)
		return -ERANGE;
	out->pid = (int)pid;
	out->comm = open + 1;
	out->comm_len = (size_t)(close - open - 1);

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
			err = rtr__proc_to_int(t, n, 0, INT_MAX, &out->ppid);
			break;
		case 9: {
			uint64_t f;

			err = rtr__proc_to_u64(t, n, &f);
			if (!err && f > UINT_MAX)
				err = -ERANGE;
			out->flags = (unsigned int)f;
			break;
		}
		case 10:
			err = rtr__proc_to_u64(t, n, &out->minflt);
			break;
		case 12:
			err = rtr__proc_to_u64(t, n, &out->majflt);
			break;
		case 14:
			err = rtr__proc_to_u64(t, n, &out->utime_ticks);
			break;
		case 15:
			err = rtr__proc_to_u64(t, n, &out->stime_ticks);
			break;
		case 18:
			err = rtr__proc_to_i64(t, n, &out->priority);
			break;
		case 19:
			err = rtr__proc_to_int(t, n, -20, 19, &out->nice);
			break;
		case 20:
			err = rtr__proc_to_i64(t, n, &out->num_threads);
			break;
		case 22:
			err = rtr__proc_to_u64(t, n, &out->start_ticks);
			break;
		case 23:
			err = rtr__proc_to_u64(t, n, &out->vsize_bytes);
			break;
		case 24:
			err = rtr__proc_to_i64(t, n, &out->rss_pages);
			break;
		case 39:
			err = rtr__proc_to_int(t, n, -1, INT_MAX, &out->processor);
			break;
		case 40: {
			int v = 0;

			err = rtr__proc_to_int(t, n, 0, 99, &v);
			out->rt_priority = (unsigned int)v;
			break;
		}
		case 41: {
			int v = 0;

			err = rtr__proc_to_int(t, n, 0, INT_MAX, &v);
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
