// SPDX-License-Identifier: MIT
/*
 * The CPU planner; see cpuplan.h. Steps: group the online CPUs into cores
 * (SMT siblings) and the cores into L2 clusters (union of every L1/L2
 * cache's sharing list), describe each cluster (node, capacity, managed
 * IRQs), keep the boot CPU's cluster and one cluster per NUMA node for
 * housekeeping, rank the rest, and take whole clusters, then whole cores,
 * until the count is met. Each step leaves a note.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuplan/cpuplan.h"
#include "util/sorted.h"
#include "util/strbuf.h"

/* A cluster is "fast" when its capacity is above half of the largest. */
#define FAST_CAPACITY_RATIO 2

struct core {
	size_t first;		/* its CPUs: core_cpu[first .. first + size) */
	size_t size;
	size_t unit;		/* the cluster it ends up in */
	bool rt;
	bool locked;		/* the boot CPU's core: never RT */
};

struct planner {
	const struct cpuplan_input *in;
	struct cpuplan *out;
	const struct rtr_cpuset *online;
	struct core *cores;
	size_t n_cores;
	int *core_cpu;		/* the CPUs of every core, core after core */
	size_t *core_of;	/* CPU number -> core index, (size_t)-1 when offline */
	size_t n_cpu_slots;
	size_t *parent;		/* union-find over cores */
	size_t *unit_cores;	/* the cores of unit u: unit_cores[unit_start[u] .. [u + 1]) */
	size_t *unit_start;
	size_t *unit_n;		/* CPUs of each unit */
	int *unit_last;		/* highest CPU of each unit */
	bool heterogeneous;
	bool hybrid;
	size_t *order;		/* candidate units, best first */
	size_t n_order;
	size_t *sort_tmp;	/* room for sort_order() */
	bool *candidate;
	bool *reserved;		/* kept for housekeeping */
	size_t smt_core;	/* refused for SMT: the largest core */
};

static const char *const rule_names[] = {
	[CPUPLAN_RULE_ONLINE] = "online",
	[CPUPLAN_RULE_BOOT_CPU] = "boot_cpu",
	[CPUPLAN_RULE_HOUSEKEEPING] = "housekeeping",
	[CPUPLAN_RULE_NODE_HOUSEKEEPING] = "node_housekeeping",
	[CPUPLAN_RULE_SMT] = "smt",
	[CPUPLAN_RULE_L2] = "l2_cluster",
	[CPUPLAN_RULE_CAPACITY] = "capacity",
	[CPUPLAN_RULE_NODE] = "numa_node",
	[CPUPLAN_RULE_MANAGED_IRQ] = "managed_irq",
	[CPUPLAN_RULE_COUNT_] = "count",
};

const char *cpuplan_rule_name(enum cpuplan_rule r)
{
	return (unsigned)r < sizeof(rule_names) / sizeof(rule_names[0]) ? rule_names[r] : "?";
}

const char *cpuplan_role_name(enum cpuplan_role r)
{
	switch (r) {
	case CPUPLAN_RT:
		return "rt";
	case CPUPLAN_SPLIT:
		return "split";
	case CPUPLAN_HOUSEKEEPING:
		break;
	}
	return "housekeeping";
}

/* ---- notes ------------------------------------------------------------- */

__attribute__((format(printf, 4, 5)))
static int note(struct cpuplan *p, enum cpuplan_rule rule, bool relaxed, const char *fmt, ...)
{
	struct cpuplan_note *n;
	va_list ap;
	char *text;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	n = realloc(p->notes, (p->n_notes + 1) * sizeof(*n));
	if (!n) {
		free(text);
		return -ENOMEM;
	}
	p->notes = n;
	p->notes[p->n_notes++] = (struct cpuplan_note){ rule, relaxed, text };
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int refuse(struct cpuplan *p, enum cpuplan_rule rule, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&p->refusal, fmt, ap);
	va_end(ap);
	if (len < 0) {
		p->refusal = NULL;
		return -ENOMEM;
	}
	p->refused_rule = rule;
	return -EDOM;
}

/* A cpu list in a fixed buffer; long lists are cut with "...". */
struct list {
	char s[512];
};

static const char *fmt_list(struct list *l, const struct rtr_cpuset *set)
{
	size_t n = rtr_cpuset_format_list(set, l->s, sizeof(l->s));

	if (n >= sizeof(l->s))
		strcpy(l->s + sizeof(l->s) - 4, "...");
	if (!l->s[0])
		strcpy(l->s, "none");
	return l->s;
}

static int first_cpu(const struct rtr_cpuset *s)
{
	return rtr_cpuset_next(s, -1);
}

static int last_cpu(const struct rtr_cpuset *s)
{
	int last = -1;

	for (int c = rtr_cpuset_next(s, -1); c >= 0; c = rtr_cpuset_next(s, c))
		last = c;
	return last;
}

static bool core_has(const struct planner *pl, const struct core *k, int cpu)
{
	for (size_t i = 0; i < k->size; i++)
		if (pl->core_cpu[k->first + i] == cpu)
			return true;
	return false;
}

/* ---- cores and clusters ------------------------------------------------ */

