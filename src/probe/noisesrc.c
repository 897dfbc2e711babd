// SPDX-License-Identifier: MIT
/* Steal time and softirq counters per CPU; see noisesrc.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probe/noisesrc.h"

/* Bound on the lines and columns looked at (far above real machines). */
#define MAX_LINES 65536
#define MAX_COLS 8192

static const char *const softirq_names[NOISESRC_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

/* The next line of [*p, end): its start and length; *p moves past it. */
static bool next_line(const char **p, const char *end, const char **line, size_t *n)
{
	const char *nl;

	if (*p >= end)
		return false;
	*line = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

/* An unsigned decimal at *s (after blanks); *s moves past it. */
static bool read_u64(const char **s, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	bool any = false;

	while (*s < end && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*s < end && **s >= '0' && **s <= '9') {
		unsigned d = (unsigned)(**s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		any = true;
		(*s)++;
	}
	*out = v;
	return any && (*s == end || **s == ' ' || **s == '\t');
}

int noisesrc_parse_steal(const char *buf, size_t len, int cpu, uint64_t *steal_ticks)
{
	const char *p = buf, *end = buf + len, *line;
	char want[24];
	size_t n, wl;

	if (cpu < 0)
		return -EINVAL;
	wl = (size_t)snprintf(want, sizeof(want), "cpu%d ", cpu);
	for (int i = 0; i < MAX_LINES && next_line(&p, end, &line, &n); i++) {
		const char *s = line + wl, *le = line + n;
		uint64_t v = 0;

		if (n < wl || memcmp(line, want, wl))
			continue;
		/* user nice system idle iowait irq softirq steal */
		for (int f = 0; f < 8; f++)
			if (!read_u64(&s, le, &v))
				return -EINVAL;
		*steal_ticks = v;
		return 0;
	}
	return -ENOENT;
}

int noisesrc_parse_softirqs(const char *buf, size_t len, int cpu,
			    uint64_t counts[NOISESRC_SOFTIRQS])
{
	const char *p = buf, *end = buf + len, *line;
	int col = -1, ncols = 0;
	size_t n;

	memset(counts, 0, NOISESRC_SOFTIRQS * sizeof(*counts));
	if (cpu < 0 || !next_line(&p, end, &line, &n))
		return -EINVAL;
	/* Header: "CPU0 CPU1 ...": find the column of @cpu (offline CPUs have none). */
	for (const char *s = line, *le = line + n; s < le && ncols < MAX_COLS;) {
		uint64_t c;

		while (s < le && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= le)
			break;
		if (le - s < 4 || memcmp(s, "CPU", 3))
			return -EINVAL;
		s += 3;
		if (!read_u64(&s, le, &c))
			return -EINVAL;
		if (c == (uint64_t)cpu)
			col = ncols;
		ncols++;
	}
	if (!ncols)
		return -EINVAL;
	if (col < 0)
		return -ENOENT;
	for (int i = 0; i < MAX_LINES && next_line(&p, end, &line, &n); i++) {
		const char *s = line, *le = line + n, *colon;
		int vec = -1;
		uint64_t v = 0;

		while (s < le && *s == ' ')
			s++;
		colon = memchr(s, ':', (size_t)(le - s));
		if (!colon)
			continue;
		for (int k = 0; k < NOISESRC_SOFTIRQS; k++)
			if ((size_t)(colon - s) == strlen(softirq_names[k]) &&
			    !memcmp(s, softirq_names[k], (size_t)(colon - s)))
				vec = k;
		if (vec < 0)
			continue;
		s = colon + 1;
		for (int k = 0; k <= col; k++)
			if (!read_u64(&s, le, &v))
				break;
		counts[vec] = v;
	}
	return 0;
}

int noisesrc_read(const struct rootfs *fs, const char *path, char **buf, size_t *size,
		  size_t *len)
{
	return rootfs_read_reuse(fs, path, NOISESRC_READ_CAP, 0, buf, size, len);
}
