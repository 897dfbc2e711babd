// SPDX-License-Identifier: MIT
/*
 * CPU checks. Realtime work needs CPUs of its own: no other task placed
 * there by the scheduler, no kernel housekeeping (RCU callbacks, unbound
 * workqueues, migrated timers), no SMT sibling or shared L2 cache with a
 * busy neighbour, and no frequency or idle-state transitions in the way of
 * a wake-up. Every check judges the RT CPUs (--rt-cpus, or the isolated
 * CPUs); when none are declared the per-CPU checks say how to declare them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"

/* An idle state whose exit takes longer than this is "deep" for RT CPUs. */
#define IDLE_EXIT_MAX_US 20
/* Items listed by name in evidence before "and N more". */
#define LIST_MAX 12

/* Append @s as a kernel hex mask covering the possible CPUs. */
static void put_mask(struct strbuf *sb, const struct rtr_cpuset *s, const struct cpu_facts *c)
{
	int last = -1;
	size_t need;
	char *buf;

	for (int x = rtr_cpuset_next(&c->possible, -1); x >= 0; x = rtr_cpuset_next(&c->possible, x))
		last = x;
	for (int x = rtr_cpuset_next(s, -1); x >= 0; x = rtr_cpuset_next(s, x))
		last = x > last ? x : last;
	need = rtr_cpuset_format_mask(s, (size_t)last + 1, NULL, 0);
	buf = malloc(need + 1);
	if (!buf) {
		sb->err = -ENOMEM;
		return;
	}
	rtr_cpuset_format_mask(s, (size_t)last + 1, buf, need + 1);
	strbuf_puts(sb, buf);
	free(buf);
}

static const struct rtr_cpuset *online_set(const struct cpu_facts *c)
{
	return c->online_err ? &c->present : &c->online;
}

static bool no_rt(const struct check_ctx *ctx, struct check_out *out)
{
	if (!rtr_cpuset_is_empty(ctx->rt_cpus))
		return false;
	out->status = RTR_INFO;
	strbuf_puts(&out->evidence, check_no_rt_cpus);
	return true;
}

/* ---- cpu.isolation --------------------------------------------------- */

static void isolation_no_rt(const struct check_ctx *ctx, struct check_out *out)
{
	const struct rtr_cpuset *on = online_set(&ctx->facts->cpu);
	struct rtr_cpuset rest = RTR_CPUSET_INIT;
	size_t n = rtr_cpuset_count(on);
	int last = -1;

	for (int x = rtr_cpuset_next(on, -1); x >= 0; x = rtr_cpuset_next(on, x))
		last = x;
	if (n <= 1) {
		out->status = RTR_INFO;
		strbuf_printf(&out->evidence, "%zu CPU online: nothing can be set apart; %s", n,
			      check_no_rt_cpus);
		return;
	}
	out->status = RTR_WARN;
	strbuf_puts(&out->evidence, "no CPU is set apart for realtime work: "
				    "/sys/devices/system/cpu/isolated is empty and the command "
				    "line has no isolcpus= or nohz_full=; ");
	strbuf_puts(&out->evidence, check_no_rt_cpus);
	if (rtr_cpuset_copy(&rest, on)) {
		out->fix.err = -ENOMEM;
		return;
	}
	rtr_cpuset_unset(&rest, last);
	strbuf_printf(&out->fix,
		      "Choose the RT CPUs (rtready plan proposes them from the topology; for "
		      "example CPU %d) and isolate them at boot: "
		      "isolcpus=domain,managed_irq,%d nohz_full=%d rcu_nocbs=%d irqaffinity=",
		      last, last, last, last);
	check_put_cpus(&out->fix, &rest);
	strbuf_puts(&out->fix, " on the kernel command line (GRUB_CMDLINE_LINUX in "
			       "/etc/default/grub, then update-grub and reboot). Without a reboot, "
			       "a cgroup v2 isolated cpuset partition (cpuset.cpus.partition="
			       "isolated) does part of this, but it does not survive a reboot.");
	rtr_cpuset_free(&rest);
}

/*
 * Runtime isolation: the root's cpuset.cpus.isolated (6.8+) lists the CPUs
 * of valid isolated partitions. Say which partitions hold them, and which
 * partitions the kernel declared invalid (their CPUs are not isolated).
 * Return: 0 or -ENOMEM.
 */
static int put_partitions(struct strbuf *ev, const struct partition_facts *p,
			  struct rtr_cpuset *iso)
{
	size_t shown = 0;

	if (p->isolated_err || rtr_cpuset_is_empty(&p->isolated))
		return 0;
	strbuf_puts(ev, "; isolated at run time by cpuset partition");
	for (size_t i = 0; i < p->n_groups; i++) {
		const struct partition_group *g = &p->groups[i];

		if (!g->valid || strcmp(g->type, "isolated") != 0 || shown >= LIST_MAX)
			continue;
		strbuf_printf(ev, "%s%s", shown++ ? ", " : " ", g->path);
	}
	strbuf_puts(ev, " (cpuset.cpus.isolated ");
	check_put_cpus(ev, &p->isolated);
	strbuf_puts(ev, ")");
	return rtr_cpuset_or(iso, &p->isolated);
}