static size_t find(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void unite(size_t *parent, size_t a, size_t b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

static size_t core_at(const struct planner *pl, int cpu)
{
	return cpu >= 0 && (size_t)cpu < pl->n_cpu_slots ? pl->core_of[cpu] : (size_t)-1;
}

/* SMT siblings of each online CPU, as the kernel lists them (the CPU itself included). */
static int build_cores(struct planner *pl, bool *siblings_known)
{
	const struct cpu_facts *c = pl->in->cpu;
	size_t n = rtr_cpuset_count(pl->online), used = 0;
	int last = last_cpu(pl->online);

	*siblings_known = true;
	pl->n_cpu_slots = (size_t)last + 1;
	pl->core_of = malloc(pl->n_cpu_slots * sizeof(*pl->core_of));
	pl->core_cpu = malloc(n * sizeof(*pl->core_cpu));
	pl->cores = calloc(n, sizeof(*pl->cores));
	if (!pl->core_of || !pl->core_cpu || !pl->cores)
		return -ENOMEM;
	for (size_t i = 0; i < pl->n_cpu_slots; i++)
		pl->core_of[i] = (size_t)-1;
	for (int cpu = first_cpu(pl->online); cpu >= 0; cpu = rtr_cpuset_next(pl->online, cpu)) {
		const struct cpu_info *ci = cpu_facts_find(c, cpu);
		struct core *k;

		if (pl->core_of[cpu] != (size_t)-1)
			continue;
		k = &pl->cores[pl->n_cores];
		k->first = used;
		pl->core_cpu[used++] = cpu;
		pl->core_of[cpu] = pl->n_cores;
		if (!ci || ci->siblings_err || !rtr_cpuset_test(&ci->siblings, cpu))
			*siblings_known = false;
		else
			for (int s = first_cpu(&ci->siblings); s >= 0;
			     s = rtr_cpuset_next(&ci->siblings, s))
				if (rtr_cpuset_test(pl->online, s) &&
				    pl->core_of[s] == (size_t)-1) {
					pl->core_cpu[used++] = s;
					pl->core_of[s] = pl->n_cores;
				}
		k->size = used - k->first;
		pl->n_cores++;
	}
	return 0;
}

/* Add the CPUs of @u to @set. Return: 0 or -ENOMEM. */
static int unit_or(const struct cpuplan_unit *u, struct rtr_cpuset *set)
{
	int err = 0;

	for (size_t i = 0; i < u->n_cpus && !err; i++)
		err = rtr_cpuset_set(set, u->cpus[i]);
	return err;
}

/* fmt_list() of a unit's CPUs. */
static const char *fmt_unit(struct list *l, const struct cpuplan_unit *u)
{
	struct rtr_cpuset set = RTR_CPUSET_INIT;

	if (unit_or(u, &set))
		strcpy(l->s, "?");
	else
		fmt_list(l, &set);
	rtr_cpuset_free(&set);
	return l->s;
}

char *cpuplan_set_list(const struct rtr_cpuset *set)
{
	size_t n = rtr_cpuset_format_list(set, NULL, 0) + 1;
	char *buf = malloc(n);

	if (buf)
		rtr_cpuset_format_list(set, buf, n);
	return buf;
}

char *cpuplan_unit_list(const struct cpuplan_unit *u)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < u->n_cpus;) {
		size_t j = i;

		while (j + 1 < u->n_cpus && u->cpus[j + 1] == u->cpus[j] + 1)
			j++;
		strbuf_printf(&sb, j > i ? "%s%d-%d" : "%s%d", i ? "," : "", u->cpus[i],
			      u->cpus[j]);
		i = j + 1;
	}
	if (sb.err) {
		strbuf_free(&sb);
		return NULL;
	}
	return sb.len ? strbuf_take(&sb) : strdup("");
}

/* Whether @k lists the same CPUs as the same cache of the CPU before (a shared cache). */
static bool same_as_before(const struct cpu_info *prev, size_t j, const struct cpu_cache *k)
{
	return prev && j < prev->n_caches && !prev->caches[j].shared_err &&
	       prev->caches[j].level == k->level &&
	       rtr_cpuset_equal(&prev->caches[j].shared, &k->shared);
}

/* Cores that share an L1 or L2 cache are one cluster. */
static int build_clusters(struct planner *pl, bool *caches_known)
{
	const struct cpu_facts *c = pl->in->cpu;
	struct cpuplan *p = pl->out;
	size_t n = pl->n_cores ? pl->n_cores : 1;
	const struct cpu_info *prev = NULL;
	size_t *unit_of, *fill;
	int err = 0;

	*caches_known = false;
	pl->parent = malloc(n * sizeof(*pl->parent));
	unit_of = malloc(n * sizeof(*unit_of));
	if (!pl->parent || !unit_of) {
		free(unit_of);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pl->n_cores; i++)
		pl->parent[i] = i;
	for (size_t i = 0; i < c->n_cpus; i++) {
		const struct cpu_info *ci = &c->cpus[i];
		size_t me = core_at(pl, ci->cpu);

		if (me == (size_t)-1)
			continue;
		for (size_t j = 0; j < ci->n_caches; j++) {
			const struct cpu_cache *k = &ci->caches[j];

			if (k->level > 2 || k->shared_err)
				continue;
			*caches_known = true;
			/*
			 * The online CPU before listed the same sharers, itself
			 * among them: they are already one cluster with it, so
			 * joining it is joining them (a list shared by n CPUs is
			 * walked once, not n times).
			 */
			if (same_as_before(prev, j, k) && rtr_cpuset_test(&k->shared, prev->cpu)) {
				unite(pl->parent, me, core_at(pl, prev->cpu));
				continue;
			}
			for (int s = first_cpu(&k->shared); s >= 0;
			     s = rtr_cpuset_next(&k->shared, s))
				if (core_at(pl, s) != (size_t)-1)
					unite(pl->parent, me, core_at(pl, s));
		}
		prev = ci;
	}
	/* Cores come in CPU order, so units do too (a root is its cluster's first core). */
	p->units = calloc(n, sizeof(*p->units));
	pl->unit_start = calloc(n + 1, sizeof(*pl->unit_start));
	pl->unit_cores = malloc(n * sizeof(*pl->unit_cores));
	pl->unit_n = calloc(n, sizeof(*pl->unit_n));
	pl->unit_last = malloc(n * sizeof(*pl->unit_last));
	fill = calloc(n, sizeof(*fill));
	if (!p->units || !pl->unit_start || !pl->unit_cores || !pl->unit_n || !pl->unit_last ||
	    !fill) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < pl->n_cores; i++) {
		size_t root = find(pl->parent, i);
		struct cpuplan_unit *u;

		if (root == i) {
			p->units[p->n_units].node = -1;
			p->units[p->n_units].capacity = -1;
			unit_of[i] = p->n_units++;
		}
		pl->cores[i].unit = unit_of[root];
		u = &p->units[unit_of[root]];
		u->n_cores++;
		if (pl->cores[i].size > u->core_size)
			u->core_size = pl->cores[i].size;
		pl->unit_n[unit_of[root]] += pl->cores[i].size;
		/* Cores ascend, and a core's CPUs too: its last CPU is the unit's so far. */
		pl->unit_last[unit_of[root]] = pl->core_cpu[pl->cores[i].first + pl->cores[i].size - 1];
	}
	/* Each unit's cores, ascending: a counting sort by unit. */
	for (size_t u = 0; u < p->n_units; u++)
		pl->unit_start[u + 1] = pl->unit_start[u] + p->units[u].n_cores;
	for (size_t i = 0; i < pl->n_cores; i++) {
		size_t u = pl->cores[i].unit;

		pl->unit_cores[pl->unit_start[u] + fill[u]++] = i;
	}
	/* Each unit's CPUs: its cores' (SMT siblings interleave, so sorted). */
	for (size_t u = 0; u < p->n_units; u++) {
		struct cpuplan_unit *x = &p->units[u];

		x->cpus = malloc(pl->unit_n[u] * sizeof(*x->cpus));
		if (!x->cpus) {
			err = -ENOMEM;
			goto out;
		}
		for (size_t j = pl->unit_start[u]; j < pl->unit_start[u + 1]; j++) {
			const struct core *k = &pl->cores[pl->unit_cores[j]];

			memcpy(x->cpus + x->n_cpus, pl->core_cpu + k->first,
			       k->size * sizeof(*x->cpus));
			x->n_cpus += k->size;
		}
		if (x->n_cores > 1)
			qsort(x->cpus, x->n_cpus, sizeof(*x->cpus), sorted_cmp_int);
	}
