// SPDX-License-Identifier: MIT
/*
 * Housekeeping load from /proc/stat and /proc/interrupts; see cpuload.h.
 * /proc/stat's per-CPU line is "cpuN user nice system idle iowait irq
 * softirq steal guest guest_nice" in USER_HZ ticks (guest time is already
 * inside user and nice); older kernels print fewer fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cpuload.h"
#include "probe/interrupts.h"

/* The fields after "cpuN" that are read: user .. steal. */
#define STAT_FIELDS 8
/* Bound on the CPU lines summed: far above NR_CPUS. */
#define STAT_MAX_CPUS 65536

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Parse one "cpuN f1 f2 ..." line of @len bytes. Return: fields read, or -1. */
static int stat_line(const char *p, size_t len, int *cpu, uint64_t f[STAT_FIELDS])
{
	const char *end = p + len;
	char num[32];
	int n = 0;
	size_t i;

	if (len < 4 || memcmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9')
		return -1;
	p += 3;
	for (i = 0; p < end && *p >= '0' && *p <= '9' && i < 6; i++)
		num[i] = *p++;
	if (p < end && *p != ' ')
		return -1;
	num[i] = '\0';
	*cpu = atoi(num);
	while (n < STAT_FIELDS) {
		uint64_t v = 0;
		size_t digits = 0;

		while (p < end && *p == ' ')
			p++;
		while (p < end && *p >= '0' && *p <= '9' && digits < 19) {
			v = v * 10 + (uint64_t)(*p++ - '0');
			digits++;
		}
		if (!digits || (p < end && *p != ' '))
			break;
		f[n++] = v;
	}
	return n;
}

int cpuload_parse_stat(const char *buf, size_t len, const struct rtr_cpuset *exclude,
		       struct cpuload_sample *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof(*out));
	while (p < end && out->n_cpus < STAT_MAX_CPUS) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		uint64_t f[STAT_FIELDS] = { 0 }, busy, all;
		int cpu, got = stat_line(p, n, &cpu, f);

		p += n + (nl ? 1 : 0);
		/* user nice system idle: the kernel has printed at least these since 2.4. */
		if (got < 4 || (exclude && rtr_cpuset_test(exclude, cpu)))
			continue;
		/* Fields are below 10^20 each; the sums saturate rather than wrap. */
		busy = sat_add(sat_add(sat_add(f[0], f[1]), sat_add(f[2], f[5])), f[6]);
		all = sat_add(sat_add(busy, f[3]), sat_add(f[4], f[7]));

		out->busy_ticks = sat_add(out->busy_ticks, busy);
		out->all_ticks = sat_add(out->all_ticks, all);
		out->n_cpus++;
	}
	return out->n_cpus ? 0 : -EINVAL;
}

int cpuload_sample(const struct rootfs *fs, const struct rtr_cpuset *exclude,
		   struct cpuload_sample *out)
{
	struct interrupts_table t;
	char *text = NULL;
	size_t len;
	int err;

	memset(out, 0, sizeof(*out));
	err = rootfs_read(fs, "/proc/stat", ROOTFS_CAP_LARGE, &text, &len);
	if (err)
		return err;
	err = cpuload_parse_stat(text, len, exclude, out);
	free(text);
	if (err)
		return err;
	text = NULL;
	out->irqs_err = rootfs_read(fs, "/proc/interrupts", ROOTFS_CAP_LARGE, &text, &len);
	if (!out->irqs_err) {
		out->irqs_err = interrupts_parse(text, len, &t);
		for (size_t i = 0; !out->irqs_err && i < t.n_rows; i++)
			if (t.rows[i].irq >= 0)
				out->irqs += t.rows[i].total;
		interrupts_free(&t);
	}
	free(text);
	return out->irqs_err == -ENOMEM ? -ENOMEM : 0;
}

int cpuload_between(const struct cpuload_sample *a, const struct cpuload_sample *b,
		    int64_t window_ns, struct cpuload *out)
{
	double need;

	if (window_ns <= 0 || a->n_cpus != b->n_cpus || !a->n_cpus ||
	    b->busy_ticks < a->busy_ticks || b->all_ticks <= a->all_ticks ||
	    b->all_ticks - a->all_ticks < b->busy_ticks - a->busy_ticks)
		return -EINVAL;
	/* The window in ticks per CPU is the total over the CPUs' count. */
	out->busy_cpus = (double)(b->busy_ticks - a->busy_ticks) * (double)a->n_cpus /
			 (double)(b->all_ticks - a->all_ticks);
	out->irq_per_s = a->irqs_err || b->irqs_err || b->irqs < a->irqs ? -1.0 :
			 (double)(b->irqs - a->irqs) * 1e9 / (double)window_ns;
	need = out->busy_cpus * 100.0 / CPULOAD_TARGET_PCT;
	out->housekeeping = (size_t)need + ((double)(size_t)need < need ? 1 : 0);
	if (out->housekeeping < 1)
		out->housekeeping = 1;
	return 0;
}
