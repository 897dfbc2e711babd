// SPDX-License-Identifier: MIT
/*
 * Probe of area 'irq'; see irq.h. One pass over /proc/irq (two small files
 * per IRQ), one read of /proc/interrupts, so a machine with thousands of
 * IRQs costs a few milliseconds and nothing is parsed twice.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/irq.h"

/* Room for the longest cpu list or mask a sane kernel writes (8192 CPUs). */
#define LIST_CAP 65536

/* A decimal IRQ directory name ("24"), or -1. */
static int irq_number(const char *name)
{
	int v = 0;

	if (!*name || strlen(name) > 8)
		return -1;
	for (const char *p = name; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v < INTERRUPTS_MAX_IRQ ? v : -1;
}

/*
 * Read a cpu list file, or its mask twin when the list is missing (older
 * kernels only had the masks). Return: 0 or -errno.
 */
static int read_cpus(const struct rootfs *fs, int irq, const char *list_name,
		     const char *mask_name, char *buf, struct rtr_cpuset *out)
{
	char path[128];
	int err;

	rootfs_path(path, sizeof(path), "/proc/irq/%d/%s", irq, list_name);
	err = rootfs_read_str(fs, path, buf, LIST_CAP);
	if (err == 0)
		return rtr_cpuset_parse_list(out, buf);
	if (err != -ENOENT)
		return err;
	rootfs_path(path, sizeof(path), "/proc/irq/%d/%s", irq, mask_name);
	err = rootfs_read_str(fs, path, buf, LIST_CAP);
	return err ? err : rtr_cpuset_parse_mask(out, buf);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The IRQ numbers under /proc/irq, sorted. */
static int list_irqs(const struct rootfs *fs, struct irq_facts *out, int **nums, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d = rootfs_opendir(fs, "/proc/irq");

	*nums = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int irq = irq_number(de->d_name);

		if (irq < 0)
			continue;
		if (*n >= IRQ_MAX_ENTRIES) {
			out->truncated = true;
			break;
		}
		if (*n == cap) {
			int *p;

			cap = cap ? cap * 2 : 256;
			p = realloc(*nums, cap * sizeof(*p));
			if (!p) {
				closedir(d);
				return -ENOMEM;
			}
			*nums = p;
		}
		(*nums)[(*n)++] = irq;
	}
	closedir(d);
	if (*n)
		qsort(*nums, *n, sizeof(**nums), cmp_int);
	return 0;
}

static void probe_interrupts(const struct rootfs *fs, struct irq_facts *out)
{
	char *text = NULL;
	size_t len = 0;

	out->interrupts_err = rootfs_read(fs, "/proc/interrupts", ROOTFS_CAP_LARGE, &text, &len);
	if (out->interrupts_err)
		return;
	out->interrupts_err = interrupts_parse(text, len, &out->interrupts);
	free(text);
}

static void probe_balance(const struct rootfs *fs, struct irq_facts *out)
{
	static const char *const files[] = { "/etc/default/irqbalance", "/etc/sysconfig/irqbalance" };
	char *text = NULL;
	size_t len = 0;

	out->balance_err = -ENOENT;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int err = rootfs_read(fs, files[i], ROOTFS_CAP_DEFAULT, &text, &len);

		if (err == -ENOENT)
			continue;
		strcpy(out->balance_path, files[i]);
		out->balance_err = err ? err : irqbalance_conf_parse(text, len, &out->balance);
		free(text);
		return;
	}
}

static void probe_affinities(const struct rootfs *fs, struct irq_facts *out)
{
	char *buf;
	int *nums = NULL;
	size_t n = 0;

	buf = malloc(LIST_CAP);
	if (!buf) {
		out->err = out->default_err = -ENOMEM;
		return;
	}
	out->default_err = rootfs_read_str(fs, "/proc/irq/default_smp_affinity", buf, LIST_CAP);
	if (!out->default_err)
		out->default_err = rtr_cpuset_parse_mask(&out->default_affinity, buf);
	out->err = list_irqs(fs, out, &nums, &n);
	if (!out->err && n) {
		out->irqs = calloc(n, sizeof(*out->irqs));
		if (!out->irqs)
			out->err = -ENOMEM;
	}
	for (size_t i = 0; !out->err && i < n; i++) {
		struct irq_info *q = &out->irqs[out->n];

		if (out->n && out->irqs[out->n - 1].irq == nums[i])
			continue;	/* a duplicate name cannot happen in a real directory */
		q->irq = nums[i];
		q->affinity_err = read_cpus(fs, q->irq, "smp_affinity_list", "smp_affinity", buf,
					    &q->affinity);
		q->effective_err = read_cpus(fs, q->irq, "effective_affinity_list",
					     "effective_affinity", buf, &q->effective);
		out->n++;
	}
	free(nums);
	free(buf);
}

void probe_irq(const struct rootfs *fs, struct irq_facts *out)
{
	memset(out, 0, sizeof(*out));
	probe_interrupts(fs, out);
	probe_balance(fs, out);
	probe_affinities(fs, out);
}

void probe_irq_affinity(const struct rootfs *fs, struct irq_facts *out)
{
	memset(out, 0, sizeof(*out));
	out->interrupts_err = -ENODATA;
	out->balance_err = -ENODATA;
	probe_affinities(fs, out);
}

void probe_irq_free(struct irq_facts *out)
{
	for (size_t i = 0; i < out->n; i++) {
		rtr_cpuset_free(&out->irqs[i].affinity);
		rtr_cpuset_free(&out->irqs[i].effective);
	}
	free(out->irqs);
	rtr_cpuset_free(&out->default_affinity);
	interrupts_free(&out->interrupts);
	irqbalance_conf_free(&out->balance);
	memset(out, 0, sizeof(*out));
}

const struct irq_info *irq_facts_find(const struct irq_facts *f, int irq)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->irqs[mid].irq == irq)
			return &f->irqs[mid];
		if (f->irqs[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