out:
	free(fill);
	free(unit_of);
	return err;
}

static void describe_cpu(const struct planner *pl, struct cpuplan_unit *u, int cpu)
{
	const struct cpu_info *ci = cpu_facts_find(pl->in->cpu, cpu);

	if (ci && u->node < 0)
		u->node = ci->node;
	if (ci && !ci->capacity_err && ci->capacity > u->capacity)
		u->capacity = ci->capacity;
	if (cpu == pl->out->boot_cpu)
		u->boot = true;
	if (pl->in->managed && !pl->in->managed->err &&
	    rtr_cpuset_test(&pl->in->managed->cpus, cpu))
		u->n_managed++;
}

/* Node, capacity, speed class, boot CPU and managed IRQs of each cluster. */
static void describe_units(struct planner *pl)
{
	const struct cpu_facts *c = pl->in->cpu;
	struct cpuplan *p = pl->out;
	int64_t max_cap = -1, min_cap = -1;

	pl->hybrid = !c->hybrid_err && !rtr_cpuset_is_empty(&c->hybrid_core) &&
		     rtr_cpuset_intersects(&c->hybrid_atom, pl->online) &&
		     rtr_cpuset_intersects(&c->hybrid_core, pl->online);
	for (size_t i = 0; i < p->n_units; i++) {
		struct cpuplan_unit *u = &p->units[i];

		for (size_t j = pl->unit_start[i]; j < pl->unit_start[i + 1]; j++) {
			const struct core *k = &pl->cores[pl->unit_cores[j]];

			for (size_t x = 0; x < k->size; x++)
				describe_cpu(pl, u, pl->core_cpu[k->first + x]);
		}
		if (u->capacity >= 0) {
			max_cap = max_cap < 0 || u->capacity > max_cap ? u->capacity : max_cap;
			min_cap = min_cap < 0 || u->capacity < min_cap ? u->capacity : min_cap;
		}
	}
	pl->heterogeneous = pl->hybrid || (max_cap > 0 && min_cap != max_cap);
	for (size_t i = 0; i < p->n_units; i++) {
		struct cpuplan_unit *u = &p->units[i];

		if (pl->hybrid)
			for (size_t j = 0; j < u->n_cpus && !u->fast; j++)
				u->fast = rtr_cpuset_test(&c->hybrid_core, u->cpus[j]);
		else if (max_cap > 0 && u->capacity >= 0)
			u->fast = u->capacity * FAST_CAPACITY_RATIO > max_cap;
		else
			u->fast = true;
	}
}

/* ---- ranking ----------------------------------------------------------- */

/* Better for RT first: target node, fast, bigger capacity, fewer managed IRQs, higher CPUs. */
static int rank_cmp(const struct planner *pl, size_t ai, size_t bi, int node)
{
	const struct cpuplan_unit *a = &pl->out->units[ai], *b = &pl->out->units[bi];
	bool an = node >= 0 && a->node == node, bn = node >= 0 && b->node == node;

	if (an != bn)
		return an ? -1 : 1;
	if (a->fast != b->fast)
		return a->fast ? -1 : 1;
	if (a->capacity != b->capacity)
		return a->capacity > b->capacity ? -1 : 1;
	if (a->n_managed != b->n_managed)
		return a->n_managed < b->n_managed ? -1 : 1;
	return pl->unit_last[bi] - pl->unit_last[ai];
}

/* Same group: no preference between them but the managed IRQs and the CPU numbers. */
static bool same_group(const struct cpuplan_unit *a, const struct cpuplan_unit *b, int node)
{
	return (node >= 0 && a->node == node) == (node >= 0 && b->node == node) &&
	       a->fast == b->fast && a->capacity == b->capacity;
}

/*
 * Rank the candidates, best first: a merge sort (stable, n log n; a machine
 * may have thousands of clusters), through @tmp of pl->n_order entries.
 */
static void sort_order(struct planner *pl, int node, size_t *tmp)
{
	size_t n = pl->n_order, *src = pl->order, *dst = tmp, *t;

	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				dst[k++] = rank_cmp(pl, src[j], src[i], node) < 0 ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != pl->order)
		memcpy(pl->order, src, n * sizeof(*src));
}