static void put_invalid_partitions(struct strbuf *ev, const struct partition_facts *p)
{
	for (size_t i = 0; i < p->n_groups && i < LIST_MAX; i++) {
		const struct partition_group *g = &p->groups[i];

		if (g->valid)
			continue;
		strbuf_printf(ev, " The partition %s is '%s invalid'%s%s%s: the kernel does not "
			      "isolate its CPUs.", g->path, g->type, g->reason[0] ? " (" : "",
			      g->reason, g->reason[0] ? ")" : "");
	}
}

static void check_isolation(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	const struct partition_facts *pf = &ctx->facts->partition;
	const struct rtr_cpuset *rt = ctx->rt_cpus;
	struct rtr_cpuset iso = RTR_CPUSET_INIT, nohz = RTR_CPUSET_INIT, rcu = RTR_CPUSET_INIT,
			  miss = RTR_CPUSET_INIT, hk = RTR_CPUSET_INIT, boot = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;
	struct strbuf later = STRBUF_INIT;	/* what only the boot line gives, with a partition */
	bool bad = false, runtime;
	int err = 0;

	if (rtr_cpuset_is_empty(rt)) {
		isolation_no_rt(ctx, out);
		return;
	}
	if (check_cpus_unknown(ctx, out))
		return;
	if (c->isolated_err && c->cmdline_err && (pf->isolated_err || rtr_cpuset_is_empty(
								       &pf->isolated))) {
		check_skip_read(out, "/sys/devices/system/cpu/isolated", c->isolated_err);
		strbuf_puts(ev, ", and ");
		check_put_read_err(ev, "/proc/cmdline", c->cmdline_err);
		strbuf_puts(ev, ": neither the kernel's isolation nor the boot parameters are known");
		return;
	}
	/* What is in effect: sysfs where the kernel exports it, else the command line. */
	if (!c->isolated_err)
		err = rtr_cpuset_copy(&iso, &c->isolated);
	else if (c->isolcpus.given && (c->isolcpus_flags & CPU_ISOL_DOMAIN))
		err = rtr_cpuset_copy(&iso, &c->isolcpus.cpus);
	err = err ?: rtr_cpuset_copy(&boot, &iso);
	if (!c->nohz_full_err)
		err = err ?: rtr_cpuset_copy(&nohz, &c->nohz_full);
	else if (c->nohz_full_param.given)
		err = err ?: rtr_cpuset_copy(&nohz, &c->nohz_full_param.cpus);
	/* nohz_full CPUs are always RCU no-callback CPUs too. */
	err = err ?: rtr_cpuset_copy(&rcu, &c->rcu_nocbs.cpus);
	err = err ?: rtr_cpuset_or(&rcu, &nohz);
	err = err ?: check_housekeeping(ctx, &hk);
	if (err) {
		out->evidence.err = err;
		goto out;
	}
	check_put_rt(ev, ctx);
	strbuf_puts(ev, "; isolated ");
	check_put_cpus(ev, &boot);
	err = put_partitions(ev, pf, &iso);
	if (err) {
		out->evidence.err = err;
		goto out;
	}
	strbuf_puts(ev, ", nohz_full ");
	check_put_cpus(ev, &nohz);
	strbuf_puts(ev, ", RCU no-callback ");
	check_put_cpus(ev, &rcu);
	if (c->irqaffinity.given)
		strbuf_printf(ev, ", irqaffinity=%s", c->irqaffinity.text);
	if (c->cmdline_err)
		strbuf_printf(ev, " (command line unreadable: %s)", strerror(-c->cmdline_err));
	strbuf_puts(ev, ".");
	put_invalid_partitions(ev, pf);
	/*
	 * RT CPUs isolated by a partition but not at boot: the partition is
	 * the runtime path the user chose; what only the boot line can add
	 * (the tick, RCU callbacks, managed IRQs) is listed, not held against it.
	 */
	rtr_cpuset_copy(&miss, rt);
	rtr_cpuset_andnot(&miss, &boot);
	runtime = !rtr_cpuset_is_empty(&miss) && rtr_cpuset_is_subset(rt, &iso);

	rtr_cpuset_copy(&miss, rt);
	rtr_cpuset_andnot(&miss, &iso);
	if (!rtr_cpuset_is_empty(&miss)) {
		bad = true;
		strbuf_puts(ev, " Not isolated from the scheduler: ");
		check_put_cpus(ev, &miss);
		strbuf_puts(ev, " (other tasks are balanced onto them).");
	}
	if (!rtr_cpuset_is_empty(&nohz)) {
		rtr_cpuset_copy(&miss, rt);
		rtr_cpuset_andnot(&miss, &nohz);
		if (!rtr_cpuset_is_empty(&miss)) {
			bad = true;
			strbuf_puts(ev, " nohz_full covers only part of the RT CPUs, not ");
			check_put_cpus(ev, &miss);
			strbuf_puts(ev, ".");
		}
		rtr_cpuset_copy(&miss, &nohz);
		rtr_cpuset_andnot(&miss, rt);
		if (!rtr_cpuset_is_empty(&miss)) {
			strbuf_puts(ev, " nohz_full also covers non-RT CPUs ");
			check_put_cpus(ev, &miss);
			strbuf_puts(ev, ".");
		}
	} else if (runtime) {
		strbuf_puts(&later, " nohz_full= (stops the tick while one task runs)");
	} else {
		strbuf_puts(ev, " No nohz_full: the tick still interrupts the RT CPUs (a "
				"trade-off, see kernel.nohz).");
	}
	rtr_cpuset_copy(&miss, rt);
	rtr_cpuset_andnot(&miss, &rcu);
	if (!rtr_cpuset_is_empty(&miss) && runtime) {
		strbuf_printf(&later, "%s rcu_nocbs= (RCU callbacks still run on ",
			      later.len ? ";" : "");
		check_put_cpus(&later, &miss);
		strbuf_puts(&later, ")");
	} else if (!rtr_cpuset_is_empty(&miss)) {
		bad = true;
		strbuf_puts(ev, " RCU callbacks still run on ");
		check_put_cpus(ev, &miss);
		strbuf_puts(ev, " (no rcu_nocbs= or nohz_full= for them).");
	}
	if (runtime && !(c->isolcpus.given && (c->isolcpus_flags & CPU_ISOL_MANAGED_IRQ)))
		strbuf_printf(&later, "%s isolcpus=managed_irq (a partition does not move the "
			      "queue interrupts that drivers spread over all CPUs)",
			      later.len ? ";" : "");
	if (later.len)
		strbuf_printf(ev, " The partition isolates from the scheduler only; the boot line "
			      "would still add:%s.", strbuf_str(&later));
	if (c->irqaffinity.given && rtr_cpuset_intersects(&c->irqaffinity.cpus, rt)) {
		bad = true;
		strbuf_puts(ev, " irqaffinity= sends interrupts to RT CPUs.");
	}
	if (c->isolcpus.given && !(c->isolcpus_flags & CPU_ISOL_MANAGED_IRQ))
		strbuf_puts(ev, " isolcpus= has no managed_irq flag: drivers that spread their "
				"queue interrupts over all CPUs still use the RT CPUs.");
	rtr_cpuset_copy(&miss, &iso);
	rtr_cpuset_andnot(&miss, rt);
	if (!rtr_cpuset_is_empty(&miss)) {
		strbuf_puts(ev, " Isolated but not declared RT: ");
		check_put_cpus(ev, &miss);
		strbuf_puts(ev, ".");
	}
	out->status = bad ? RTR_WARN : RTR_PASS;
	if (bad) {
		struct strbuf *fx = &out->fix;

		strbuf_puts(fx, "Put these on the kernel command line and reboot: isolcpus=domain,"
				"managed_irq,");
		check_put_cpus(fx, rt);
		strbuf_puts(fx, " nohz_full=");
		check_put_cpus(fx, rt);
		strbuf_puts(fx, " rcu_nocbs=");
		check_put_cpus(fx, rt);
		if (!rtr_cpuset_is_empty(&hk)) {
			strbuf_puts(fx, " irqaffinity=");
			check_put_cpus(fx, &hk);
		}
		strbuf_puts(fx, " (GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub). "
				"These are boot parameters: nothing changes them at run time. The "
				"runtime alternative, a cgroup v2 isolated cpuset partition (rtready "
				"tune --rt-cpus ");
		check_put_cpus(fx, rt);
		strbuf_puts(fx, " --isolate --apply), keeps other tasks off without a reboot, "
				"but not the tick, RCU callbacks or managed IRQs, and it does not "
				"survive a reboot");
		if (pf->hier == PARTITION_HIER_V1)
			strbuf_puts(fx, "; not here: cpuset is on a cgroup v1 hierarchy (cgroup v2 "
					"only: systemd.unified_cgroup_hierarchy=1)");
		else if (pf->hier != PARTITION_HIER_V2)
			strbuf_puts(fx, "; not here: no cgroup v2 hierarchy with the cpuset "
					"controller");
		else if (!partition_supported(pf))
			strbuf_puts(fx, "; not here: this kernel has no cpuset.cpus.isolated "
					"(Linux 6.8+)");
		strbuf_puts(fx, ".");
	}
out:
	rtr_cpuset_free(&iso);
	rtr_cpuset_free(&nohz);
	rtr_cpuset_free(&rcu);
	rtr_cpuset_free(&miss);
	rtr_cpuset_free(&hk);
	rtr_cpuset_free(&boot);
	strbuf_free(&later);
}

