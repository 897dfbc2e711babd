// SPDX-License-Identifier: MIT
/*
 * Interrupt checks. A device interrupt that lands on an RT CPU runs its
 * handler (and on PREEMPT_RT wakes its threaded handler) there, ahead of
 * the RT application. The kernel lets each IRQ's affinity be set
 * (/proc/irq/N/smp_affinity_list) and says where the chip really delivers
 * it (effective_affinity_list), which hardware may limit; the default for
 * new IRQs is /proc/irq/default_smp_affinity; irqbalance rewrites
 * affinities every few seconds unless told which CPUs to leave alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"

/* IRQs named in evidence, and numbers in a fix's loop, before cutting short. */
#define LIST_MAX 16
#define LOOP_MAX 64

/* The IRQ's device name from /proc/interrupts ("virtio1-req.0"), or "". */
static const char *irq_name(const struct irq_facts *f, int irq)
{
	const struct interrupt_row *row = f->interrupts_err ? NULL :
					  interrupts_find(&f->interrupts, irq);

	if (!row)
		return "";
	return row->actions[0] ? row->actions : row->chip;
}

static void put_irq(struct strbuf *sb, const struct irq_facts *f, int irq)
{
	const char *name = irq_name(f, irq);

	strbuf_printf(sb, "IRQ %d%s%s%s", irq, name[0] ? " (" : "", name, name[0] ? ")" : "");
}

/* ---- irq.default_affinity ---------------------------------------------- */

static void check_default_affinity(const struct check_ctx *ctx, struct check_out *out)
{
	const struct irq_facts *f = &ctx->facts->irq;
	struct rtr_cpuset hk = RTR_CPUSET_INIT, both = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;

	if (f->default_err) {
		check_skip_read(out, "/proc/irq/default_smp_affinity", f->default_err);
		return;
	}
	if (rtr_cpuset_is_empty(ctx->rt_cpus)) {
		out->status = RTR_INFO;
		strbuf_puts(ev, "new IRQs may go to CPUs ");
		check_put_cpus(ev, &f->default_affinity);
		strbuf_printf(ev, "; %s.", check_no_rt_cpus);
		return;
	}
	check_put_rt(ev, ctx);
	strbuf_puts(ev, "; /proc/irq/default_smp_affinity allows ");
	check_put_cpus(ev, &f->default_affinity);
	rtr_cpuset_copy(&both, &f->default_affinity);
	rtr_cpuset_and(&both, ctx->rt_cpus);
	if (rtr_cpuset_is_empty(&both)) {
		out->status = RTR_PASS;
		strbuf_puts(ev, ": no RT CPU.");
		goto out;
	}
	out->status = RTR_WARN;
	strbuf_puts(ev, ", RT CPUs ");
	check_put_cpus(ev, &both);
	strbuf_puts(ev, " included: every IRQ set up from now on may be delivered there.");
	check_housekeeping(ctx, &hk);
	if (rtr_cpuset_is_empty(&hk)) {
		strbuf_puts(&out->fix, "Every online CPU is RT: leave at least one CPU for "
				       "interrupts.");
		goto out;
	}
	{
		char mask[4096];

		rtr_cpuset_format_mask(&hk, 0, mask, sizeof(mask));
		strbuf_printf(&out->fix, "Now: echo %s > /proc/irq/default_smp_affinity (CPUs ",
			      mask);
	}
	check_put_cpus(&out->fix, &hk);
	strbuf_puts(&out->fix, "). The write does not survive a reboot: add irqaffinity=");
	check_put_cpus(&out->fix, &hk);
	strbuf_puts(&out->fix, " to the kernel command line (GRUB_CMDLINE_LINUX in "
			       "/etc/default/grub, then update-grub).");
out:
	rtr_cpuset_free(&hk);
	rtr_cpuset_free(&both);
}

/* ---- irq.affinity ------------------------------------------------------ */