/* The index of node @id in c->nodes (ascending ids), or (size_t)-1. */
static size_t node_index(const struct cpu_facts *c, int id)
{
	size_t lo = 0, hi = c->n_nodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->nodes[mid].id == id)
			return mid;
		if (c->nodes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

static const struct cpu_node *node_by_id(const struct cpu_facts *c, int id)
{
	for (size_t i = 0; i < c->n_nodes; i++)
		if (c->nodes[i].id == id)
			return &c->nodes[i];
	return NULL;
}

static bool numa(const struct cpu_facts *c)
{
	return !c->nodes_err && c->n_nodes > 1;
}

/* Keep the boot cluster and, on NUMA machines, one cluster per node. */
static int reserve(struct planner *pl)
{
	const struct cpu_facts *c = pl->in->cpu;
	struct cpuplan *p = pl->out;
	struct rtr_cpuset kept = RTR_CPUSET_INIT;
	size_t *worst = NULL;
	bool *has = NULL;
	struct list l1, l2;
	int err = 0;

	for (size_t i = 0; i < p->n_units; i++)
		if (p->units[i].boot) {
			pl->reserved[i] = true;
			bool alone = pl->unit_n[i] == 1;

			const char *what = p->units[i].n_cores > 1 ? " (its L2 cluster)"
								   : " (its core)";

			err = note(p, CPUPLAN_RULE_BOOT_CPU, false,
				   "CPU %d boots the machine: it keeps the timekeeping duty and "
				   "the kernel will not make it nohz_full, so it stays "
				   "housekeeping%s%s%s%s.",
				   p->boot_cpu, alone ? "" : ", and with it CPUs ",
				   alone ? "" : fmt_unit(&l1, &p->units[i]), alone ? "" : what,
				   alone ? " (a whole core: housekeeping keeps at least one)" : "");
		}
	if (err || !numa(c))
		return err;
	/* Per node: whether it holds the boot cluster, and its cluster least fit for RT. */
	has = calloc(c->n_nodes, sizeof(*has));
	worst = malloc(c->n_nodes * sizeof(*worst));
	if (!has || !worst) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t n = 0; n < c->n_nodes; n++)
		worst[n] = (size_t)-1;
	for (size_t i = 0; i < p->n_units; i++) {
		size_t n = node_index(c, p->units[i].node);

		if (n == (size_t)-1)
			continue;
		has[n] = has[n] || pl->reserved[i];
		if (worst[n] == (size_t)-1 || rank_cmp(pl, i, worst[n], -1) > 0)
			worst[n] = i;
	}
	for (size_t n = 0; n < c->n_nodes && !err; n++) {
		if (has[n] || worst[n] == (size_t)-1)
			continue;
		pl->reserved[worst[n]] = true;
		err = unit_or(&p->units[worst[n]], &kept);
	}
	if (!err && !rtr_cpuset_is_empty(&kept))
		err = note(p, CPUPLAN_RULE_NODE_HOUSEKEEPING, false,
			   "Each NUMA node keeps a housekeeping core for its own kernel threads "
			   "(kswapd, kcompactd) and device interrupts: CPUs %s.",
			   fmt_list(&l2, &kept));
out:
	free(has);
	free(worst);
	rtr_cpuset_free(&kept);
	return err;
}

/* ---- the target node --------------------------------------------------- */

static int choose_node(struct planner *pl)
{
	const struct cpu_facts *c = pl->in->cpu;
	struct cpuplan *p = pl->out;
	size_t best_n = 0, *spare;

	if (pl->in->node >= 0) {
		const struct cpu_node *n = node_by_id(c, pl->in->node);

		if (!n || !rtr_cpuset_intersects(&n->cpus, pl->online))
			return refuse(p, CPUPLAN_RULE_NODE, "NUMA node %d (%s) has no online CPU%s",
				      pl->in->node,
				      pl->in->node_why ? pl->in->node_why : "asked for",
				      c->nodes_err ? ": this machine shows no NUMA nodes" : "");
		p->node = pl->in->node;
		return note(p, CPUPLAN_RULE_NODE, false, "NUMA node %d: %s.", p->node,
			    pl->in->node_why ? pl->in->node_why : "asked for");
	}
	if (!numa(c))
		return note(p, CPUPLAN_RULE_NODE, false,
			    c->nodes_err ? "No NUMA nodes shown (/sys/devices/system/node): one "
					   "memory node assumed." : "One NUMA node.");
	/* The CPUs each node can spare (only the fast ones on mixed-speed machines). */
	spare = calloc(c->n_nodes, sizeof(*spare));
	if (!spare)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_units; i++) {
		size_t n = node_index(c, p->units[i].node);

		if (n != (size_t)-1 && !pl->reserved[i] &&
		    (!pl->heterogeneous || p->units[i].fast))
			spare[n] += pl->unit_n[i];
	}
	for (size_t i = 0; i < c->n_nodes; i++)
		if (spare[i] > best_n) {
			best_n = spare[i];
			p->node = c->nodes[i].id;
		}
	free(spare);
	if (p->node < 0)
		return 0;
	return note(p, CPUPLAN_RULE_NODE, false,
		    "NUMA node %d first, of %zu nodes: it has the most CPUs to spare (%zu; a tie "
		    "goes to the lower node). RT threads should keep their memory and devices "
		    "on it.", p->node, c->n_nodes, best_n);
}

/* ---- selection --------------------------------------------------------- */

static void take_core(struct planner *pl, size_t k, size_t *got)
{
	pl->cores[k].rt = true;
	*got += pl->cores[k].size;
}

static size_t unit_size(const struct planner *pl, size_t u)
{
	return pl->unit_n[u];
}

/* The CPUs of unit @u that may become RT (all but the boot CPU's core). */
static size_t takeable(const struct planner *pl, size_t u)
{
	size_t n = 0;

	for (size_t j = pl->unit_start[u]; j < pl->unit_start[u + 1]; j++)
		if (!pl->cores[pl->unit_cores[j]].locked)
			n += pl->cores[pl->unit_cores[j]].size;
	return n;
}

/*
 * Take units in rank order, one group of equal preference at a time: whole
 * clusters first, then (the L2 rule giving way) whole cores of the clusters
 * left in that group.
 */
static void select_units(struct planner *pl, size_t want, size_t *got, bool *split)
{
	struct cpuplan *p = pl->out;
	int node = p->node;

	for (size_t g = 0; g < pl->n_order && *got < want;) {
		size_t end = g + 1;

		while (end < pl->n_order &&
		       same_group(&p->units[pl->order[g]], &p->units[pl->order[end]], node))
			end++;
		for (size_t i = g; i < end && *got < want; i++) {
			size_t u = pl->order[i];

			if (unit_size(pl, u) <= want - *got && !pl->out->units[u].boot)
				for (size_t j = pl->unit_start[u]; j < pl->unit_start[u + 1]; j++)
					take_core(pl, pl->unit_cores[j], got);
		}
		for (size_t i = g; i < end && *got < want; i++) {
			size_t u = pl->order[i];

			/* Highest cores first, as the units are ranked. */
			for (size_t j = pl->unit_start[u + 1]; j-- > pl->unit_start[u] && *got < want;) {
				size_t k = pl->unit_cores[j];

				if (!pl->cores[k].rt && !pl->cores[k].locked &&
				    pl->cores[k].size <= want - *got) {
					take_core(pl, k, got);
					*split = true;
				}
			}
		}
		g = end;
	}
}