/* ---- cpu.maxcpus ----------------------------------------------------- */

static void check_maxcpus(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset off = RTR_CPUSET_INIT, rt_off = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;

	if (c->online_err) {
		check_skip_read(out, "/sys/devices/system/cpu/online", c->online_err);
		return;
	}
	strbuf_puts(ev, "online ");
	check_put_cpus(ev, &c->online);
	strbuf_puts(ev, ", present ");
	if (c->present_err)
		strbuf_puts(ev, "unknown");
	else
		check_put_cpus(ev, &c->present);
	strbuf_puts(ev, ", possible ");
	if (c->possible_err)
		strbuf_puts(ev, "unknown");
	else
		check_put_cpus(ev, &c->possible);
	if (c->maxcpus_given)
		strbuf_printf(ev, "; maxcpus=%lld", (long long)c->maxcpus);
	if (c->nr_cpus_given)
		strbuf_printf(ev, "; nr_cpus=%lld", (long long)c->nr_cpus);
	if (!c->present_err && rtr_cpuset_copy(&off, &c->present) == 0)
		rtr_cpuset_andnot(&off, &c->online);
	if (rtr_cpuset_copy(&rt_off, ctx->rt_cpus) == 0)
		rtr_cpuset_andnot(&rt_off, &c->online);
	if (!rtr_cpuset_is_empty(&rt_off)) {
		out->status = RTR_FAIL;
		strbuf_puts(ev, ". RT CPUs not online: ");
		check_put_cpus(ev, &rt_off);
		strbuf_puts(ev, " (a thread pinned only there never runs).");
		strbuf_puts(&out->fix, "Bring them online: ");
		for (int x = rtr_cpuset_next(&rt_off, -1); x >= 0; x = rtr_cpuset_next(&rt_off, x))
			strbuf_printf(&out->fix, "echo 1 > /sys/devices/system/cpu/cpu%d/online; ", x);
		strbuf_puts(&out->fix, "and drop or raise maxcpus=/nr_cpus= on the kernel command "
				       "line, or declare other RT CPUs. The online write does not "
				       "survive a reboot.");
	} else if (!rtr_cpuset_is_empty(&off) || c->maxcpus_given || c->nr_cpus_given) {
		out->status = RTR_INFO;
		if (!rtr_cpuset_is_empty(&off)) {
			strbuf_puts(ev, ". Present but offline: ");
			check_put_cpus(ev, &off);
		}
		strbuf_puts(ev, ". The kernel does not use every CPU: right when deliberate (a "
				"bare-metal program on the others), a waste otherwise.");
	} else {
		out->status = RTR_PASS;
		strbuf_puts(ev, ": every present CPU is online.");
	}
	rtr_cpuset_free(&off);
	rtr_cpuset_free(&rt_off);
}