static void check_affinity(const struct check_ctx *ctx, struct check_out *out)
{
	const struct irq_facts *f = &ctx->facts->irq;
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence, list = STRBUF_INIT, loop = STRBUF_INIT;
	size_t read = 0, bad = 0, unreadable = 0, idle = 0;

	if (f->err) {
		check_skip_read(out, "/proc/irq", f->err);
		return;
	}
	/*
	 * /proc/irq lists every allocated descriptor, /proc/interrupts only
	 * those with a handler: one without a handler cannot fire (seen on
	 * arm64, IRQs 1-12 of the GIC), so where it could go does not matter.
	 */
	if (!f->interrupts_err)
		for (size_t i = 0; i < f->n; i++)
			if (!interrupts_find(&f->interrupts, f->irqs[i].irq))
				idle++;
	for (size_t i = 0; i < f->n; i++)
		if (f->irqs[i].affinity_err)
			unreadable++;
	read = f->n - unreadable;
	if (rtr_cpuset_is_empty(ctx->rt_cpus)) {
		out->status = RTR_INFO;
		strbuf_printf(ev, "%zu IRQs; %s.", f->n, check_no_rt_cpus);
		return;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct irq_info *q = &f->irqs[i];
		bool req = !q->affinity_err && rtr_cpuset_intersects(&q->affinity, ctx->rt_cpus);
		bool eff = !q->effective_err && rtr_cpuset_intersects(&q->effective, ctx->rt_cpus);

		if (!req && !eff)
			continue;
		if (!f->interrupts_err && !interrupts_find(&f->interrupts, q->irq))
			continue;	/* no handler: it cannot fire */
		if (bad < LOOP_MAX)
			strbuf_printf(&loop, "%s%d", bad ? " " : "", q->irq);
		if (bad++ >= LIST_MAX)
			continue;
		strbuf_puts(&list, bad > 1 ? "; " : "");
		put_irq(&list, f, q->irq);
		strbuf_puts(&list, " -> ");
		if (q->affinity_err)
			strbuf_puts(&list, "unreadable");
		else
			check_put_cpus(&list, &q->affinity);
		if (!q->effective_err) {
			strbuf_puts(&list, ", effective ");
			check_put_cpus(&list, &q->effective);
		}
		if (!f->interrupts_err) {
			const struct interrupt_row *row = interrupts_find(&f->interrupts, q->irq);

			if (row)
				strbuf_printf(&list, ", %" PRIu64 " on RT",
					      interrupts_sum_on(&f->interrupts, row, ctx->rt_cpus));
		}
	}
	check_put_rt(ev, ctx);
	strbuf_printf(ev, "; %zu IRQs", f->n);
	if (idle)
		strbuf_printf(ev, " (%zu without a handler, left out: they cannot fire)", idle);
	if (unreadable)
		strbuf_printf(ev, ", %zu with an unreadable affinity", unreadable);
	if (f->truncated)
		strbuf_puts(ev, " (list truncated)");
	if (read == 0 && f->n) {
		out->status = RTR_SKIP;
		strbuf_puts(ev, ": no affinity could be read.");
		goto out;
	}
	if (!bad) {
		out->status = RTR_PASS;
		strbuf_puts(ev, ": none may be delivered to an RT CPU.");
		goto out;
	}
	out->status = RTR_WARN;
	strbuf_printf(ev, ". %zu may be delivered to an RT CPU (IRQ -> requested CPUs, effective "
			  "CPUs, count on RT CPUs): %s%s.",
		      bad, strbuf_str(&list),
		      bad > LIST_MAX ? "; ..." : "");
	check_housekeeping(ctx, &hk);
	if (rtr_cpuset_is_empty(&hk)) {
		strbuf_puts(&out->fix, "Every online CPU is RT: leave at least one CPU for "
				       "interrupts.");
		goto out;
	}
	strbuf_printf(&out->fix, "Now: for i in %s%s; do echo ", strbuf_str(&loop),
		      bad > LOOP_MAX ? " ...(see evidence)" : "");
	check_put_cpus(&out->fix, &hk);
	strbuf_puts(&out->fix, " > /proc/irq/$i/smp_affinity_list; done. Leave out an IRQ that "
			       "serves the RT application itself and belongs on its CPU. A write "
			       "that fails with EIO is a kernel-managed queue interrupt: only "
			       "isolcpus=managed_irq,");
	check_put_cpus(&out->fix, ctx->rt_cpus);
	strbuf_puts(&out->fix, " at boot keeps those away. The writes do not survive a reboot: "
			       "add irqaffinity=");
	check_put_cpus(&out->fix, &hk);
	strbuf_puts(&out->fix, " to the kernel command line and repeat the loop from a boot "
			       "script for drivers that set their own affinity; make irqbalance "
			       "leave the RT CPUs alone (see irq.balance).");
out:
	strbuf_free(&list);
	strbuf_free(&loop);
	rtr_cpuset_free(&hk);
}

/* ---- irq.effective_affinity -------------------------------------------- */

