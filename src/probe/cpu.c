// SPDX-License-Identifier: MIT
/*
 * Probe of area 'cpu'; see cpu.h. About 30 small reads per online CPU;
 * nothing here decides whether a value is good.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cpu.h"
#include "probe/partition.h"
#include "util/parse.h"
#include "util/sorted.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define LIST_CAP CPU_READ_CAP

static int read_list(const struct rootfs *fs, const char *path, char *buf, struct rtr_cpuset *out)
{
	int err = rootfs_read_str(fs, path, buf, LIST_CAP);

	return err ? err : rtr_cpuset_parse_list(out, buf);
}

static int read_mask(const struct rootfs *fs, const char *path, char *buf, struct rtr_cpuset *out)
{
	int err = rootfs_read_str(fs, path, buf, LIST_CAP);

	return err ? err : rtr_cpuset_parse_mask(out, buf);
}

/* One file of cpu_read_set(): no CPU in it (empty, white space, an all-zero mask) is -ENODATA. */
static int read_one(const struct rootfs *fs, const char *path, bool mask, char *buf,
		    struct rtr_cpuset *out)
{
	int err = rootfs_read_str(fs, path, buf, LIST_CAP);

	rtr_cpuset_clear(out);
	if (err)
		return err;
	if (buf[strspn(buf, " \t\n")] == '\0')
		return -ENODATA;
	err = mask ? rtr_cpuset_parse_mask(out, buf) : rtr_cpuset_parse_list(out, buf);
	if (!err && rtr_cpuset_is_empty(out))
		err = -ENODATA;
	if (err)
		rtr_cpuset_clear(out);
	return err;
}

int cpu_read_set(const struct rootfs *fs, const char *list_path, const char *mask_path,
		 char *buf, struct rtr_cpuset *out, bool *from_mask)
{
	int list_err = read_one(fs, list_path, false, buf, out), mask_err;

	*from_mask = false;
	if (!list_err)
		return 0;
	mask_err = read_one(fs, mask_path, true, buf, out);
	if (!mask_err) {
		*from_mask = true;
		return 0;
	}
	if (mask_err == -ENOMEM)
		return mask_err;
	return list_err != -ENOENT ? list_err : mask_err;
}

/* Copy for evidence: truncated, control bytes shown as '?'. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)src[i] < 0x20 ? '?' : src[i];
	dst[i] = '\0';
}

/* "2-N" -> "2-7": the kernel's cpu lists accept N for the last CPU (5.11+). */
static int expand_n(const char *in, int last_cpu, char *out, size_t len)
{
	size_t o = 0;

	for (; *in; in++) {
		int n = *in == 'N' && last_cpu >= 0 ?
				snprintf(out + o, len - o, "%d", last_cpu) :
				snprintf(out + o, len - o, "%c", *in);

		if (n < 0 || (size_t)n >= len - o)
			return -EINVAL;
		o += (size_t)n;
	}
	out[o] = '\0';
	return 0;
}

static int boot_list(const struct cmdline *cl, const char *name, int last_cpu,
		     struct cpu_boot_list *out)
{
	const struct cmdline_param *p = cmdline_get(cl, name);
	char buf[1024];

	if (!p)
		return 0;
	out->given = true;
	if (!p->value)		/* a bare flag ("rcu_nocbs"): no CPU listed */
		return 0;
	copy_text(out->text, sizeof(out->text), p->value);
	if (strcmp(p->value, "all") == 0 && last_cpu >= 0) {
		snprintf(buf, sizeof(buf), "0-%d", last_cpu);
		out->err = rtr_cpuset_parse_list(&out->cpus, buf);
	} else {
		out->err = expand_n(p->value, last_cpu, buf, sizeof(buf));
		if (!out->err)
			out->err = rtr_cpuset_parse_list(&out->cpus, buf);
	}
	return out->err == -ENOMEM ? -ENOMEM : 0;
}