/* ---- cpu.smt ----------------------------------------------------------- */

static void check_smt(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset shared = RTR_CPUSET_INIT, rtsib = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;
	size_t read = 0, listed = 0, bad = 0;

	if (no_rt(ctx, out)) {
		if (c->smt_active >= 0)
			strbuf_printf(ev, ". SMT is %s.", c->smt_active ? "active" : "off");
		return;
	}
	if (check_cpus_unknown(ctx, out))
		return;
	check_put_rt(ev, ctx);
	strbuf_puts(ev, ".");
	for (int x = rtr_cpuset_next(ctx->rt_cpus, -1); x >= 0; x = rtr_cpuset_next(ctx->rt_cpus, x)) {
		const struct cpu_info *ci = cpu_facts_find(c, x);

		if (!ci || ci->siblings_err)
			continue;
		read++;
		rtr_cpuset_copy(&shared, &ci->siblings);
		rtr_cpuset_andnot(&shared, ctx->rt_cpus);
		if (rtr_cpuset_is_empty(&shared))
			continue;
		bad++;
		rtr_cpuset_or(&rtsib, &shared);
		if (listed++ < LIST_MAX) {
			strbuf_printf(ev, " CPU %d shares its core with non-RT CPU ", x);
			check_put_cpus(ev, &shared);
			strbuf_puts(ev, ".");
		}
	}
	if (listed > LIST_MAX)
		strbuf_printf(ev, " And %zu more.", listed - LIST_MAX);
	if (!read) {
		const struct cpu_info *ci = cpu_facts_find(c, rtr_cpuset_next(ctx->rt_cpus, -1));

		out->status = RTR_SKIP;
		strbuf_puts(ev, " No topology/thread_siblings_list (nor thread_siblings) readable "
				"for the RT CPUs");
		if (ci) {
			char path[80];

			snprintf(path, sizeof(path), "cpu%d/topology/thread_siblings_list", ci->cpu);
			strbuf_puts(ev, ": ");
			check_put_read_err(ev, path, ci->siblings_err);
		}
		strbuf_puts(ev, ".");
	} else if (bad) {
		out->status = RTR_WARN;
		strbuf_puts(&out->fix, "Either make the siblings RT too and leave them idle (rtready "
				       "plan, or --rt-cpus auto, chooses whole cores; or add ");
		check_put_cpus(&out->fix, &rtsib);
		strbuf_puts(&out->fix, " to --rt-cpus and to isolcpus=/nohz_full=/rcu_nocbs= on "
				       "the kernel command line), or turn SMT off: echo off > "
				       "/sys/devices/system/cpu/smt/control now, and nosmt on the "
				       "kernel command line for every boot (the sysfs write does not "
				       "survive a reboot).");
	} else {
		out->status = RTR_PASS;
		strbuf_puts(ev, c->smt_active == 1 ? " Every SMT sibling of an RT CPU is RT too."
						   : " No RT CPU shares its core.");
	}
	rtr_cpuset_free(&shared);
	rtr_cpuset_free(&rtsib);
}

/* ---- cpu.cache_sharing ----------------------------------------------- */

