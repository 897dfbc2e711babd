// SPDX-License-Identifier: MIT
/*
 * Probe of area 'irq'; see irq.h. One pass over /proc/irq (two small files
 * per IRQ), one read of /proc/interrupts, so a machine with thousands of
 * IRQs costs a few milliseconds and nothing is parsed twice.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cpu.h"
#include "probe/irq.h"
#include "probe/irqdebugfs.h"
#include "util/sorted.h"

/* Room for the longest cpu list or mask a sane kernel writes (8192 CPUs). */
#define LIST_CAP CPU_READ_CAP

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
		qsort(*nums, *n, sizeof(**nums), sorted_cmp_int);
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

/* The managed state from debugfs, where the kernel has it and it is mounted. */
static void probe_managed(const struct rootfs *fs, struct irq_facts *out)
{
	char path[96], *buf = NULL;
	size_t size = 0, len;
	DIR *d = rootfs_opendir(fs, "/sys/kernel/debug/irq/irqs");

	if (!d) {
		out->managed_err = -errno;
		return;
	}
	closedir(d);
	for (size_t i = 0; i < out->n; i++) {
		struct irq_info *q = &out->irqs[i];
		bool managed;
		int e;

		rootfs_path(path, sizeof(path), "/sys/kernel/debug/irq/irqs/%d", q->irq);
		e = rootfs_read_reuse(fs, path, IRQ_DEBUGFS_CAP, ROOTFS_ONE_RECORD, &buf, &size,
				      &len);
		if (e == -ENOMEM || e == -EACCES || e == -EPERM) {
			out->managed_err = e;
			break;
		}
		if (e)
			continue;	/* freed since /proc/irq was listed */
		e = irq_debugfs_parse(buf, len, &managed, &q->managed_effective);
		if (e == -ENOMEM) {
			out->managed_err = e;
			break;
		}
		if (!e)
			q->managed = managed ? IRQ_MANAGED_YES : IRQ_MANAGED_NO;
	}
	if (out->managed_err)
		for (size_t i = 0; i < out->n; i++)
			out->irqs[i].managed = IRQ_MANAGED_UNKNOWN;
	free(buf);
}

static void probe_affinities(const struct rootfs *fs, struct irq_facts *out)
{
	char *buf, list[128], mask[128];
	int *nums = NULL;
	size_t n = 0;
	bool from_mask;

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
		/* The kernel refuses an empty affinity: an empty file is unread, not "no CPU". */
		rootfs_path(list, sizeof(list), "/proc/irq/%d/smp_affinity_list", q->irq);
		rootfs_path(mask, sizeof(mask), "/proc/irq/%d/smp_affinity", q->irq);
		q->affinity_err = cpu_read_set(fs, list, mask, buf, &q->affinity, &from_mask);
		q->effective_err = read_cpus(fs, q->irq, "effective_affinity_list",
					     "effective_affinity", buf, &q->effective);
		out->n++;
	}
	free(nums);
	free(buf);
	if (!out->err)
		probe_managed(fs, out);
}

/* A vector of a candidate spread set. */
struct spread_member {
	struct irq_info *q;
	char key[sizeof(((struct interrupt_row *)0)->actions)];
	bool wide;
};

static int cmp_key(const void *a, const void *b)
{
	const struct spread_member *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->q->irq > y->q->irq) - (x->q->irq < y->q->irq);
}

/*
 * @m's group key: the first action's name without its trailing queue
 * number ("virtio0-req.2" -> "virtio0-req."). Return: false when the name
 * has no trailing number.
 */
static bool spread_key(const struct interrupt_row *row, struct spread_member *m)
{
	size_t n = strcspn(row->actions, ",");
	size_t end = n;

	while (end && row->actions[end - 1] >= '0' && row->actions[end - 1] <= '9')
		end--;
	if (end == n || end == 0)
		return false;
	memcpy(m->key, row->actions, end);
	m->key[end] = '\0';
	return true;
}

/* Judge one group [@g, @g + @n): mark it spread when it splits @online. */
static void judge_group(struct spread_member *g, size_t n, const struct rtr_cpuset *online,
			struct rtr_cpuset *all)
{
	size_t left = 0;

	for (size_t i = 0; i < n; i++) {
		size_t overlaps = 0;

		for (size_t j = 0; j < n; j++)
			overlaps += j != i && rtr_cpuset_intersects(&g[i].q->affinity,
								    &g[j].q->affinity);
		/* On every online CPU, or across two others: not a queue's share. */
		g[i].wide = overlaps >= 2 || rtr_cpuset_is_subset(online, &g[i].q->affinity);
		left += !g[i].wide;
	}
	if (left < 2)
		return;
	rtr_cpuset_clear(all);
	for (size_t i = 0; i < n; i++) {
		if (g[i].wide)
			continue;
		for (size_t j = i + 1; j < n; j++)
			if (!g[j].wide && rtr_cpuset_intersects(&g[i].q->affinity,
								&g[j].q->affinity))
				return;
		if (rtr_cpuset_or(all, &g[i].q->affinity))
			return;
	}
	if (!rtr_cpuset_is_subset(online, all))
		return;
	for (size_t i = 0; i < n; i++)
		if (!g[i].wide)
			g[i].q->managed = IRQ_MANAGED_SPREAD;
}

/* A bound on one device's vectors compared pairwise. */
#define SPREAD_MAX_GROUP 8192

void irq_infer_spread(struct irq_facts *f)
{
	struct rtr_cpuset online = RTR_CPUSET_INIT, all = RTR_CPUSET_INIT;
	struct spread_member *m;
	size_t n = 0;

	if (f->err || f->interrupts_err || !f->n || f->managed_err == 0)
		return;		/* debugfs answered: nothing to infer */
	m = calloc(f->n, sizeof(*m));
	if (!m)
		return;
	for (size_t i = 0; i < f->interrupts.n_cols; i++)
		if (rtr_cpuset_set(&online, f->interrupts.col_cpu[i]))
			goto out;
	for (size_t i = 0; i < f->n; i++) {
		struct irq_info *q = &f->irqs[i];
		const struct interrupt_row *row = interrupts_find(&f->interrupts, q->irq);

		if (!row || q->affinity_err || rtr_cpuset_is_empty(&q->affinity) ||
		    q->managed != IRQ_MANAGED_UNKNOWN || !strstr(row->chip, "MSI"))
			continue;
		m[n].q = q;
		if (spread_key(row, &m[n]))
			n++;
	}
	if (n)
		qsort(m, n, sizeof(*m), cmp_key);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(m[j].key, m[i].key) == 0; j++)
			;
		if (j - i >= 2 && j - i <= SPREAD_MAX_GROUP)
			judge_group(m + i, j - i, &online, &all);
	}
out:
	free(m);
	rtr_cpuset_free(&online);
	rtr_cpuset_free(&all);
}

void probe_irq(const struct rootfs *fs, struct irq_facts *out)
{
	memset(out, 0, sizeof(*out));
	probe_interrupts(fs, out);
	probe_balance(fs, out);
	probe_affinities(fs, out);
	irq_infer_spread(out);
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
		rtr_cpuset_free(&out->irqs[i].managed_effective);
	}
	free(out->irqs);
	rtr_cpuset_free(&out->default_affinity);
	interrupts_free(&out->interrupts);
	irqbalance_conf_free(&out->balance);
	memset(out, 0, sizeof(*out));
}

const struct irq_info *irq_facts_find(const struct irq_facts *f, int irq)
{
	return sorted_find_int(f->irqs, f->n, sizeof(*f->irqs), offsetof(struct irq_info, irq), irq);
}
