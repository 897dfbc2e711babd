// SPDX-License-Identifier: MIT
/*
 * The CPU planner on hand-made facts: whole cores, whole L2 clusters, the
 * boot CPU, the fastest cores (cpu_capacity and hybrid PMUs), NUMA nodes
 * (chosen, asked for, kept for housekeeping), managed IRQs, maxcpus, and
 * the refusals with the rule that blocks them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "cpuplan/cpuplan.h"

/* ---- building facts ------------------------------------------------------ */

static void set_list(struct rtr_cpuset *s, const char *list)
{
	rtr_cpuset_clear(s);
	assert_int_equal(rtr_cpuset_parse_list(s, list), 0);
}

/* @n online CPUs (present = online unless @present given), no topology yet. */
static void machine(struct cpu_facts *c, int n, int present)
{
	char l[32];

	memset(c, 0, sizeof(*c));
	snprintf(l, sizeof(l), "0-%d", n - 1);
	set_list(&c->online, l);
	snprintf(l, sizeof(l), "0-%d", (present ? present : n) - 1);
	set_list(&c->present, l);
	set_list(&c->possible, l);
	c->nodes_err = -ENOENT;
	c->hybrid_err = -ENOENT;
	c->cpus = calloc((size_t)n, sizeof(*c->cpus));
	assert_non_null(c->cpus);
	c->n_cpus = (size_t)n;
	for (int i = 0; i < n; i++) {
		c->cpus[i].cpu = i;
		c->cpus[i].siblings_err = -ENOENT;
		c->cpus[i].cache_err = -ENOENT;
		c->cpus[i].capacity_err = -ENOENT;
		c->cpus[i].node = -1;
	}
}

/* SMT siblings: each group "a,b" */
static void siblings(struct cpu_facts *c, const char *list)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;

	set_list(&s, list);
	for (int x = rtr_cpuset_next(&s, -1); x >= 0; x = rtr_cpuset_next(&s, x)) {
		c->cpus[x].siblings_err = 0;
		assert_int_equal(rtr_cpuset_copy(&c->cpus[x].siblings, &s), 0);
	}
	rtr_cpuset_free(&s);
}

/* One cache of @level shared by @list (added to each CPU of it). */
static void cache(struct cpu_facts *c, int level, const char *list)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;

	set_list(&s, list);
	for (int x = rtr_cpuset_next(&s, -1); x >= 0; x = rtr_cpuset_next(&s, x)) {
		struct cpu_info *ci = &c->cpus[x];
		struct cpu_cache *k = &ci->caches[ci->n_caches++];

		ci->cache_err = 0;
		k->level = level;
		strcpy(k->type, "Unified");
		assert_int_equal(rtr_cpuset_copy(&k->shared, &s), 0);
	}
	rtr_cpuset_free(&s);
}

static void capacity(struct cpu_facts *c, const char *list, int64_t cap)
{
	struct rtr_cpuset s = RTR_CPUSET_INIT;

	set_list(&s, list);
	for (int x = rtr_cpuset_next(&s, -1); x >= 0; x = rtr_cpuset_next(&s, x)) {
		c->cpus[x].capacity_err = 0;
		c->cpus[x].capacity = cap;
	}
	rtr_cpuset_free(&s);
}

static void node(struct cpu_facts *c, int id, const char *list)
{
	struct cpu_node *n = realloc(c->nodes, (c->n_nodes + 1) * sizeof(*n));

	assert_non_null(n);
	c->nodes = n;
	n = &c->nodes[c->n_nodes++];
	n->id = id;
	memset(&n->cpus, 0, sizeof(n->cpus));
	set_list(&n->cpus, list);
	c->nodes_err = 0;
	for (int x = rtr_cpuset_next(&n->cpus, -1); x >= 0; x = rtr_cpuset_next(&n->cpus, x))
		c->cpus[x].node = id;
}

/* ---- running the planner --------------------------------------------------- */