static int fill_roles(struct planner *pl)
{
	struct cpuplan *p = pl->out;
	int err = 0;

	for (size_t k = 0; k < pl->n_cores && !err; k++)
		for (size_t j = 0; j < pl->cores[k].size && pl->cores[k].rt && !err; j++)
			err = rtr_cpuset_set(&p->rt, pl->core_cpu[pl->cores[k].first + j]);
	err = err ?: rtr_cpuset_copy(&p->housekeeping, pl->online);
	if (err)
		return err;
	rtr_cpuset_andnot(&p->housekeeping, &p->rt);
	for (size_t i = 0; i < p->n_units; i++) {
		size_t rt = 0;

		for (size_t j = pl->unit_start[i]; j < pl->unit_start[i + 1]; j++)
			rt += pl->cores[pl->unit_cores[j]].rt;
		p->units[i].role = rt == p->units[i].n_cores ? CPUPLAN_RT :
				   rt ? CPUPLAN_SPLIT : CPUPLAN_HOUSEKEEPING;
	}
	return 0;
}

/* "RT: whole core, fast cores, on node 1, no managed IRQs". */
static void rt_reason(const struct planner *pl, const struct cpuplan_unit *u, struct strbuf *sb)
{
	const struct managed_irqs *m = pl->in->managed;

	strbuf_puts(sb, u->n_cores > 1 ? "RT, the whole L2 cluster" :
			u->core_size > 1 ? "RT, the whole core" : "RT");
	if (pl->heterogeneous)
		strbuf_puts(sb, u->fast ? ", fast cores" : ", slower cores (the count needs them)");
	if (pl->out->node >= 0 && u->node == pl->out->node)
		strbuf_printf(sb, ", on the target node %d", u->node);
	if (m && !m->err)
		strbuf_puts(sb, u->n_managed ? ", despite managed IRQs" : ", no managed IRQs");
}

/* Why each cluster is where it is, in one sentence. */
static int unit_reasons(struct planner *pl)
{
	struct cpuplan *p = pl->out;

	for (size_t i = 0; i < p->n_units; i++) {
		struct cpuplan_unit *u = &p->units[i];
		struct strbuf sb = STRBUF_INIT;

		strbuf_printf(&sb, "%zu core%s of %zu thread%s", u->n_cores,
			      u->n_cores == 1 ? "" : "s", u->core_size,
			      u->core_size == 1 ? "" : "s");
		if (u->node >= 0 && numa(pl->in->cpu))
			strbuf_printf(&sb, ", node %d", u->node);
		if (pl->hybrid)
			strbuf_puts(&sb, u->fast ? ", performance cores" : ", efficient cores");
		else if (u->capacity >= 0 && pl->heterogeneous)
			strbuf_printf(&sb, ", capacity %lld", (long long)u->capacity);
		if (u->n_managed)
			strbuf_printf(&sb, ", %zu CPU%s with managed IRQs", u->n_managed,
				      u->n_managed == 1 ? "" : "s");
		strbuf_puts(&sb, ": ");
		if (u->boot)
			strbuf_printf(&sb, "housekeeping, it holds the boot CPU %d", p->boot_cpu);
		else if (u->role == CPUPLAN_SPLIT)
			strbuf_puts(&sb, "split: part RT to meet the count, so RT and housekeeping "
					 "CPUs share this L2");
		else if (u->role == CPUPLAN_RT)
			rt_reason(pl, u, &sb);
		else if (pl->reserved[i])
			strbuf_puts(&sb, "housekeeping for its NUMA node");
		else if (!u->fast)
			strbuf_puts(&sb, "housekeeping, slower cores");
		else if (p->node >= 0 && u->node != p->node)
			strbuf_puts(&sb, "housekeeping, not on the target node");
		else
			strbuf_puts(&sb, "housekeeping, not needed for the count");
		if (sb.err) {
			strbuf_free(&sb);
			return -ENOMEM;
		}
		u->reason = strbuf_take(&sb);
	}
	return 0;
}

/* ---- notes on the topology ---------------------------------------------- */

static int topology_notes(struct planner *pl, bool siblings_known, bool caches_known)
{
	const struct cpu_facts *c = pl->in->cpu;
	struct cpuplan *p = pl->out;
	struct rtr_cpuset offline = RTR_CPUSET_INIT;
	size_t smt = 1, cl = 1;
	struct list l;
	int err = 0;

	if (!c->present_err && rtr_cpuset_copy(&offline, &c->present) == 0) {
		rtr_cpuset_andnot(&offline, pl->online);
		if (!rtr_cpuset_is_empty(&offline)) {
			if (c->maxcpus_given || c->nr_cpus_given)
				err = note(p, CPUPLAN_RULE_ONLINE, false,
					   "CPUs %s are present but not online (%s=%lld on the "
					   "command line): they are not planned; raise or drop it "
					   "to use them.", fmt_list(&l, &offline),
					   c->maxcpus_given ? "maxcpus" : "nr_cpus",
					   (long long)(c->maxcpus_given ? c->maxcpus : c->nr_cpus));
			else
				err = note(p, CPUPLAN_RULE_ONLINE, false,
					   "CPUs %s are present but offline: they are not planned.",
					   fmt_list(&l, &offline));
		}
	}
	rtr_cpuset_free(&offline);
	for (size_t i = 0; i < pl->n_cores; i++)
		smt = pl->cores[i].size > smt ? pl->cores[i].size : smt;
	for (size_t i = 0; i < p->n_units; i++)
		cl = p->units[i].n_cores > cl ? p->units[i].n_cores : cl;
	if (!err)
		err = !siblings_known ?
			note(p, CPUPLAN_RULE_SMT, false, "SMT siblings unknown for some CPUs "
			     "(topology/thread_siblings_list unreadable): those are planned one "
			     "CPU at a time.") :
		      smt > 1 ?
			note(p, CPUPLAN_RULE_SMT, false, "SMT: cores of up to %zu threads, planned "
			     "whole (siblings share the core's pipelines and caches).", smt) :
			note(p, CPUPLAN_RULE_SMT, false, "No SMT: one thread per core.");
	if (!err)
		err = !caches_known ?
			note(p, CPUPLAN_RULE_L2, false, "No cache topology (cpuN/cache, often "
			     "missing in virtual machines): L2 sharing unknown, cores planned alone.") :
		      cl > 1 ?
			note(p, CPUPLAN_RULE_L2, false, "L2 shared by clusters of up to %zu cores, "
			     "planned whole where the count allows.", cl) :
			note(p, CPUPLAN_RULE_L2, false, "L2 private to each core.");
	if (!err && pl->hybrid)
		err = note(p, CPUPLAN_RULE_CAPACITY, false, "Hybrid CPU: performance cores %s, "
			   "efficient cores %s (cpu_core and cpu_atom); RT takes performance cores.",
			   fmt_list(&l, &c->hybrid_core),
			   fmt_list(&(struct list){ 0 }, &c->hybrid_atom));
	else if (!err && pl->heterogeneous)
		err = note(p, CPUPLAN_RULE_CAPACITY, false, "Cores of different speed "
			   "(cpu_capacity): RT takes the fastest; cores below half the top capacity "
			   "stay housekeeping unless the count needs them.");
	return err;
}