/* isolcpus=[nohz,][domain,][managed_irq,]LIST */
static int boot_isolcpus(const struct cmdline *cl, int last_cpu, struct cpu_facts *out)
{
	static const struct {
		const char *flag;
		unsigned int bit;
	} flags[] = {
		{ "nohz,", CPU_ISOL_NOHZ },
		{ "domain,", CPU_ISOL_DOMAIN },
		{ "managed_irq,", CPU_ISOL_MANAGED_IRQ },
	};
	const struct cmdline_param *p = cmdline_get(cl, "isolcpus");
	const char *v;
	char buf[1024];
	bool more = true;

	if (!p)
		return 0;
	out->isolcpus.given = true;
	v = p->value ? p->value : "";
	copy_text(out->isolcpus.text, sizeof(out->isolcpus.text), v);
	while (more) {
		more = false;
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			size_t n = strlen(flags[i].flag);

			if (strncmp(v, flags[i].flag, n) == 0) {
				out->isolcpus_flags |= flags[i].bit;
				v += n;
				more = true;
			}
		}
	}
	if (!out->isolcpus_flags)	/* no flag: scheduler domain isolation only */
		out->isolcpus_flags = CPU_ISOL_DOMAIN;
	out->isolcpus.err = expand_n(v, last_cpu, buf, sizeof(buf));
	if (!out->isolcpus.err)
		out->isolcpus.err = rtr_cpuset_parse_list(&out->isolcpus.cpus, buf);
	return out->isolcpus.err == -ENOMEM ? -ENOMEM : 0;
}

static void boot_number(const struct cmdline *cl, const char *name, bool *given, int64_t *v)
{
	const struct cmdline_param *p = cmdline_get(cl, name);
	int64_t x;

	*v = -1;
	*given = p != NULL;
	if (!p || !p->value)
		return;
	if (parse_int64(p->value, 0, INT64_MAX, &x) == 0)
		*v = x;
}

int cpu_parse_boot_params(const struct cmdline *cl, int last_cpu, struct cpu_facts *out)
{
	int err = boot_isolcpus(cl, last_cpu, out);

	err = err ? err : boot_list(cl, "nohz_full", last_cpu, &out->nohz_full_param);
	err = err ? err : boot_list(cl, "rcu_nocbs", last_cpu, &out->rcu_nocbs);
	err = err ? err : boot_list(cl, "irqaffinity", last_cpu, &out->irqaffinity);
	boot_number(cl, "maxcpus", &out->maxcpus_given, &out->maxcpus);
	boot_number(cl, "nr_cpus", &out->nr_cpus_given, &out->nr_cpus);
	out->nosmt = cmdline_get(cl, "nosmt") != NULL;
	return err;
}

/* The boot parameters, from @given (already parsed, with its error @given_err) or read here. */
static void probe_cmdline(const struct rootfs *fs, const struct cmdline *given, int given_err,
			  struct cpu_facts *out)
{
	struct cmdline cl = { 0 };
	char *text = NULL;
	size_t len = 0;
	int last = -1;

	for (int c = rtr_cpuset_next(&out->possible, -1); c >= 0; c = rtr_cpuset_next(&out->possible, c))
		last = c;
	if (given) {
		out->cmdline_err = given_err ?: cpu_parse_boot_params(given, last, out);
		return;
	}
	out->cmdline_err = rootfs_read(fs, "/proc/cmdline", CMDLINE_TEXT_MAX, &text, &len);
	if (out->cmdline_err)
		return;
	out->cmdline_err = cmdline_parse(text, len, &cl);
	free(text);
	if (!out->cmdline_err)
		out->cmdline_err = cpu_parse_boot_params(&cl, last, out);
	cmdline_free(&cl);
}

static void probe_caches(const struct rootfs *fs, struct cpu_info *ci, char *buf)
{
	char path[160], mpath[160];

	ci->cache_err = -ENOENT;
	for (int i = 0; i < CPU_MAX_CACHES; i++) {
		struct cpu_cache *c = &ci->caches[ci->n_caches];
		int64_t level;
		int err;

		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/level", ci->cpu, i);
		err = rootfs_read_int64(fs, path, &level);
		if (err == -ENOENT)
			break;
		if (i == 0)
			ci->cache_err = err;
		if (err || level < 0 || level > 16)
			continue;
		c->index = i;
		c->level = (int)level;
		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/type", ci->cpu, i);
		if (rootfs_read_str(fs, path, buf, LIST_CAP) == 0)
			copy_text(c->type, sizeof(c->type), buf);
		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%d/shared_cpu_list",
			    ci->cpu, i);
		rootfs_path(mpath, sizeof(mpath), SYS_CPU "/cpu%d/cache/index%d/shared_cpu_map",
			    ci->cpu, i);
		c->shared_err = cpu_read_set(fs, path, mpath, buf, &c->shared, &c->shared_from_mask);
		ci->n_caches++;
	}
}