static void check_effective(const struct check_ctx *ctx, struct check_out *out)
{
	const struct irq_facts *f = &ctx->facts->irq;
	struct rtr_cpuset extra = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence, list = STRBUF_INIT;
	size_t both = 0, narrower = 0, outside = 0, onto_rt = 0;

	if (f->err) {
		check_skip_read(out, "/proc/irq", f->err);
		return;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct irq_info *q = &f->irqs[i];
		bool rt;

		/* An IRQ that is not started has an empty effective mask. */
		if (q->affinity_err || q->effective_err || rtr_cpuset_is_empty(&q->effective))
			continue;
		both++;
		if (rtr_cpuset_is_subset(&q->effective, &q->affinity)) {
			narrower += !rtr_cpuset_equal(&q->effective, &q->affinity);
			continue;
		}
		rtr_cpuset_copy(&extra, &q->effective);
		rtr_cpuset_andnot(&extra, &q->affinity);
		rt = rtr_cpuset_intersects(&extra, ctx->rt_cpus);
		onto_rt += rt;
		if (outside++ >= LIST_MAX)
			continue;
		strbuf_puts(&list, outside > 1 ? "; " : "");
		put_irq(&list, f, q->irq);
		strbuf_puts(&list, ": requested ");
		check_put_cpus(&list, &q->affinity);
		strbuf_puts(&list, ", delivered to ");
		check_put_cpus(&list, &q->effective);
		if (rt)
			strbuf_puts(&list, " (an RT CPU)");
	}
	if (!both) {
		out->status = f->n ? RTR_INFO : RTR_SKIP;
		strbuf_printf(ev, "%zu IRQs; the kernel reports no effective affinity for them "
				  "(effective_affinity_list missing or empty: older kernels and some "
				  "interrupt chips). Watch the per-CPU counts in /proc/interrupts "
				  "instead.",
			      f->n);
		goto out;
	}
	strbuf_printf(ev, "%zu IRQs with a requested and an effective affinity", both);
	if (narrower)
		strbuf_printf(ev, "; %zu delivered to a part of the requested CPUs (normal: the "
				  "chip targets one CPU of the set)",
			      narrower);
	if (!outside) {
		out->status = RTR_PASS;
		strbuf_puts(ev, "; every one is delivered within what was requested.");
		goto out;
	}
	out->status = onto_rt ? RTR_WARN : RTR_INFO;
	strbuf_printf(ev, "; %zu delivered outside the requested CPUs, %zu of them onto RT CPUs: "
			  "%s%s.",
		      outside, onto_rt, strbuf_str(&list), outside > LIST_MAX ? "; ..." : "");
	strbuf_puts(&out->fix, "Right after an affinity change the old CPU can show here until "
			       "the IRQ fires again (x86 moves it then): check again first. "
			       "Otherwise the interrupt chip cannot deliver these IRQs where asked "
			       "(a hardware or driver limit): request a set it supports (often a "
			       "single CPU, or the CPUs of one cluster or node) with echo CPU > "
			       "/proc/irq/N/smp_affinity_list and read effective_affinity_list "
			       "back; otherwise move the RT work to CPUs these IRQs cannot reach. "
			       "The write does not survive a reboot: repeat it from a boot script.");
out:
	strbuf_free(&list);
	rtr_cpuset_free(&extra);
}

/* ---- irq.balance ----------------------------------------------------- */

static bool irqbalance_running(const struct tasks_facts *t, int *pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->tasks[i].kthread && strcmp(t->tasks[i].comm, "irqbalance") == 0) {
			*pid = t->tasks[i].pid;
			return true;
		}
	return false;
}