/* Why the first unreadable cache of the RT CPUs was not read, for evidence. */
struct cache_unread {
	struct rtr_cpuset cpus;	/* RT CPUs with an L1/L2 cache whose sharing is unread */
	int cpu, index, err;	/* the first one */
};

static void cache_put_unread(struct strbuf *ev, const struct cache_unread *u)
{
	char path[96];

	snprintf(path, sizeof(path), "cpu%d/cache/index%d/shared_cpu_list (and shared_cpu_map)",
		 u->cpu, u->index);
	strbuf_puts(ev, " ");
	check_put_read_err(ev, path, u->err);
	strbuf_puts(ev, ".");
}

/*
 * The sharing sets come from shared_cpu_list or, where that is missing or
 * empty (POWER7, some NUMA servers), shared_cpu_map; a cache with neither
 * usable is unread, and a CPU counts as read only when every L1/L2 cache it
 * exports was read: no pass on caches the kernel named but nobody read.
 */
static void check_cache_sharing(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset others = RTR_CPUSET_INIT, want = RTR_CPUSET_INIT;
	struct rtr_cpuset seen[3] = { RTR_CPUSET_INIT, RTR_CPUSET_INIT, RTR_CPUSET_INIT };
	struct cache_unread unread = { RTR_CPUSET_INIT, -1, -1, 0 };
	struct strbuf *ev = &out->evidence;
	size_t read = 0, bad = 0, exported = 0;
	bool l3 = false, from_mask = false;

	if (no_rt(ctx, out) || check_cpus_unknown(ctx, out))
		return;
	check_put_rt(ev, ctx);
	strbuf_puts(ev, ".");
	for (int x = rtr_cpuset_next(ctx->rt_cpus, -1); x >= 0; x = rtr_cpuset_next(ctx->rt_cpus, x)) {
		const struct cpu_info *ci = cpu_facts_find(c, x);
		bool complete = true;

		if (!ci || ci->n_caches == 0)
			continue;
		exported++;
		for (size_t i = 0; i < ci->n_caches; i++) {
			const struct cpu_cache *k = &ci->caches[i];

			if (k->level < 1)
				continue;
			if (k->shared_err) {
				if (k->level > 2)
					continue;
				complete = false;
				rtr_cpuset_set(&unread.cpus, x);
				if (unread.cpu < 0) {
					unread.cpu = x;
					unread.index = k->index;
					unread.err = k->shared_err;
				}
				continue;
			}
			from_mask |= k->shared_from_mask;
			rtr_cpuset_copy(&others, &k->shared);
			rtr_cpuset_andnot(&others, ctx->rt_cpus);
			if (rtr_cpuset_is_empty(&others))
				continue;
			if (k->level > 2) {
				l3 = true;
				continue;
			}
			/*
			 * One line per shared cache, not per CPU that sees it (the
			 * L1 data and instruction caches are shared alike).
			 */
			if (rtr_cpuset_test(&seen[k->level], x))
				continue;
			rtr_cpuset_or(&seen[k->level], &k->shared);
			rtr_cpuset_or(&want, &others);
			if (bad++ < LIST_MAX) {
				strbuf_printf(ev, " L%d %s cache of CPU %d is shared with non-RT CPU ",
					      k->level, k->type[0] ? k->type : "?", x);
				check_put_cpus(ev, &others);
				strbuf_puts(ev, ".");
			}
		}
		read += complete;
	}
	if (bad > LIST_MAX)
		strbuf_printf(ev, " And %zu more.", bad - LIST_MAX);
	if (from_mask)
		strbuf_puts(ev, " Sharing read from cache/indexN/shared_cpu_map (no usable "
				"shared_cpu_list).");
	if (bad) {
		out->status = RTR_WARN;
		strbuf_puts(&out->fix, "Choose RT CPUs so that each L2 (and L1) cache is used by RT "
				       "CPUs only (rtready plan, or --rt-cpus auto, does): add ");
		check_put_cpus(&out->fix, &want);
		strbuf_puts(&out->fix, " to the RT CPUs (--rt-cpus, isolcpus=, nohz_full=, "
				       "rcu_nocbs= on the kernel command line, then reboot) and keep "
				       "them idle or give them only RT work, or move the RT work to a "
				       "cluster of its own.");
	} else if (!exported) {
		out->status = RTR_SKIP;
		strbuf_puts(ev, " The kernel exports no cache topology for the RT CPUs "
				"(cpuN/cache/indexM, often missing in virtual machines).");
	} else if (!read) {
		out->status = RTR_SKIP;
		strbuf_puts(ev, " No L1/L2 cache sharing of an RT CPU could be read:");
	} else if (!rtr_cpuset_is_empty(&unread.cpus)) {
		out->status = RTR_INFO;
		strbuf_puts(ev, " No L1 or L2 cache read is shared with a non-RT CPU, but the "
				"sharing of some caches of RT CPUs ");
		check_put_cpus(ev, &unread.cpus);
		strbuf_puts(ev, " could not be read:");
	} else {
		out->status = RTR_PASS;
		strbuf_puts(ev, " No L1 or L2 cache of an RT CPU is shared with a non-RT CPU.");
	}
	if (unread.cpu >= 0)
		cache_put_unread(ev, &unread);
	if (l3)
		strbuf_puts(ev, " The last-level cache is shared with non-RT CPUs (usual; cache "
				"allocation through resctrl can partition it).");
	rtr_cpuset_free(&others);
	rtr_cpuset_free(&want);
	rtr_cpuset_free(&unread.cpus);
	for (int i = 0; i < 3; i++)
		rtr_cpuset_free(&seen[i]);
}