static int managed_notes(struct planner *pl)
{
	const struct managed_irqs *m = pl->in->managed;
	struct cpuplan *p = pl->out;
	struct rtr_cpuset on_rt = RTR_CPUSET_INIT;
	struct list l;
	int err;

	if (!m)
		return 0;
	if (m->err)
		return note(p, CPUPLAN_RULE_MANAGED_IRQ, false,
			    "Managed IRQs unknown: /sys/kernel/debug/irq is not readable (%s); "
			    "isolcpus=managed_irq keeps them off the RT CPUs where it can.",
			    strerror(-m->err));
	if (!m->n)
		return note(p, CPUPLAN_RULE_MANAGED_IRQ, false, "No managed IRQs.");
	err = rtr_cpuset_copy(&on_rt, &m->cpus);
	if (err)
		return err;
	rtr_cpuset_and(&on_rt, &p->rt);
	if (rtr_cpuset_is_empty(&on_rt))
		err = note(p, CPUPLAN_RULE_MANAGED_IRQ, false,
			   "%zu managed IRQs land on CPUs %s: the RT CPUs avoid them.", m->n,
			   fmt_list(&l, &m->cpus));
	else
		err = note(p, CPUPLAN_RULE_MANAGED_IRQ, true,
			   "RT CPUs %s receive managed IRQs (%zu managed IRQs on CPUs %s; no other "
			   "CPUs were left): isolcpus=managed_irq moves each to a housekeeping CPU "
			   "of its mask when the device starts, if its mask has one.",
			   fmt_list(&l, &on_rt), m->n, fmt_list(&(struct list){ 0 }, &m->cpus));
	rtr_cpuset_free(&on_rt);
	return err;
}

/* ---- the plan ---------------------------------------------------------- */

/*
 * The last resort before refusing: the other cores of the boot CPU's L2
 * cluster (a quad-core board with one shared L2 has nothing else). The boot
 * CPU's own core stays housekeeping.
 */
static int open_boot_cluster(struct planner *pl, size_t *avail)
{
	struct cpuplan *p = pl->out;

	for (size_t i = 0; i < p->n_units; i++) {
		if (!p->units[i].boot || p->units[i].n_cores < 2 || pl->candidate[i])
			continue;
		if (pl->in->node >= 0 && p->units[i].node != p->node)
			continue;
		for (size_t j = pl->unit_start[i]; j < pl->unit_start[i + 1]; j++) {
			struct core *k = &pl->cores[pl->unit_cores[j]];

			if (core_has(pl, k, p->boot_cpu))
				k->locked = true;
			else
				*avail += k->size;
		}
		pl->candidate[i] = true;
		pl->order[pl->n_order++] = i;
	}
	return 0;
}

/*
 * When the measured load leaves no CPU for RT: the smallest core that may
 * become RT, so that a plan is still made (its note says housekeeping will
 * be busier than half).
 */
static size_t smallest_core(const struct planner *pl)
{
	size_t best = 0;

	for (size_t i = 0; i < pl->n_order; i++)
		for (size_t j = pl->unit_start[pl->order[i]]; j < pl->unit_start[pl->order[i] + 1];
		     j++) {
			const struct core *k = &pl->cores[pl->unit_cores[j]];

			if (!k->locked && !pl->out->units[pl->order[i]].boot &&
			    (!best || k->size < best))
				best = k->size;
		}
	return best;
}

/* What the measured load says of the housekeeping CPUs the plan leaves. */
static int load_note(struct planner *pl, size_t got, size_t spare, bool capped)
{
	const struct cpuplan_input *in = pl->in;
	size_t online_n = rtr_cpuset_count(pl->online), hk = online_n - got;

	if (!in->housekeeping_why)
		return 0;
	if (capped && hk < in->min_housekeeping)
		return note(pl->out, CPUPLAN_RULE_HOUSEKEEPING, true,
			    "Housekeeping load: %s; it needs %zu CPUs to stay under half busy, "
			    "more than can be kept: the plan keeps one RT core (%zu CPU%s), and "
			    "the %zu housekeeping CPU%s will be busier; move load off this "
			    "machine or give --rt N.", in->housekeeping_why, in->min_housekeeping,
			    got, got == 1 ? "" : "s", hk, hk == 1 ? "" : "s");
	if (capped)
		return note(pl->out, CPUPLAN_RULE_HOUSEKEEPING, false,
			    "Housekeeping sized by load: %s; %zu CPUs keep it under half busy, "
			    "so %zu RT CPU%s instead of the %zu that could be spared (--rt N "
			    "decides otherwise).", in->housekeeping_why, hk, got,
			    got == 1 ? "" : "s", spare);
	if (in->rt_count && hk < in->min_housekeeping)
		return note(pl->out, CPUPLAN_RULE_HOUSEKEEPING, true,
			    "Housekeeping load: %s; it needs %zu CPUs to stay under half busy, "
			    "and --rt %zu leaves %zu: the housekeeping CPUs will be busier, and "
			    "their interrupts and kernel threads wait longer.",
			    in->housekeeping_why, in->min_housekeeping, in->rt_count, hk);
	return note(pl->out, CPUPLAN_RULE_HOUSEKEEPING, false,
		    "Housekeeping load: %s; %zu CPU%s keep it under half busy, and the plan "
		    "leaves %zu.", in->housekeeping_why, in->min_housekeeping,
		    in->min_housekeeping == 1 ? "" : "s", hk);
}