static void check_balance(const struct check_ctx *ctx, struct check_out *out)
{
	const struct irq_facts *f = &ctx->facts->irq;
	const struct cpu_facts *c = &ctx->facts->cpu;
	const struct irqbalance_conf *b = &f->balance;
	struct rtr_cpuset banned = RTR_CPUSET_INIT, miss = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;
	bool conf = f->balance_err == 0;
	int pid = 0;

	if (ctx->facts->tasks.err) {
		check_skip_read(out, "/proc", ctx->facts->tasks.err);
		return;
	}
	if (!irqbalance_running(&ctx->facts->tasks, &pid)) {
		out->status = RTR_PASS;
		strbuf_printf(ev, "irqbalance is not running%s: IRQ affinities stay where they "
				  "are set.",
			      ctx->facts->host ? "" : " (in the snapshot's task list)");
		goto out;
	}
	strbuf_printf(ev, "irqbalance runs (pid %d)", pid);
	if (f->balance_err == -ENOENT)
		strbuf_puts(ev, "; no /etc/default/irqbalance or /etc/sysconfig/irqbalance");
	else if (f->balance_err)
		strbuf_printf(ev, "; %s unreadable: %s", f->balance_path, strerror(-f->balance_err));
	if (conf && b->has_cpulist) {
		strbuf_printf(ev, "; %s bans ", f->balance_path);
		if (b->cpulist_err)
			strbuf_puts(ev, "an unparsable IRQBALANCE_BANNED_CPULIST");
		else
			check_put_cpus(ev, &b->cpulist);
	}
	if (conf && b->has_mask) {
		strbuf_printf(ev, "; IRQBALANCE_BANNED_CPUS (deprecated) bans ");
		if (b->mask_err)
			strbuf_puts(ev, "an unparsable mask");
		else
			check_put_cpus(ev, &b->mask);
	}
	if (conf && b->has_cpulist && b->has_mask)
		strbuf_puts(ev, " (both set: keep only IRQBALANCE_BANNED_CPULIST)");
	/*
	 * irqbalance bans what its environment names; with nothing named it
	 * bans the isolated and nohz_full CPUs by itself. When both variables
	 * are set, count only the CPUs both ban (versions differ on which wins).
	 */
	if (conf && (b->has_cpulist || b->has_mask)) {
		if (b->has_cpulist && !b->cpulist_err)
			rtr_cpuset_copy(&banned, &b->cpulist);
		if (b->has_mask && !b->mask_err) {
			if (b->has_cpulist)
				rtr_cpuset_and(&banned, &b->mask);
			else
				rtr_cpuset_copy(&banned, &b->mask);
		}
	} else {
		if (!c->isolated_err)
			rtr_cpuset_copy(&banned, &c->isolated);
		if (!c->nohz_full_err)
			rtr_cpuset_or(&banned, &c->nohz_full);
		strbuf_puts(ev, "; no ban configured, so it leaves out the isolated and "
				"nohz_full CPUs: ");
		check_put_cpus(ev, &banned);
	}
	if (b->oneshot && conf)
		strbuf_puts(ev, "; one-shot mode (it balances once, then exits)");
	if (rtr_cpuset_is_empty(ctx->rt_cpus)) {
		out->status = RTR_INFO;
		strbuf_printf(ev, "; %s.", check_no_rt_cpus);
		goto out;
	}
	strbuf_puts(ev, "; ");
	check_put_rt(ev, ctx);
	rtr_cpuset_copy(&miss, ctx->rt_cpus);
	rtr_cpuset_andnot(&miss, &banned);
	if (rtr_cpuset_is_empty(&miss)) {
		out->status = RTR_PASS;
		strbuf_puts(ev, ": all banned from balancing.");
		goto out;
	}
	out->status = RTR_WARN;
	strbuf_puts(ev, ": not banned ");
	check_put_cpus(ev, &miss);
	strbuf_puts(ev, ", so irqbalance moves IRQs onto them every few seconds, undoing any "
			"manual affinity.");
	strbuf_puts(&out->fix, "Put IRQBALANCE_BANNED_CPULIST=");
	check_put_cpus(&out->fix, ctx->rt_cpus);
	strbuf_printf(&out->fix, " in %s (Debian; /etc/sysconfig/irqbalance on Red Hat), then "
				 "systemctl restart irqbalance; the file keeps it across reboots. Or "
				 "stop it for good (systemctl disable --now irqbalance) and set IRQ "
				 "affinities yourself (see irq.affinity).",
		      conf ? f->balance_path : "/etc/default/irqbalance");
out:
	rtr_cpuset_free(&banned);
	rtr_cpuset_free(&miss);
}

const struct check irq_checks[] = {
	{
		"irq.default_affinity", "irq", "Default affinity of new IRQs",
		"Interrupts set up after boot (a device probed, a network queue added) start "
		"with /proc/irq/default_smp_affinity; when it includes RT CPUs, new interrupts "
		"land there until someone moves them.",
		"echo MASK > /proc/irq/default_smp_affinity with the non-RT CPUs; irqaffinity= on "
		"the kernel command line for every boot.",
		check_default_affinity,
	},
	{
		"irq.affinity", "irq", "IRQs that may reach RT CPUs",
		"A device interrupt delivered to an RT CPU runs its handler there, ahead of the "
		"realtime task (and on PREEMPT_RT wakes a threaded handler at priority 50). "
		"Only interrupts that serve the RT application belong on RT CPUs.",
		"echo OTHERS > /proc/irq/N/smp_affinity_list for each IRQ; irqaffinity= and "
		"isolcpus=managed_irq at boot.",
		check_affinity,
	},
	{
		"irq.effective_affinity", "irq", "Effective vs requested IRQ affinity",
		"Writing smp_affinity is a request: the interrupt chip may only target some CPUs, "
		"and the kernel then delivers the IRQ elsewhere. effective_affinity_list tells "
		"where it really goes; an IRQ kept off RT CPUs on paper can still reach them.",
		"Request an affinity the chip supports and read effective_affinity_list back.",
		check_effective,
	},
	{
		"irq.balance", "irq", "irqbalance and RT CPUs",
		"irqbalance rewrites IRQ affinities every few seconds to spread the load; unless "
		"the RT CPUs are banned it moves interrupts onto them and undoes manual "
		"settings.",
		"IRQBALANCE_BANNED_CPULIST=RT in /etc/default/irqbalance, or stop irqbalance.",
		check_balance,
	},
};
const size_t irq_checks_n = sizeof(irq_checks) / sizeof(irq_checks[0]);
