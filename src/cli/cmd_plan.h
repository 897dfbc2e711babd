/* SPDX-License-Identifier: MIT */
/*
 * `rtready plan`: options (parsed without side effects, unit-tested) and the
 * one entry that turns a root directory into a planned RT CPU set, used by
 * plan itself and by `--rt-cpus auto` in the other commands.
 */
#ifndef RTR_CLI_CMD_PLAN_H
#define RTR_CLI_CMD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cpuplan/cpuplan.h"
#include "probe/facts.h"
#include "probe/placement.h"
#include "probe/rootfs.h"

struct plan_opts {
	size_t rt_count;	/* --rt N; 0: as many as can be spared */
	int node;		/* --node N; -1: not given */
	const char *near;	/* --near IFACE|IRQ; NULL: not given */
	const char *root;
	enum output_format format;
	const char *output;
	int64_t window_ns;	/* --window: the load measured this long; 0: not measured */
	bool help, version;
};

/* How long plan (and --rt-cpus auto) measures the load on the live system. */
#define PLAN_WINDOW_DEFAULT_NS 500000000LL

/* Parse argv (argv[0] = "plan"). Return: 0, or -EINVAL with a message in @err. */
int plan_opts_parse(int argc, char **argv, struct plan_opts *o, char *err, size_t errlen);

/*
 * Plan under @fs from gathered CPU and IRQ facts: reads the managed IRQs
 * (debugfs) and the node of @near, on the live system measures the load
 * housekeeping must carry over @window_ns (0: not measured), then runs the
 * planner. @managed is filled for the caller to free. Return: as
 * cpuplan_make(), or -EINVAL with a message in @err for a --near that names
 * nothing.
 */
int plan_run(const struct rootfs *fs, const struct cpu_facts *cpu, const struct irq_facts *irq,
	     size_t rt_count, int node, const char *near, int64_t window_ns,
	     struct managed_irqs *managed, struct cpuplan *plan, char *err, size_t errlen)
	__attribute__((warn_unused_result));

/*
 * `--rt-cpus auto` / `auto:N` of the other commands: plan @n RT CPUs (0:
 * the default) under @root into @out. Return: 0, or -errno with a message
 * in @err (the planner's refusal for -EDOM).
 */
int plan_auto_rt_cpus(const char *root, size_t n, struct rtr_cpuset *out, char *err,
		      size_t errlen) __attribute__((warn_unused_result));

#endif
