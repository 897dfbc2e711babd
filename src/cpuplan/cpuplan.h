/* SPDX-License-Identifier: MIT */
/*
 * The CPU planner: which CPUs to set apart for realtime work, chosen from the
 * machine's topology. A pure function of the CPU facts (and of the managed
 * IRQs where debugfs showed them): it reads no file, so it is tested on
 * hand-made facts and gives the same plan for a snapshot as for the machine.
 *
 * CPUs are planned in units: a core (its SMT siblings, never split) inside
 * an L2 cluster (the cores that share an L1 or L2 cache, split only when the
 * count asked for cannot be met otherwise, and then said). The boot CPU's
 * cluster stays housekeeping, and so does one cluster per NUMA node; the
 * fastest cores (cpu_capacity, or the performance cores of hybrid Intel
 * parts) and the CPUs without managed IRQs go first; the target node is the
 * one asked for, or the one with the most CPUs to spare. Every decision is
 * written down as a note with the rule behind it, and a rule that had to
 * give way is marked relaxed.
 */
#ifndef RTR_CPUPLAN_CPUPLAN_H
#define RTR_CPUPLAN_CPUPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cpu.h"
#include "probe/placement.h"
#include "rtready/cpuset.h"

/* The rules, in the order the notes give them. */
enum cpuplan_rule {
	CPUPLAN_RULE_ONLINE,		/* only online CPUs are planned */
	CPUPLAN_RULE_BOOT_CPU,		/* the boot CPU stays housekeeping */
	CPUPLAN_RULE_HOUSEKEEPING,	/* at least one whole core stays housekeeping */
	CPUPLAN_RULE_NODE_HOUSEKEEPING,	/* each NUMA node keeps a housekeeping core */
	CPUPLAN_RULE_SMT,		/* whole cores: SMT siblings together */
	CPUPLAN_RULE_L2,		/* whole L2 clusters */
	CPUPLAN_RULE_CAPACITY,		/* the fastest cores first */
	CPUPLAN_RULE_NODE,		/* one NUMA node: asked for, or the most free CPUs */
	CPUPLAN_RULE_MANAGED_IRQ,	/* away from managed IRQs */
	CPUPLAN_RULE_COUNT_,		/* how many: asked for, or all that can be spared */
};

/* "boot_cpu", "smt", ... (the JSON names). */
const char *cpuplan_rule_name(enum cpuplan_rule r);

enum cpuplan_role {
	CPUPLAN_HOUSEKEEPING,
	CPUPLAN_RT,
	CPUPLAN_SPLIT,		/* some cores RT, the others housekeeping */
};

/* "housekeeping", "rt", "split". */
const char *cpuplan_role_name(enum cpuplan_role r);

struct cpuplan_input {
	const struct cpu_facts *cpu;		/* probe_cpu(): per-CPU topology needed */
	const struct managed_irqs *managed;	/* NULL: not looked at */
	size_t rt_count;			/* 0: as many as can be spared */
	int node;				/* -1: let the planner choose */
	const char *node_why;			/* "--node 1", "eth0 is on node 1"; NULL */
	size_t min_housekeeping;		/* by default keep at least this many; 0: any */
	const char *housekeeping_why;		/* the measured load behind it; NULL */
};

/* One L2 cluster (a core where nothing shares its L2). */
struct cpuplan_unit {
	int *cpus;			/* its CPUs, ascending (a list: a machine may */
	size_t n_cpus;			/* have thousands of clusters of high CPUs) */
	size_t n_cores;
	size_t core_size;		/* largest core (SMT threads) */
	int node;			/* -1: unknown */
	int64_t capacity;		/* the largest cpu_capacity, -1 unknown */
	bool fast;			/* in the fastest class (always true when homogeneous) */
	bool boot;			/* holds the boot CPU */
	size_t n_managed;		/* its CPUs that receive managed IRQs */
	enum cpuplan_role role;
	char *reason;
};

struct cpuplan_note {
	enum cpuplan_rule rule;
	bool relaxed;			/* the rule gave way to meet the count */
	char *text;
};

struct cpuplan {
	struct rtr_cpuset rt;
	struct rtr_cpuset housekeeping;	/* online CPUs that are not RT */
	int boot_cpu;
	int node;			/* the target node, -1 when not NUMA */
	size_t requested;		/* 0: the default */
	struct cpuplan_unit *units;	/* ascending by first CPU */
	size_t n_units;
	struct cpuplan_note *notes;
	size_t n_notes;
	enum cpuplan_rule refused_rule;	/* when cpuplan_make() returned -EDOM */
	char *refusal;			/* why no plan can be made, NULL otherwise */
};

#define CPUPLAN_INIT { RTR_CPUSET_INIT, RTR_CPUSET_INIT, -1, -1, 0, NULL, 0, NULL, 0, 0, NULL }

/*
 * Plan the RT CPUs of @in into @out (initialised with CPUPLAN_INIT).
 * Return: 0; -EDOM when no plan keeps the rules that cannot give way
 * (out->refusal and out->refused_rule say which); -ENODATA when the online
 * CPUs are unknown (online_err: never guessed from the present ones); -ENOMEM.
 */
int cpuplan_make(const struct cpuplan_input *in, struct cpuplan *out)
	__attribute__((warn_unused_result));

/*
 * What the boot line of @p does to @c, as if the machine were rebooted with
 * it: isolated, nohz_full and the isolcpus=, nohz_full=, rcu_nocbs= and
 * irqaffinity= parameters. Lets `plan` run the checks on the planned
 * machine. Return: 0 or -ENOMEM.
 */
int cpuplan_simulate_boot(const struct cpuplan *p, struct cpu_facts *c)
	__attribute__((warn_unused_result));

/* @set in the kernel's list syntax, in a new string; NULL: out of memory (lists of 8,192 CPUs are long). */
char *cpuplan_set_list(const struct rtr_cpuset *set);

/* @u's CPUs in the kernel's list syntax ("0-3,8"), in a new string; NULL: out of memory. */
char *cpuplan_unit_list(const struct cpuplan_unit *u);

void cpuplan_free(struct cpuplan *p);

#endif