struct run {
	struct cpuplan p;
	int rc;
	char rt[256], hk[256];
};

/* The measured load of the next plan() (0: none). */
static size_t load_hk;

static void plan(struct run *r, const struct cpu_facts *c, size_t n, int nd,
		 const struct managed_irqs *m)
{
	struct cpuplan_input in = { c, m, n, nd, nd >= 0 ? "--node" : NULL, load_hk,
				    load_hk ? "2.40 CPUs busy over 500 ms" : NULL };

	r->p = (struct cpuplan)CPUPLAN_INIT;
	r->rc = cpuplan_make(&in, &r->p);
	rtr_cpuset_format_list(&r->p.rt, r->rt, sizeof(r->rt));
	rtr_cpuset_format_list(&r->p.housekeeping, r->hk, sizeof(r->hk));
}

static bool relaxed(const struct run *r, enum cpuplan_rule rule)
{
	for (size_t i = 0; i < r->p.n_notes; i++)
		if (r->p.notes[i].rule == rule && r->p.notes[i].relaxed)
			return true;
	return false;
}

static bool any_relaxed(const struct run *r)
{
	for (size_t i = 0; i < r->p.n_notes; i++)
		if (r->p.notes[i].relaxed)
			return true;
	return false;
}

static bool noted(const struct run *r, enum cpuplan_rule rule, const char *text)
{
	for (size_t i = 0; i < r->p.n_notes; i++)
		if (r->p.notes[i].rule == rule && strstr(r->p.notes[i].text, text))
			return true;
	return false;
}

static void done(struct run *r)
{
	cpuplan_free(&r->p);
}

/* ---- tests -------------------------------------------------------------------- */

static void test_two_cpu_vm(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 2, 0);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1");
	assert_string_equal(r.hk, "0");
	assert_true(noted(&r, CPUPLAN_RULE_COUNT_, "Only 1 RT CPU"));
	assert_true(noted(&r, CPUPLAN_RULE_L2, "No cache topology"));
	assert_true(noted(&r, CPUPLAN_RULE_SMT, "unknown"));
	done(&r);
	plan(&r, &c, 2, -1, NULL);
	assert_int_equal(r.rc, -EDOM);
	assert_int_equal(r.p.refused_rule, CPUPLAN_RULE_HOUSEKEEPING);
	done(&r);
	probe_cpu_free(&c);
}

static void test_one_cpu(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 1, 0);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, -EDOM);
	assert_int_equal(r.p.refused_rule, CPUPLAN_RULE_HOUSEKEEPING);
	assert_non_null(strstr(r.p.refusal, "no CPU can be spared"));
	done(&r);
	probe_cpu_free(&c);
}

static void test_online_unknown(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 4, 0);
	c.online_err = -ENOENT;
	c.present_err = -ENOENT;
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, -ENODATA);
	done(&r);
	/* present is no stand-in: its CPUs may be offline (issue 24, 2.2). */
	c.present_err = 0;
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, -ENODATA);
	assert_true(rtr_cpuset_is_empty(&r.p.rt));
	done(&r);
	probe_cpu_free(&c);
}

/* 4 cores x 2 threads, siblings n and n+4, L2 per core. */
static void smt8(struct cpu_facts *c)
{
	machine(c, 8, 0);
	for (int i = 0; i < 4; i++) {
		char l[16];

		snprintf(l, sizeof(l), "%d,%d", i, i + 4);
		siblings(c, l);
		cache(c, 1, l);
		cache(c, 2, l);
	}
	cache(c, 3, "0-7");
}