static void probe_idle(const struct rootfs *fs, struct cpu_info *ci, char *buf)
{
	char path[160];

	ci->idle_err = -ENOENT;
	for (int i = 0; i < CPU_MAX_IDLE_STATES; i++) {
		struct cpu_idle_state *s = &ci->idle[ci->n_idle];
		int64_t v;
		int err;

		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/name", ci->cpu, i);
		err = rootfs_read_str(fs, path, buf, LIST_CAP);
		if (err == -ENOENT)
			break;
		if (i == 0)
			ci->idle_err = err;
		if (err)
			continue;
		copy_text(s->name, sizeof(s->name), buf);
		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/latency", ci->cpu, i);
		s->latency_err = rootfs_read_int64(fs, path, &s->latency_us);
		if (!s->latency_err && s->latency_us < 0)
			s->latency_err = -EINVAL;
		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/disable", ci->cpu, i);
		s->disable = rootfs_read_int64(fs, path, &v) == 0 && (v == 0 || v == 1) ? (int)v : -1;
		ci->n_idle++;
	}
}

static void probe_one(const struct rootfs *fs, struct cpu_info *ci, char *buf)
{
	char path[160], mpath[160];

	rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/topology/thread_siblings_list", ci->cpu);
	rootfs_path(mpath, sizeof(mpath), SYS_CPU "/cpu%d/topology/thread_siblings", ci->cpu);
	ci->siblings_err = cpu_read_set(fs, path, mpath, buf, &ci->siblings,
					&ci->siblings_from_mask);
	probe_caches(fs, ci, buf);
	rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/scaling_governor", ci->cpu);
	ci->governor_err = rootfs_read_str(fs, path, buf, LIST_CAP);
	if (!ci->governor_err) {
		copy_text(ci->governor, sizeof(ci->governor), buf);
		rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/scaling_driver", ci->cpu);
		if (rootfs_read_str(fs, path, buf, LIST_CAP) == 0)
			copy_text(ci->freq_driver, sizeof(ci->freq_driver), buf);
	}
	probe_idle(fs, ci, buf);
	ci->node = -1;
	rootfs_path(path, sizeof(path), SYS_CPU "/cpu%d/cpu_capacity", ci->cpu);
	ci->capacity_err = rootfs_read_int64(fs, path, &ci->capacity);
	if (!ci->capacity_err && (ci->capacity <= 0 || ci->capacity > 1 << 20))
		ci->capacity_err = -EINVAL;
}

static int node_number(const char *name)
{
	int64_t v;

	if (strncmp(name, "node", 4) != 0 || name[4] < '0' || name[4] > '9' ||
	    parse_int64(name + 4, 0, CPU_MAX_NODES - 1, &v))
		return -1;
	return (int)v;
}