static int count_and_select(struct planner *pl)
{
	const struct cpuplan_input *in = pl->in;
	struct cpuplan *p = pl->out;
	size_t online_n = rtr_cpuset_count(pl->online), avail = 0, want, got = 0, spare = 0;
	bool node_fixed = in->node >= 0, split = false, load_capped = false;
	struct list l;
	int err;

	for (size_t i = 0; i < p->n_units; i++) {
		pl->candidate[i] = !pl->reserved[i] && (!node_fixed || p->units[i].node == p->node);
		if (pl->candidate[i]) {
			pl->order[pl->n_order++] = i;
			avail += unit_size(pl, i);
		}
	}
	if (in->rt_count >= online_n)
		return refuse(p, CPUPLAN_RULE_HOUSEKEEPING,
			      "%zu RT CPUs asked for: only %zu CPUs are online, and housekeeping "
			      "needs at least the boot CPU's core", in->rt_count, online_n);
	if (in->rt_count > avail) {
		/* Relax: the nodes' housekeeping cores (never the boot cluster). */
		struct rtr_cpuset given = RTR_CPUSET_INIT;

		for (size_t i = 0; i < p->n_units; i++)
			if (pl->reserved[i] && !p->units[i].boot &&
			    (!node_fixed || p->units[i].node == p->node)) {
				pl->reserved[i] = false;
				pl->candidate[i] = true;
				pl->order[pl->n_order++] = i;
				avail += unit_size(pl, i);
				if (unit_or(&p->units[i], &given)) {
					rtr_cpuset_free(&given);
					return -ENOMEM;
				}
			}
		err = 0;
		if (!rtr_cpuset_is_empty(&given) && in->rt_count <= avail)
			err = note(p, CPUPLAN_RULE_NODE_HOUSEKEEPING, true,
				   "%zu RT CPUs need the nodes' housekeeping cores too: CPUs %s may "
				   "become RT, and their nodes' kernel threads run remotely.",
				   in->rt_count, fmt_list(&l, &given));
		rtr_cpuset_free(&given);
		if (err)
			return err;
	}
	if (in->rt_count > avail || (!in->rt_count && !avail)) {
		err = open_boot_cluster(pl, &avail);
		if (err)
			return err;
		if (in->rt_count > avail) {
			if (node_fixed)
				return refuse(p, CPUPLAN_RULE_NODE,
					      "%zu RT CPUs asked for: NUMA node %d (%s) can spare "
					      "only %zu CPUs", in->rt_count, p->node,
					      in->node_why ? in->node_why : "asked for", avail);
			return refuse(p, CPUPLAN_RULE_BOOT_CPU,
				      "%zu RT CPUs asked for: only %zu of the %zu online CPUs can be "
				      "spared; the "
				      "boot CPU %d and the CPUs that share its core or L2 stay "
				      "housekeeping", in->rt_count, avail, online_n, p->boot_cpu);
		}
	}
	sort_order(pl, p->node, pl->sort_tmp);
	want = in->rt_count;
	if (!want) {
		want = 0;
		for (size_t i = 0; i < pl->n_order; i++)
			if (p->units[pl->order[i]].fast)
				want += takeable(pl, pl->order[i]);
		if (!want)
			want = avail;
		spare = want;
		/* The measured load keeps enough housekeeping CPUs (whole cores: fewer RT). */
		if (want && in->min_housekeeping && online_n - want < in->min_housekeeping) {
			want = online_n > in->min_housekeeping ? online_n - in->min_housekeeping : 0;
			load_capped = true;
			if (want < smallest_core(pl))
				want = smallest_core(pl);
		}
	}
	if (!want)
		return refuse(p, CPUPLAN_RULE_HOUSEKEEPING,
			      "no CPU can be spared: the %zu online CPU%s (%s) %s the boot CPU's "
			      "%s, which stays housekeeping", online_n, online_n == 1 ? "" : "s",
			      fmt_list(&l, pl->online), online_n == 1 ? "is" : "are",
			      p->n_units && p->units[0].n_cores > 1 ? "L2 cluster" : "core");
	select_units(pl, want, &got, &split);
	if (load_capped)
		want = got;
	if (got < want) {
		size_t core = 0;

		for (size_t k = 0; k < pl->n_cores; k++)
			core = pl->cores[k].size > core ? pl->cores[k].size : core;
		pl->smt_core = core;
		/* cpuplan_make() adds the counts that would be accepted. */
		return refuse(p, CPUPLAN_RULE_SMT,
			      "%zu RT CPUs cannot be had with whole cores (SMT siblings of %zu "
			      "threads stay together)", want, core);
	}
	err = fill_roles(pl);
	if (err)
		return err;
	if (split) {
		struct rtr_cpuset shared = RTR_CPUSET_INIT;

		for (size_t i = 0; i < p->n_units; i++)
			if (p->units[i].role == CPUPLAN_SPLIT &&
			    unit_or(&p->units[i], &shared)) {
				rtr_cpuset_free(&shared);
				return -ENOMEM;
			}
		err = note(p, CPUPLAN_RULE_L2, true,
			   "The count (%zu) cannot be met with whole L2 clusters: CPUs %s share an "
			   "L2 between RT and housekeeping CPUs (housekeeping load there evicts "
			   "RT cache lines).", want, fmt_list(&l, &shared));
		rtr_cpuset_free(&shared);
		if (err)
			return err;
	}
	if (p->node >= 0) {
		for (size_t i = 0; i < p->n_units && !err; i++)
			if (p->units[i].role != CPUPLAN_HOUSEKEEPING &&
			    p->units[i].node != p->node) {
				err = in->rt_count ?
					note(p, CPUPLAN_RULE_NODE, true,
					     "The RT CPUs span more than node %d (it can spare fewer "
					     "than %zu): RT threads on other nodes reach its memory "
					     "remotely.", p->node, want) :
					note(p, CPUPLAN_RULE_NODE, false,
					     "By default the RT CPUs come from every node (each keeps "
					     "its housekeeping core); --node N or --rt N keeps them on "
					     "one, so an RT application's memory stays local.");
				break;
			}
	}
	if (!err && pl->heterogeneous)
		for (size_t i = 0; i < p->n_units && !err; i++)
			if (p->units[i].role != CPUPLAN_HOUSEKEEPING && !p->units[i].fast)
				err = note(p, CPUPLAN_RULE_CAPACITY, true,
					   "The count needs slower cores too (CPUs %s).",
					   fmt_unit(&l, &p->units[i]));
	err = err ?: load_note(pl, got, spare, load_capped);
	if (err)
		return err;
	p->requested = in->rt_count;
	if (in->rt_count)
		return note(p, CPUPLAN_RULE_COUNT_, false,
			    "%zu RT CPU%s as asked, %zu housekeeping.", got, got == 1 ? "" : "s",
			    online_n - got);
	return note(p, CPUPLAN_RULE_COUNT_, false,
		    got * 2 <= online_n && online_n <= 4 ?
			    "Only %zu RT CPU%s can be spared of %zu online: housekeeping (interrupts, "
			    "kernel threads, RCU callbacks, every other process) shares the rest; "
			    "enough to try the setup, too little for a production RT load." :
			    "%zu RT CPU%s, all that can be spared of %zu online%s.",
		    got, got == 1 ? "" : "s", online_n,
		    pl->heterogeneous ? " among the fast cores" : "");
}