static void test_smt_whole_cores(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	smt8(&c);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3,5-7");
	assert_string_equal(r.hk, "0,4");
	assert_false(any_relaxed(&r));
	done(&r);
	plan(&r, &c, 2, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "3,7");	/* one whole core, the highest */
	done(&r);
	plan(&r, &c, 3, -1, NULL);
	assert_int_equal(r.rc, -EDOM);
	assert_int_equal(r.p.refused_rule, CPUPLAN_RULE_SMT);
	assert_non_null(strstr(r.p.refusal, "ask for 2 or 4"));
	done(&r);
	plan(&r, &c, 7, -1, NULL);
	assert_int_equal(r.rc, -EDOM);
	done(&r);
	probe_cpu_free(&c);
}

static bool has_note(const struct run *r, enum cpuplan_rule rule, bool relax, const char *text)
{
	for (size_t i = 0; i < r->p.n_notes; i++)
		if (r->p.notes[i].rule == rule && r->p.notes[i].relaxed == relax &&
		    strstr(r->p.notes[i].text, text))
			return true;
	return false;
}

/* Housekeeping sized by the measured load (issue 24, 5): whole cores, --rt still decides. */
static void test_load_housekeeping(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	smt8(&c);
	load_hk = 5;	/* 5 CPUs keep the load under half busy: 2 whole cores more */
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "3,7");	/* at most 3 of the 6: one whole core */
	assert_true(has_note(&r, CPUPLAN_RULE_HOUSEKEEPING, false,
			     "so 2 RT CPUs instead of the 6 that could be spared"));
	done(&r);
	load_hk = 2;	/* the boot core already carries it */
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3,5-7");
	assert_true(has_note(&r, CPUPLAN_RULE_HOUSEKEEPING, false, "and the plan leaves 2"));
	done(&r);
	load_hk = 4;	/* --rt decides, and the note says what it costs */
	plan(&r, &c, 6, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3,5-7");
	assert_true(has_note(&r, CPUPLAN_RULE_HOUSEKEEPING, true, "--rt 6 leaves 2"));
	done(&r);
	/* Nothing (8) or less than a core (7) left for RT: still one RT core, and said. */
	for (load_hk = 7; load_hk <= 8; load_hk++) {
		plan(&r, &c, 0, -1, NULL);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.rt, "3,7");
		assert_true(has_note(&r, CPUPLAN_RULE_HOUSEKEEPING, true,
				     "the plan keeps one RT core (2 CPUs)"));
		done(&r);
	}
	load_hk = 0;
	probe_cpu_free(&c);
}

/* Whatever the count, the boot CPU and its siblings stay housekeeping. */
static void test_never_boot_cpu(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	smt8(&c);
	for (size_t n = 0; n <= 8; n++) {
		plan(&r, &c, n, -1, NULL);
		if (r.rc == 0) {
			assert_false(rtr_cpuset_test(&r.p.rt, 0));
			assert_false(rtr_cpuset_test(&r.p.rt, 4));
			assert_int_equal(r.p.boot_cpu, 0);
		}
		done(&r);
	}
	probe_cpu_free(&c);
}

/* RK3399: 4 x A53 (485) sharing an L2, 2 x A72 (1024) sharing another. */
static void biglittle(struct cpu_facts *c)
{
	machine(c, 6, 0);
	for (int i = 0; i < 6; i++) {
		char l[8];

		snprintf(l, sizeof(l), "%d", i);
		siblings(c, l);
		cache(c, 1, l);
	}
	cache(c, 2, "0-3");
	cache(c, 2, "4-5");
	capacity(c, "0-3", 485);
	capacity(c, "4-5", 1024);
}

static void test_biglittle(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	biglittle(&c);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "4-5");	/* the big cluster, whole */
	assert_false(any_relaxed(&r));
	done(&r);
	plan(&r, &c, 1, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "5");		/* fast beats a whole L2: said so */
	assert_true(relaxed(&r, CPUPLAN_RULE_L2));
	done(&r);
	plan(&r, &c, 3, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "3-5");
	assert_true(relaxed(&r, CPUPLAN_RULE_CAPACITY));
	assert_true(relaxed(&r, CPUPLAN_RULE_L2));
	done(&r);
	probe_cpu_free(&c);
}