/* ---- cpu.tasks_on_rt_cpus ---------------------------------------------- */

struct task_tally {
	size_t user, kthreads, pinned, unreadable;
	size_t listed;
	int last_pid;
};

static void check_tasks_on_rt_cpus(const struct check_ctx *ctx, struct check_out *out)
{
	const struct tasks_facts *tf = &ctx->facts->tasks;
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence, names = STRBUF_INIT;
	struct task_tally t = { 0, 0, 0, 0, 0, -1 };

	if (no_rt(ctx, out) || check_tasks_unusable(tf, out))
		return;
	for (size_t i = 0; i < tf->n; i++) {
		const struct task_info *ti = &tf->tasks[i];

		if (ti->allowed_err) {
			t.unreadable++;
			continue;
		}
		/* Per-CPU kernel threads are bound by the kernel: nobody can move them. */
		if (ti->per_cpu || !rtr_cpuset_intersects(&ti->allowed, ctx->rt_cpus))
			continue;
		/* Pinned inside the RT CPUs: placed there on purpose (the RT application). */
		if (rtr_cpuset_is_subset(&ti->allowed, ctx->rt_cpus)) {
			t.pinned++;
			continue;
		}
		if (ti->kthread)
			t.kthreads++;
		else
			t.user++;
		if (ti->pid != t.last_pid && t.listed++ < LIST_MAX) {
			strbuf_printf(&names, "%s%s %d (%s)", t.listed > 1 ? ", " : "",
				      ti->kthread ? "kthread" : "pid", ti->pid, ti->comm);
		}
		t.last_pid = ti->pid;
	}
	check_put_rt(ev, ctx);
	strbuf_printf(ev, "; %zu threads read", tf->n);
	if (!ctx->facts->host)
		strbuf_puts(ev, " (as captured in the snapshot; the live set of tasks changes)");
	strbuf_printf(ev, ". Allowed on RT and non-RT CPUs alike: %zu user threads, %zu unbound "
			  "kernel threads; pinned to RT CPUs only: %zu.",
		      t.user, t.kthreads, t.pinned);
	if (t.unreadable)
		strbuf_printf(ev, " %zu threads without a readable affinity.", t.unreadable);
	if (tf->truncated)
		strbuf_puts(ev, " The task list was truncated.");
	if (t.user + t.kthreads) {
		out->status = RTR_WARN;
		strbuf_printf(ev, " For example: %s%s.", strbuf_str(&names),
			      t.listed > LIST_MAX ? ", ..." : "");
		check_housekeeping(ctx, &hk);
		strbuf_puts(&out->fix, "Move them off the RT CPUs now with taskset -a -p -c ");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, " PID (every thread of PID; unbound kernel threads too). "
				       "For every boot: isolcpus=domain,");
		check_put_cpus(&out->fix, ctx->rt_cpus);
		strbuf_puts(&out->fix, " on the kernel command line keeps new tasks and unbound "
				       "kernel threads off them, and CPUAffinity=");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, " in /etc/systemd/system.conf confines every service. "
				       "taskset does not survive a restart of the task.");
	} else if (t.unreadable == tf->n) {
		out->status = RTR_SKIP;
		strbuf_puts(ev, " No thread's affinity (Cpus_allowed_list in /proc/PID/task/TID/"
				"status) could be read.");
	} else {
		/* A few unreadable ones are threads that exited during the walk. */
		out->status = RTR_PASS;
	}
	strbuf_free(&names);
	rtr_cpuset_free(&hk);
}

/* ---- cpu.workqueue ----------------------------------------------------- */

static void check_workqueue(const struct check_ctx *ctx, struct check_out *out)
{
	static const struct check_off_rt text = {
		"; unbound workqueues may run on ", ": none of them RT.", ", including RT CPUs ",
		".", "the kernel's housekeeping.",
	};
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;

	if (c->workqueue_err) {
		check_skip_read(out, "/sys/devices/virtual/workqueue/cpumask", c->workqueue_err);
		return;
	}
	if (no_rt(ctx, out)) {
		strbuf_puts(ev, ". Unbound workqueues may run on ");
		check_put_cpus(ev, &c->workqueue);
		strbuf_puts(ev, ".");
		return;
	}
	if (check_off_rt(ctx, out, &c->workqueue, &text, &hk)) {
		strbuf_puts(&out->fix, "echo ");
		put_mask(&out->fix, &hk, c);
		strbuf_puts(&out->fix, " > /sys/devices/virtual/workqueue/cpumask (now: the CPUs ");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, "). The write does not survive a reboot: repeat it in a "
				       "boot script or systemd unit.");
	}
	rtr_cpuset_free(&hk);
}