static int make(const struct cpuplan_input *in, struct cpuplan *out, size_t *smt_core)
{
	const struct cpu_facts *c = in->cpu;
	struct planner pl = { .in = in, .out = out };
	bool siblings_known, caches_known;
	int err;

	out->node = -1;
	out->boot_cpu = -1;
	/*
	 * Only the online CPUs: present ones may be offline (maxcpus=, hotplug),
	 * and a plan that names them would isolate CPUs that do not run.
	 */
	pl.online = &c->online;
	if (c->online_err || rtr_cpuset_is_empty(pl.online))
		return -ENODATA;
	/* Linux numbers the boot CPU 0 on every architecture it runs RT on. */
	out->boot_cpu = rtr_cpuset_test(pl.online, 0) ? 0 : first_cpu(pl.online);
	err = build_cores(&pl, &siblings_known);
	err = err ?: build_clusters(&pl, &caches_known);
	if (err)
		goto out;
	pl.order = calloc(out->n_units, sizeof(*pl.order));
	pl.sort_tmp = calloc(out->n_units, sizeof(*pl.sort_tmp));
	pl.candidate = calloc(out->n_units, sizeof(*pl.candidate));
	pl.reserved = calloc(out->n_units, sizeof(*pl.reserved));
	if (!pl.order || !pl.sort_tmp || !pl.candidate || !pl.reserved) {
		err = -ENOMEM;
		goto out;
	}
	describe_units(&pl);
	err = topology_notes(&pl, siblings_known, caches_known);
	err = err ?: reserve(&pl);
	err = err ?: choose_node(&pl);
	err = err ?: count_and_select(&pl);
	err = err ?: managed_notes(&pl);
	err = err ?: unit_reasons(&pl);
	*smt_core = pl.smt_core;
out:
	free(pl.cores);
	free(pl.core_cpu);
	free(pl.unit_cores);
	free(pl.unit_start);
	free(pl.unit_n);
	free(pl.unit_last);
	free(pl.sort_tmp);
	free(pl.core_of);
	free(pl.parent);
	free(pl.order);
	free(pl.candidate);
	free(pl.reserved);
	return err;
}

/* Whether a plan of @n RT CPUs (else as @in) would be made. */
static int accepted(const struct cpuplan_input *in, size_t n, bool *ok)
{
	struct cpuplan_input try = *in;
	struct cpuplan p = CPUPLAN_INIT;
	size_t core;
	int err;

	try.rt_count = n;
	err = make(&try, &p, &core);
	cpuplan_free(&p);
	*ok = err == 0;
	return err == -EDOM ? 0 : err == 0 ? 0 : err;
}

/*
 * After an SMT refusal: the nearest counts below and above that would be
 * planned (whole cores, and no more than can be spared), tried by planning
 * them, within a few cores of the count asked for.
 */
static int suggest_counts(const struct cpuplan_input *in, struct cpuplan *out, size_t core)
{
	size_t want = in->rt_count, span = 4 * (core ? core : 1), below = 0, above = 0;
	char *text;
	bool ok;
	int err = 0, len;

	for (size_t n = want - 1; n >= 1 && want - n <= span && !below && !err; n--) {
		err = accepted(in, n, &ok);
		below = ok ? n : 0;
	}
	for (size_t n = want + 1; n <= want + span && !above && !err; n++) {
		err = accepted(in, n, &ok);
		above = ok ? n : 0;
	}
	if (err)
		return err;
	if (below && above)
		len = asprintf(&text, "%s: ask for %zu or %zu", out->refusal, below, above);
	else if (below || above)
		len = asprintf(&text, "%s: ask for %zu", out->refusal, below ? below : above);
	else
		len = asprintf(&text, "%s, and no count within %zu of it can be planned",
			       out->refusal, span);
	if (len < 0)
		return -ENOMEM;
	free(out->refusal);
	out->refusal = text;
	return -EDOM;
}

int cpuplan_make(const struct cpuplan_input *in, struct cpuplan *out)
{
	size_t core = 0;
	int err = make(in, out, &core);

	if (err == -EDOM && out->refused_rule == CPUPLAN_RULE_SMT && in->rt_count)
		err = suggest_counts(in, out, core);
	return err;
}

/* ---- after the reboot ---------------------------------------------------- */

static int set_boot_list(struct cpu_boot_list *b, const struct rtr_cpuset *cpus)
{
	b->given = true;
	b->err = 0;
	if (rtr_cpuset_format_list(cpus, b->text, sizeof(b->text)) >= sizeof(b->text))
		b->text[0] = '\0';
	return rtr_cpuset_copy(&b->cpus, cpus);
}

int cpuplan_simulate_boot(const struct cpuplan *p, struct cpu_facts *c)
{
	int err;

	c->isolated_err = 0;
	c->nohz_full_err = 0;
	c->cmdline_err = 0;
	c->isolcpus_flags = CPU_ISOL_DOMAIN | CPU_ISOL_MANAGED_IRQ;
	err = rtr_cpuset_copy(&c->isolated, &p->rt);
	err = err ?: rtr_cpuset_copy(&c->nohz_full, &p->rt);
	err = err ?: set_boot_list(&c->isolcpus, &p->rt);
	err = err ?: set_boot_list(&c->nohz_full_param, &p->rt);
	err = err ?: set_boot_list(&c->rcu_nocbs, &p->rt);
	return err ?: set_boot_list(&c->irqaffinity, &p->housekeeping);
}

void cpuplan_free(struct cpuplan *p)
{
	rtr_cpuset_free(&p->rt);
	rtr_cpuset_free(&p->housekeeping);
	for (size_t i = 0; i < p->n_units; i++) {
		free(p->units[i].cpus);
		free(p->units[i].reason);
	}
	free(p->units);
	for (size_t i = 0; i < p->n_notes; i++)
		free(p->notes[i].text);
	free(p->notes);
	free(p->refusal);
	*p = (struct cpuplan)CPUPLAN_INIT;
}