/* Three classes: 280 (0-2), 855 (3-6), 1024 (7): the default takes 855 and up. */
static void test_three_speeds(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 8, 0);
	capacity(&c, "0-2", 280);
	capacity(&c, "3-6", 855);
	capacity(&c, "7", 1024);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "3-7");
	done(&r);
	plan(&r, &c, 1, -1, NULL);
	assert_string_equal(r.rt, "7");
	done(&r);
	probe_cpu_free(&c);
}

static void test_hybrid(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 12, 0);
	for (int i = 0; i < 4; i++) {
		char l[16];

		snprintf(l, sizeof(l), "%d-%d", 2 * i, 2 * i + 1);
		siblings(&c, l);
		cache(&c, 2, l);
	}
	siblings(&c, "8");
	siblings(&c, "9");
	siblings(&c, "10");
	siblings(&c, "11");
	cache(&c, 2, "8-11");
	c.hybrid_err = 0;
	set_list(&c.hybrid_core, "0-7");
	set_list(&c.hybrid_atom, "8-11");
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "2-7");
	assert_string_equal(r.hk, "0-1,8-11");
	assert_true(noted(&r, CPUPLAN_RULE_CAPACITY, "performance cores 0-7"));
	done(&r);
	plan(&r, &c, 8, -1, NULL);	/* all P-cores but the boot one, then the E module */
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "2-7,10-11");
	assert_true(relaxed(&r, CPUPLAN_RULE_CAPACITY));
	assert_true(relaxed(&r, CPUPLAN_RULE_L2));
	done(&r);
	probe_cpu_free(&c);
}

/* A quad-core board with one L2 for all: the other three cores, L2 relaxed. */
static void test_one_l2(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 4, 0);
	for (int i = 0; i < 4; i++) {
		char l[8];

		snprintf(l, sizeof(l), "%d", i);
		siblings(&c, l);
	}
	cache(&c, 2, "0-3");
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3");
	assert_true(relaxed(&r, CPUPLAN_RULE_L2));
	done(&r);
	probe_cpu_free(&c);
}

/* Two nodes of 2 cores x 2 threads: node 0 0-1,4-5, node 1 2-3,6-7. */
static void numa8(struct cpu_facts *c)
{
	machine(c, 8, 0);
	for (int i = 0; i < 4; i++) {
		char l[16];

		snprintf(l, sizeof(l), "%d,%d", i, i + 4);
		siblings(c, l);
		cache(c, 2, l);
	}
	node(c, 0, "0-1,4-5");
	node(c, 1, "2-3,6-7");
}

static void test_numa(void **state)
{
	struct managed_irqs m = { 0 };
	struct cpu_facts c;
	struct run r;

	(void)state;
	numa8(&c);
	/* Default: each node keeps a core; node 1 has more to spare. */
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1,3,5,7");
	assert_string_equal(r.hk, "0,2,4,6");
	assert_int_equal(r.p.node, 0);	/* tie: 2 and 2 spare, the lower node */
	done(&r);
	plan(&r, &c, 2, 1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "3,7");
	assert_int_equal(r.p.node, 1);
	done(&r);
	/* Node 1 asked for, 4 CPUs: its housekeeping core gives way, said so. */
	plan(&r, &c, 4, 1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "2-3,6-7");
	assert_true(relaxed(&r, CPUPLAN_RULE_NODE_HOUSEKEEPING));
	done(&r);
	plan(&r, &c, 6, 1, NULL);
	assert_int_equal(r.rc, -EDOM);
	assert_int_equal(r.p.refused_rule, CPUPLAN_RULE_NODE);
	done(&r);
	plan(&r, &c, 2, 5, NULL);
	assert_int_equal(r.rc, -EDOM);
	assert_int_equal(r.p.refused_rule, CPUPLAN_RULE_NODE);
	done(&r);
	/* Without --node, 4 CPUs spill over to the other node. */
	plan(&r, &c, 4, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1,3,5,7");
	assert_true(relaxed(&r, CPUPLAN_RULE_NODE));
	done(&r);
	/* Managed IRQs on CPU 3: node 1 keeps that core for housekeeping. */
	set_list(&m.cpus, "3");
	m.n = 1;
	plan(&r, &c, 2, 1, &m);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "2,6");
	assert_false(relaxed(&r, CPUPLAN_RULE_MANAGED_IRQ));
	done(&r);
	rtr_cpuset_free(&m.cpus);
	probe_cpu_free(&c);
}