/* ---- cpu.governor ------------------------------------------------------ */

static void check_governor(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset slow = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;
	size_t with = 0, listed = 0;

	if (no_rt(ctx, out) || check_cpus_unknown(ctx, out))
		return;
	check_put_rt(ev, ctx);
	strbuf_puts(ev, ".");
	for (int x = rtr_cpuset_next(ctx->rt_cpus, -1); x >= 0; x = rtr_cpuset_next(ctx->rt_cpus, x)) {
		const struct cpu_info *ci = cpu_facts_find(c, x);

		if (!ci || ci->governor_err)
			continue;
		with++;
		if (strcmp(ci->governor, "performance") == 0)
			continue;
		rtr_cpuset_set(&slow, x);
		if (listed++ < LIST_MAX)
			strbuf_printf(ev, " CPU %d: %s%s%s%s.", x, ci->governor,
				      ci->freq_driver[0] ? " (" : "", ci->freq_driver,
				      ci->freq_driver[0] ? ")" : "");
	}
	if (listed > LIST_MAX)
		strbuf_printf(ev, " And %zu more.", listed - LIST_MAX);
	if (!with) {
		out->status = RTR_INFO;
		strbuf_puts(ev, " No cpufreq on the RT CPUs: the kernel does not scale their "
				"frequency (a virtual machine, or firmware in control; check the "
				"firmware's power settings).");
	} else if (!rtr_cpuset_is_empty(&slow)) {
		out->status = RTR_WARN;
		strbuf_puts(&out->fix, "Now: cpupower -c ");
		check_put_cpus(&out->fix, &slow);
		strbuf_puts(&out->fix, " frequency-set -g performance (or echo performance > "
				       "/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor for each "
				       "of them). It does not survive a reboot: add "
				       "cpufreq.default_governor=performance to the kernel command "
				       "line (5.9+) or run the command from a boot script.");
	} else {
		out->status = RTR_PASS;
		strbuf_puts(ev, " Every RT CPU runs the performance governor.");
	}
	rtr_cpuset_free(&slow);
}

/* ---- cpu.idle -------------------------------------------------------- */

static void check_idle(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset deep = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence, states = STRBUF_INIT;
	size_t with = 0, n_states = 0;

	if (no_rt(ctx, out) || check_cpus_unknown(ctx, out))
		return;
	check_put_rt(ev, ctx);
	if (!c->idle_driver_err)
		strbuf_printf(ev, "; cpuidle driver %s", c->idle_driver);
	strbuf_puts(ev, ".");
	for (int x = rtr_cpuset_next(ctx->rt_cpus, -1); x >= 0; x = rtr_cpuset_next(ctx->rt_cpus, x)) {
		const struct cpu_info *ci = cpu_facts_find(c, x);
		bool first = true;

		if (!ci || ci->n_idle == 0)
			continue;
		with++;
		for (size_t i = 0; i < ci->n_idle; i++) {
			const struct cpu_idle_state *s = &ci->idle[i];

			if (s->latency_err || s->disable == 1 || s->latency_us <= IDLE_EXIT_MAX_US)
				continue;
			rtr_cpuset_set(&deep, x);
			/* Describe the states once, from the first CPU that has them. */
			if (first && rtr_cpuset_count(&deep) == 1 && n_states < LIST_MAX) {
				strbuf_printf(&states, "%s%s (state%zu, exit %lld us)",
					      n_states ? ", " : "", s->name, i,
					      (long long)s->latency_us);
				n_states++;
			}
		}
		first = false;
	}
	if (!with) {
		out->status = RTR_INFO;
		strbuf_puts(ev, " No cpuidle states on the RT CPUs: they idle the architecture's "
				"default way (in a virtual machine, a halt that the hypervisor "
				"handles). Measure latency on an idle system too.");
	} else if (!rtr_cpuset_is_empty(&deep)) {
		out->status = RTR_WARN;
		strbuf_printf(ev, " Enabled with an exit latency above %d us on CPUs ",
			      IDLE_EXIT_MAX_US);
		check_put_cpus(ev, &deep);
		strbuf_printf(ev, ": %s.", strbuf_str(&states));
		strbuf_puts(&out->fix, "Now: cpupower -c ");
		check_put_cpus(&out->fix, &deep);
		strbuf_printf(&out->fix, " idle-set -D %d (or echo 1 > "
					 "/sys/devices/system/cpu/cpuN/cpuidle/stateK/disable per "
					 "state), or let the RT application hold /dev/cpu_dma_latency "
					 "open with its limit. It does not survive a reboot: run it from "
					 "a boot script, or limit C-states on the kernel command line "
					 "(intel_idle.max_cstate=1 processor.max_cstate=1, for all CPUs). "
					 "Then measure latency with the system idle as well as loaded.",
			      IDLE_EXIT_MAX_US);
	} else {
		out->status = RTR_PASS;
		strbuf_printf(ev, " No enabled idle state of an RT CPU takes more than %d us to "
				  "exit.",
			      IDLE_EXIT_MAX_US);
	}
	strbuf_free(&states);
	rtr_cpuset_free(&deep);
}

/* ---- cpu.timer_migration ----------------------------------------------- */

