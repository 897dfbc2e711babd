// SPDX-License-Identifier: MIT
/*
 * The planner run under a target: what src/cpuplan needs that must be read
 * (the node of --near, the managed IRQs, the load housekeeping carries),
 * then the plan itself. Used by `plan` and by `--rt-cpus auto`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "checks/check.h"
#include "cpuplan/cpuplan.h"
#include "probe/cpuload.h"
#include "probe/placement.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/parse.h"
#include "util/strbuf.h"

/* The node of --near: an IRQ number, or a network interface. */
static int near_node(const struct rootfs *fs, const char *near, int *node, char *why,
		     size_t whylen, char *err, size_t errlen)
{
	int64_t irq;
	int e;

	if (parse_int64(near, 0, INT32_MAX, &irq) == 0) {
		e = probe_irq_node(fs, (int)irq, node);
		if (e == -EBADMSG) {
			snprintf(err, errlen, "--near %s: /proc/irq/%s/node is not a NUMA node "
				 "number (use --node)", near, near);
			return -EINVAL;
		}
		if (e) {
			snprintf(err, errlen, "--near %s: cannot read /proc/irq/%s/node: %s", near,
				 near, strerror(-e));
			return -EINVAL;
		}
		snprintf(why, whylen, "IRQ %s is on node %d (/proc/irq/%s/node)", near, *node,
			 near);
		return 0;
	}
	e = probe_net_node(fs, near, node);
	if (e == -EINVAL) {
		snprintf(err, errlen, "--near: '%s' is neither an IRQ number nor an interface name",
			 near);
		return -EINVAL;
	}
	if (e == -EBADMSG) {
		snprintf(err, errlen, "--near %s: /sys/class/net/%s/device/numa_node is not a "
			 "NUMA node number (use --node)", near, near);
		return -EINVAL;
	}
	if (e == -ENOENT) {
		snprintf(err, errlen,
			 "--near %s: cannot read /sys/class/net/%s/device/numa_node: %s (a virtual "
			 "interface has no device; use --node)", near, near, strerror(-e));
		return -EINVAL;
	}
	if (e) {
		snprintf(err, errlen, "--near %s: cannot read /sys/class/net/%s/device/numa_node: "
			 "%s (use --node)", near, near, strerror(-e));
		return -EINVAL;
	}
	snprintf(why, whylen, "%s is on node %d (its device's numa_node)", near, *node);
	return 0;
}

/* Why the online CPUs are unknown, as check says it of the file. */
static void online_unknown(const struct cpu_facts *cpu, char *err, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;

	check_put_read_err(&sb, "/sys/devices/system/cpu/online",
			   cpu->online_err ? cpu->online_err : -ENODATA);
	snprintf(err, errlen, "%s; the online CPUs are unknown, so no plan is made",
		 sb.err ? "cannot read /sys/devices/system/cpu/online" : strbuf_str(&sb));
	strbuf_free(&sb);
}

/*
 * The load housekeeping carries now: the busy time of the CPUs that are not
 * isolated (isolated ones run RT work) and the device interrupts, over
 * @window_ns. Fills @in's min_housekeeping and housekeeping_why (in @why).
 * A load that cannot be read leaves the plan structural, with a warning in
 * @warn.
 */
static int measure_load(const struct rootfs *fs, const struct cpu_facts *cpu, int64_t window_ns,
			struct cpuplan_input *in, char *why, size_t whylen, char *warn,
			size_t warnlen)
{
	const struct rtr_cpuset *rt = !cpu->isolated_err && !rtr_cpuset_is_empty(&cpu->isolated) ?
					      &cpu->isolated : NULL;
	struct timespec ts = {window_ns / 1000000000, window_ns % 1000000000};
	int64_t t0;
	struct cpuload_sample a, b;
	struct cpuload l;
	char irqs[64] = "";
	int e = cpuload_sample(fs, rt, &a);

	t0 = mono_ns();
	while (!e && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	e = e ?: cpuload_sample(fs, rt, &b);
	/* The rate over the time that passed between the samples, not the one asked for. */
	e = e ?: cpuload_between(&a, &b, mono_ns() - t0, &l);
	if (e == -ENOMEM)
		return e;
	if (e) {
		snprintf(warn, warnlen, "the load was not measured (/proc/stat: %s): "
			 "housekeeping is sized by the topology alone", strerror(-e));
		return 0;
	}
	if (l.irq_per_s >= 0)
		snprintf(irqs, sizeof(irqs), " and %.0f device interrupts/s", l.irq_per_s);
	snprintf(why, whylen, "%.2f CPUs busy%s%s over %lld ms (/proc/stat, /proc/interrupts)",
		 l.busy_cpus, rt ? " outside the isolated CPUs" : "", irqs,
		 (long long)(window_ns / 1000000));
	in->min_housekeeping = l.housekeeping;
	in->housekeeping_why = why;
	return 0;
}

int target_plan(struct target *t, const struct target_plan_req *req, struct managed_irqs *managed,
		struct cpuplan *plan, char *err, size_t errlen)
{
	const struct rootfs *fs = &t->fs;
	const struct cpu_facts *cpu = &t->facts.cpu;
	const char *near = req->near;
	char why[160] = "", load_why[192] = "";
	struct cpuplan_input in = { cpu, managed, req->rt_count, req->node, NULL, 0, NULL };
	int e;

	if (req->node >= 0) {
		snprintf(why, sizeof(why), "--node %d", req->node);
		in.node_why = why;
	}
	if (near) {
		e = near_node(fs, near, &in.node, why, sizeof(why), err, errlen);
		if (e)
			return e;
		in.node_why = why;
		if (in.node < 0) {
			snprintf(t->plan_warning, sizeof(t->plan_warning), "--near %s: its device "
				 "is on no NUMA node; the planner chooses", near);
			in.node_why = NULL;
		}
	}
	e = probe_managed_irqs(&t->facts.irq, managed);
	if (e)
		return e;
	if (fs->host && req->window_ns > 0) {
		e = measure_load(fs, cpu, req->window_ns, &in, load_why, sizeof(load_why),
				 t->plan_warning, sizeof(t->plan_warning));
		if (e)
			return e;
	}
	e = cpuplan_make(&in, plan);
	if (e == -EDOM)
		snprintf(err, errlen, "no plan: %s (rule %s)", plan->refusal,
			 cpuplan_rule_name(plan->refused_rule));
	else if (e == -ENODATA)
		online_unknown(cpu, err, errlen);
	else if (e)
		snprintf(err, errlen, "%s", strerror(-e));
	return e;
}