static int cmp_node(const void *a, const void *b)
{
	const struct cpu_node *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * /sys/devices/system/node/nodeN/cpulist for every nodeN directory (older
 * kernels and some dumps have only the cpumap mask). A node without CPUs
 * (memory only, CXL) is left out: nothing can be planned on it.
 */
static void probe_nodes(const struct rootfs *fs, struct cpu_facts *out, char *buf)
{
	DIR *d = rootfs_opendir(fs, "/sys/devices/system/node");
	struct dirent *de;
	char path[160];
	size_t cap = 0;

	if (!d) {
		out->nodes_err = errno ? -errno : -ENOENT;
		return;
	}
	while ((de = readdir(d)) && cap < CPU_MAX_NODES) {
		int id = node_number(de->d_name);
		struct rtr_cpuset set = RTR_CPUSET_INIT;
		struct cpu_node *n;
		int err;

		if (id < 0)
			continue;
		rootfs_path(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", id);
		err = read_list(fs, path, buf, &set);
		if (err == -ENOENT) {
			rootfs_path(path, sizeof(path), "/sys/devices/system/node/node%d/cpumap", id);
			err = read_mask(fs, path, buf, &set);
		}
		if (err || rtr_cpuset_is_empty(&set)) {
			rtr_cpuset_free(&set);
			continue;
		}
		n = realloc(out->nodes, (out->n_nodes + 1) * sizeof(*n));
		if (!n) {
			rtr_cpuset_free(&set);
			out->err = -ENOMEM;
			break;
		}
		out->nodes = n;
		out->nodes[out->n_nodes].id = id;
		out->nodes[out->n_nodes++].cpus = set;
		cap++;
	}
	closedir(d);
	if (!out->n_nodes && !out->nodes_err)
		out->nodes_err = -ENOENT;
	qsort(out->nodes, out->n_nodes, sizeof(*out->nodes), cmp_node);
	for (size_t i = 0; i < out->n_cpus; i++)
		for (size_t j = 0; j < out->n_nodes; j++)
			if (rtr_cpuset_test(&out->nodes[j].cpus, out->cpus[i].cpu)) {
				out->cpus[i].node = out->nodes[j].id;
				break;
			}
}

/* Hybrid Intel parts register one PMU per core type, each listing its CPUs. */
static void probe_hybrid(const struct rootfs *fs, struct cpu_facts *out, char *buf)
{
	out->hybrid_err = read_list(fs, "/sys/devices/cpu_core/cpus", buf, &out->hybrid_core);
	if (!out->hybrid_err)
		out->hybrid_err = read_list(fs, "/sys/devices/cpu_atom/cpus", buf,
					    &out->hybrid_atom);
	if (out->hybrid_err) {
		rtr_cpuset_clear(&out->hybrid_core);
		rtr_cpuset_clear(&out->hybrid_atom);
	}
}

static void probe_cpus(const struct rootfs *fs, struct cpu_facts *out, char *buf)
{
	const struct rtr_cpuset *set = out->online_err ? &out->present : &out->online;
	size_t n = rtr_cpuset_count(set);

	if (!n)
		return;
	out->cpus = calloc(n, sizeof(*out->cpus));
	if (!out->cpus) {
		out->err = -ENOMEM;
		return;
	}
	for (int c = rtr_cpuset_next(set, -1); c >= 0 && out->n_cpus < n; c = rtr_cpuset_next(set, c)) {
		out->cpus[out->n_cpus].cpu = c;
		probe_one(fs, &out->cpus[out->n_cpus], buf);
		out->n_cpus++;
	}
	out->capacity_asym = out->n_cpus > 0;
	for (size_t i = 0; i < out->n_cpus && out->capacity_asym; i++)
		if (out->cpus[i].capacity_err)
			out->capacity_asym = false;
	if (out->capacity_asym) {
		bool differ = false;

		for (size_t i = 1; i < out->n_cpus; i++)
			differ |= out->cpus[i].capacity != out->cpus[0].capacity;
		out->capacity_asym = differ;
	}
}

int cpu_capacity_sum(const struct cpu_facts *f, const struct rtr_cpuset *cpus, uint64_t *sum)
{
	uint64_t total = 0;

	if (!f->capacity_asym)
		return -ENOENT;
	for (int c = rtr_cpuset_next(cpus, -1); c >= 0; c = rtr_cpuset_next(cpus, c)) {
		const struct cpu_info *ci = cpu_facts_find(f, c);

		if (!ci || ci->capacity_err)
			return -ENOENT;
		total += (uint64_t)ci->capacity;
	}
	*sum = total;
	return 0;
}

/* The partitions' isolated CPUs: from @part where probe_partition() read them, else read. */
static void probe_partitioned(const struct rootfs *fs, const struct partition_facts *part,
			      struct cpu_facts *out)
{
	if (!part) {
		out->partitioned_err = partition_read_isolated(fs, &out->partitioned);
		return;
	}
	out->partitioned_err = part->isolated_err;
	if (!part->isolated_err)
		out->partitioned_err = rtr_cpuset_copy(&out->partitioned, &part->isolated);
}

static void probe_sets(const struct rootfs *fs, const struct cmdline *cl, int cl_err,
		       const struct partition_facts *part, struct cpu_facts *out, bool per_cpu)
{
	char *buf;
	int64_t v;

	memset(out, 0, sizeof(*out));
	out->smt_active = -1;
	buf = malloc(LIST_CAP);
	if (!buf) {
		out->err = -ENOMEM;
		return;
	}
	/* Never empty on a running kernel: an empty file is no data, not "no CPU". */
	out->online_err = read_one(fs, SYS_CPU "/online", false, buf, &out->online);
	out->present_err = read_one(fs, SYS_CPU "/present", false, buf, &out->present);
	out->possible_err = read_one(fs, SYS_CPU "/possible", false, buf, &out->possible);
	out->isolated_err = read_list(fs, SYS_CPU "/isolated", buf, &out->isolated);
	out->nohz_full_err = read_list(fs, SYS_CPU "/nohz_full", buf, &out->nohz_full);
	probe_partitioned(fs, part, out);
	if (rootfs_read_int64(fs, SYS_CPU "/smt/active", &v) == 0 && (v == 0 || v == 1))
		out->smt_active = (int)v;
	if (rootfs_read_str(fs, SYS_CPU "/smt/control", buf, LIST_CAP) == 0)
		copy_text(out->smt_control, sizeof(out->smt_control), buf);
	probe_cmdline(fs, cl, cl_err, out);
	out->workqueue_err = read_mask(fs, "/sys/devices/virtual/workqueue/cpumask", buf,
				       &out->workqueue);
	out->timer_migration_err = rootfs_read_int64(fs, "/proc/sys/kernel/timer_migration",
						     &out->timer_migration);
	out->idle_driver_err = rootfs_read_str(fs, SYS_CPU "/cpuidle/current_driver", buf, LIST_CAP);
	if (!out->idle_driver_err)
		copy_text(out->idle_driver, sizeof(out->idle_driver), buf);
	if (per_cpu) {
		probe_cpus(fs, out, buf);
		probe_nodes(fs, out, buf);
		probe_hybrid(fs, out, buf);
	}
	free(buf);
}

void probe_cpu(const struct rootfs *fs, struct cpu_facts *out)
{
	probe_sets(fs, NULL, 0, NULL, out, true);
}

void probe_cpu_cmdline(const struct rootfs *fs, const struct cmdline *cl, int cl_err,
		       const struct partition_facts *part, struct cpu_facts *out)
{
	probe_sets(fs, cl, cl_err, part, out, true);
}

void probe_cpu_sets(const struct rootfs *fs, struct cpu_facts *out)
{
	probe_sets(fs, NULL, 0, NULL, out, false);
}

void probe_cpu_nodes(const struct rootfs *fs, struct cpu_facts *out)
{
	char *buf = malloc(LIST_CAP);

	if (!buf) {
		out->nodes_err = -ENOMEM;
		return;
	}
	probe_nodes(fs, out, buf);
	free(buf);
}

static void free_boot_list(struct cpu_boot_list *b)
{
	rtr_cpuset_free(&b->cpus);
}

void probe_cpu_free(struct cpu_facts *out)
{
	rtr_cpuset_free(&out->online);
	rtr_cpuset_free(&out->present);
	rtr_cpuset_free(&out->possible);
	rtr_cpuset_free(&out->isolated);
	rtr_cpuset_free(&out->nohz_full);
	rtr_cpuset_free(&out->partitioned);
	rtr_cpuset_free(&out->workqueue);
	free_boot_list(&out->isolcpus);
	free_boot_list(&out->nohz_full_param);
	free_boot_list(&out->rcu_nocbs);
	free_boot_list(&out->irqaffinity);
	for (size_t i = 0; i < out->n_cpus; i++) {
		rtr_cpuset_free(&out->cpus[i].siblings);
		for (size_t j = 0; j < out->cpus[i].n_caches; j++)
			rtr_cpuset_free(&out->cpus[i].caches[j].shared);
	}
	free(out->cpus);
	for (size_t i = 0; i < out->n_nodes; i++)
		rtr_cpuset_free(&out->nodes[i].cpus);
	free(out->nodes);
	rtr_cpuset_free(&out->hybrid_core);
	rtr_cpuset_free(&out->hybrid_atom);
	memset(out, 0, sizeof(*out));
}

const struct cpu_info *cpu_facts_find(const struct cpu_facts *f, int cpu)
{
	return sorted_find_int(f->cpus, f->n_cpus, sizeof(*f->cpus), offsetof(struct cpu_info, cpu),
			       cpu);
}