static void check_timer_migration(const struct check_ctx *ctx, struct check_out *out)
{
	const struct cpu_facts *c = &ctx->facts->cpu;

	if (c->timer_migration_err) {
		check_skip_read(out, "/proc/sys/kernel/timer_migration", c->timer_migration_err);
		return;
	}
	if (c->timer_migration == 0) {
		check_set(out, RTR_PASS, "kernel.timer_migration = 0: timers stay on the CPU that "
					 "armed them");
		return;
	}
	check_set(out, RTR_WARN,
		  "kernel.timer_migration = %lld: timers armed on an idle CPU may expire on "
		  "another CPU, which can be an RT CPU",
		  (long long)c->timer_migration);
}

const struct check cpu_checks[] = {
	{
		"cpu.isolation", "cpu", "RT CPU isolation",
		"CPUs for realtime work must be kept free of everything else: isolcpus= keeps "
		"the scheduler from balancing other tasks there, nohz_full= stops the tick "
		"while one task runs, rcu_nocbs= moves RCU callbacks away, and irqaffinity= "
		"keeps interrupts off. Each one that is missing or covers other CPUs leaves a "
		"source of latency on the RT CPUs.",
		"isolcpus=domain,managed_irq,RT nohz_full=RT rcu_nocbs=RT irqaffinity=OTHERS on the "
		"kernel command line, then reboot.",
		check_isolation,
	},
	{
		"cpu.maxcpus", "cpu", "CPUs present, possible and online",
		"maxcpus= and nr_cpus= limit the CPUs the kernel brings up: useful to leave CPUs "
		"to a bare-metal program, harmful when forgotten. An RT CPU that is offline "
		"runs nothing at all.",
		"Remove maxcpus=/nr_cpus= from the kernel command line, or bring CPUs online with "
		"echo 1 > /sys/devices/system/cpu/cpuN/online (does not survive a reboot).",
		check_maxcpus,
	},
	{
		"cpu.smt", "cpu", "SMT siblings of RT CPUs",
		"Two hardware threads of one core share its execution units and L1/L2 caches: "
		"whatever runs on the sibling slows the RT thread down unpredictably.",
		"Make SMT siblings of RT CPUs RT too (and keep them idle), or boot with nosmt.",
		check_smt,
	},
	{
		"cpu.cache_sharing", "cpu", "Caches shared with non-RT CPUs",
		"CPUs that share an L2 (or closer) cache evict each other's data: a busy non-RT "
		"neighbour makes the RT code's memory accesses slow and their timing vary. "
		"Cache-sharing CPUs should be RT together.",
		"Choose RT CPUs so that no L1/L2 cache is shared with a non-RT CPU.",
		check_cache_sharing,
	},
	{
		"cpu.tasks_on_rt_cpus", "cpu", "Other tasks allowed on RT CPUs",
		"A task whose affinity includes RT and non-RT CPUs can be placed on an RT CPU "
		"and delay the RT thread there (through preemption at equal priority, caches, "
		"locks). Only the realtime application should be allowed on RT CPUs; per-CPU "
		"kernel threads cannot be moved and are not counted.",
		"taskset -a -p -c OTHERS PID for each task (now); isolcpus= and systemd "
		"CPUAffinity= for every boot.",
		check_tasks_on_rt_cpus,
	},
	{
		"cpu.workqueue", "cpu", "Unbound workqueues on RT CPUs",
		"Unbound kernel workqueues (writeback, crypto, filesystems) run their work items "
		"on any CPU of their mask; on an RT CPU that work preempts or delays the RT "
		"application.",
		"echo MASK > /sys/devices/virtual/workqueue/cpumask with the non-RT CPUs, from a "
		"boot script.",
		check_workqueue,
	},
	{
		"cpu.governor", "cpu", "CPU frequency governor of RT CPUs",
		"A governor that lowers the clock when the CPU looks idle makes the RT code run "
		"slower right after a wake-up and adds frequency-transition stalls; realtime "
		"CPUs should stay at a fixed, high frequency.",
		"cpupower -c RT frequency-set -g performance; cpufreq.default_governor=performance "
		"on the kernel command line.",
		check_governor,
	},
	{
		"cpu.idle", "cpu", "Deep idle states on RT CPUs",
		"Waking a CPU from a deep C-state takes tens to hundreds of microseconds, added "
		"to the first wake-up after idle. Latency measured under load hides this: test "
		"with the system idle too.",
		"cpupower -c RT idle-set -D 20, or hold /dev/cpu_dma_latency open in the RT "
		"application.",
		check_idle,
	},
	{
		"cpu.timer_migration", "cpu", "Timer migration",
		"With timer migration on, timers queued by CPUs that go idle are expired by "
		"other CPUs, RT CPUs included, whose RT work is then interrupted for someone "
		"else's timers.",
		"sysctl -w kernel.timer_migration=0 (now), and 'kernel.timer_migration = 0' in "
		"/etc/sysctl.d/90-rtready.conf (at boot); the sysctl alone does not survive a "
		"reboot.",
		check_timer_migration,
	},
};
const size_t cpu_checks_n = sizeof(cpu_checks) / sizeof(cpu_checks[0]);