static void test_managed_irqs(void **state)
{
	struct managed_irqs m = { 0 };
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 4, 0);
	set_list(&m.cpus, "3");
	m.n = 2;
	plan(&r, &c, 1, -1, &m);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "2");	/* not 3, which has them */
	done(&r);
	plan(&r, &c, 3, -1, &m);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3");
	assert_true(relaxed(&r, CPUPLAN_RULE_MANAGED_IRQ));
	done(&r);
	m.err = -EACCES;
	plan(&r, &c, 1, -1, &m);
	assert_true(noted(&r, CPUPLAN_RULE_MANAGED_IRQ, "unknown"));
	done(&r);
	rtr_cpuset_free(&m.cpus);
	probe_cpu_free(&c);
}

static void test_maxcpus(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	machine(&c, 4, 8);
	c.maxcpus_given = true;
	c.maxcpus = 4;
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.rt, "1-3");
	assert_true(noted(&r, CPUPLAN_RULE_ONLINE,
			  "CPUs 4-7 are present but not online (maxcpus=4"));
	done(&r);
	probe_cpu_free(&c);
}

static void test_simulate_boot(void **state)
{
	struct cpu_facts c;
	struct run r;
	char l[64];

	(void)state;
	smt8(&c);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(cpuplan_simulate_boot(&r.p, &c), 0);
	rtr_cpuset_format_list(&c.isolated, l, sizeof(l));
	assert_string_equal(l, "1-3,5-7");
	assert_true(c.isolcpus.given);
	assert_true(c.isolcpus_flags & CPU_ISOL_MANAGED_IRQ);
	assert_string_equal(c.irqaffinity.text, "0,4");
	assert_string_equal(c.rcu_nocbs.text, "1-3,5-7");
	done(&r);
	probe_cpu_free(&c);
}

/* Every cluster carries a reason, and every plan names its count. */
static void test_reasons(void **state)
{
	struct cpu_facts c;
	struct run r;

	(void)state;
	biglittle(&c);
	plan(&r, &c, 0, -1, NULL);
	assert_int_equal(r.p.n_units, 2);
	for (size_t i = 0; i < r.p.n_units; i++)
		assert_true(r.p.units[i].reason && *r.p.units[i].reason);
	assert_int_equal(r.p.units[0].role, CPUPLAN_HOUSEKEEPING);
	assert_int_equal(r.p.units[1].role, CPUPLAN_RT);
	assert_non_null(strstr(r.p.units[0].reason, "boot CPU 0"));
	assert_true(noted(&r, CPUPLAN_RULE_COUNT_, "2 RT CPUs"));
	done(&r);
	probe_cpu_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpu_vm),
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_online_unknown),
		cmocka_unit_test(test_load_housekeeping),
		cmocka_unit_test(test_smt_whole_cores),
		cmocka_unit_test(test_never_boot_cpu),
		cmocka_unit_test(test_biglittle),
		cmocka_unit_test(test_three_speeds),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_one_l2),
		cmocka_unit_test(test_numa),
		cmocka_unit_test(test_managed_irqs),
		cmocka_unit_test(test_maxcpus),
		cmocka_unit_test(test_simulate_boot),
		cmocka_unit_test(test_reasons),
	};

	return unit_run(tests, NULL, NULL);
}
