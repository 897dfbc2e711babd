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
	static const struct check_off_rt text = {
		"; /proc/irq/default_smp_affinity allows ", ": no RT CPU.", ", RT CPUs ",
		" included: every IRQ set up from now on may be delivered there.", "interrupts.",
	};
	const struct irq_facts *f = &ctx->facts->irq;
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence;
	char mask[4096];

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
	if (check_off_rt(ctx, out, &f->default_affinity, &text, &hk)) {
		rtr_cpuset_format_mask(&hk, 0, mask, sizeof(mask));
		strbuf_printf(&out->fix, "Now: echo %s > /proc/irq/default_smp_affinity (CPUs ",
			      mask);
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, "). The write does not survive a reboot: add irqaffinity=");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, " to the kernel command line (GRUB_CMDLINE_LINUX in "
				       "/etc/default/grub, then update-grub).");
	}
	rtr_cpuset_free(&hk);
}

/* ---- irq.affinity ------------------------------------------------------ */

/* One IRQ of the list: "IRQ 27 (virtio0-req.2) -> 2, effective 2, 0 on RT". */
static void put_irq_row(struct strbuf *sb, const struct check_ctx *ctx, const struct irq_info *q)
{
	const struct irq_facts *f = &ctx->facts->irq;
	const struct interrupt_row *row = f->interrupts_err ? NULL :
					  interrupts_find(&f->interrupts, q->irq);

	put_irq(sb, f, q->irq);
	strbuf_puts(sb, " -> ");
	if (q->affinity_err)
		strbuf_puts(sb, "unreadable");
	else
		check_put_cpus(sb, &q->affinity);
	if (!q->effective_err) {
		strbuf_puts(sb, ", effective ");
		check_put_cpus(sb, &q->effective);
	}
	if (row)
		strbuf_printf(sb, ", %" PRIu64 " on RT",
			      interrupts_sum_on(&f->interrupts, row, ctx->rt_cpus));
}

/* The IRQs of one kind, listed and counted. */
struct irq_list {
	struct strbuf text;
	size_t n;
};

static void list_add(struct irq_list *l, const struct check_ctx *ctx, const struct irq_info *q)
{
	if (l->n++ >= LIST_MAX)
		return;
	strbuf_puts(&l->text, l->n > 1 ? "; " : "");
	put_irq_row(&l->text, ctx, q);
}

static void list_put(struct strbuf *sb, const struct irq_list *l)
{
	strbuf_printf(sb, "%s%s", strbuf_str(&l->text), l->n > LIST_MAX ? "; ..." : "");
}

/*
 * A managed queue vector (user space cannot move it) and what it does on
 * an RT CPU. With isolcpus=managed_irq the kernel delivers it to a
 * housekeeping CPU of its queue's set where there is one; a queue whose
 * CPUs are all isolated keeps its vector there, and the vector fires only
 * for I/O submitted on that CPU: harmless while the count on RT stays 0.
 */
static bool managed_quiet(const struct check_ctx *ctx, const struct irq_info *q)
{
	const struct irq_facts *f = &ctx->facts->irq;
	const struct interrupt_row *row = f->interrupts_err ? NULL :
					  interrupts_find(&f->interrupts, q->irq);

	return row && interrupts_sum_on(&f->interrupts, row, ctx->rt_cpus) == 0;
}

static void check_affinity(const struct check_ctx *ctx, struct check_out *out)
{
	const struct irq_facts *f = &ctx->facts->irq;
	const struct cpu_facts *c = &ctx->facts->cpu;
	struct rtr_cpuset hk = RTR_CPUSET_INIT;
	struct strbuf *ev = &out->evidence, loop = STRBUF_INIT;
	struct irq_list bad = { STRBUF_INIT, 0 }, quiet = { STRBUF_INIT, 0 },
			busy = { STRBUF_INIT, 0 };
	size_t read = 0, unreadable = 0, idle = 0, inferred = 0;
	bool managed_irq = !c->cmdline_err && c->isolcpus.given &&
			   (c->isolcpus_flags & CPU_ISOL_MANAGED_IRQ);

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
		goto out;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct irq_info *q = &f->irqs[i];
		bool req = !q->affinity_err && rtr_cpuset_intersects(&q->affinity, ctx->rt_cpus);
		bool eff = !q->effective_err && rtr_cpuset_intersects(&q->effective, ctx->rt_cpus);
		bool managed = q->managed == IRQ_MANAGED_YES || q->managed == IRQ_MANAGED_SPREAD;

		if (!req && !eff)
			continue;
		if (!f->interrupts_err && !interrupts_find(&f->interrupts, q->irq))
			continue;	/* no handler: it cannot fire */
		if (managed && managed_irq && !eff && !q->effective_err)
			continue;	/* the kernel already keeps it on housekeeping CPUs */
		if (managed) {
			inferred += q->managed == IRQ_MANAGED_SPREAD;
			list_add(managed_irq && managed_quiet(ctx, q) ? &quiet : &busy, ctx, q);
			continue;
		}
		if (bad.n < LOOP_MAX)
			strbuf_printf(&loop, "%s%d", bad.n ? " " : "", q->irq);
		list_add(&bad, ctx, q);
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
	if (!bad.n && !busy.n && !quiet.n) {
		/* A pass covers every IRQ: with some unread, only what was read is known. */
		out->status = unreadable ? RTR_INFO : RTR_PASS;
		strbuf_puts(ev, unreadable ? ": none of those read may be delivered to an RT CPU."
					   : ": none may be delivered to an RT CPU.");
		goto out;
	}
	out->status = bad.n || busy.n ? RTR_WARN : inferred ? RTR_INFO : RTR_PASS;
	if (bad.n) {
		strbuf_printf(ev, ". %zu may be delivered to an RT CPU (IRQ -> requested CPUs, "
				  "effective CPUs, count on RT CPUs): ", bad.n);
		list_put(ev, &bad);
	}
	if (busy.n || quiet.n)
		strbuf_printf(ev, ". Kernel-managed queue vectors (%s; user space cannot move "
				  "them)",
			      inferred == busy.n + quiet.n ? "inferred: one per CPU set of a "
							     "device, split across the CPUs" :
			      inferred ? "from debugfs, some inferred" : "from debugfs");
	if (quiet.n) {
		strbuf_printf(ev, ": %zu on RT CPUs only, as isolcpus=managed_irq leaves a queue "
				  "whose CPUs are all isolated; it fires only for I/O submitted on "
				  "that CPU, and none has been: ", quiet.n);
		list_put(ev, &quiet);
	}
	if (busy.n) {
		strbuf_printf(ev, "%s%zu %s: ", quiet.n ? ". " : ": ", busy.n,
			      managed_irq ? "have fired on RT CPUs, for I/O submitted there" :
					    "may be delivered to RT CPUs, and isolcpus= has no "
					    "managed_irq flag to keep them away");
		list_put(ev, &busy);
	}
	strbuf_puts(ev, ".");
	if (!bad.n && !busy.n)
		goto out;
	check_housekeeping(ctx, &hk);
	if (rtr_cpuset_is_empty(&hk)) {
		strbuf_puts(&out->fix, "Every online CPU is RT: leave at least one CPU for "
				       "interrupts.");
		goto out;
	}
	if (bad.n) {
		strbuf_printf(&out->fix, "Now: for i in %s%s; do echo ", strbuf_str(&loop),
			      bad.n > LOOP_MAX ? " ...(see evidence)" : "");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, " > /proc/irq/$i/smp_affinity_list; done. Leave out an IRQ "
				       "that serves the RT application itself and belongs on its "
				       "CPU. A write that fails with EIO is a kernel-managed queue "
				       "interrupt: only isolcpus=managed_irq,");
		check_put_cpus(&out->fix, ctx->rt_cpus);
		strbuf_puts(&out->fix, " at boot keeps those away. The writes do not survive a "
				       "reboot: add irqaffinity=");
		check_put_cpus(&out->fix, &hk);
		strbuf_puts(&out->fix, " to the kernel command line and repeat the loop from a "
				       "boot script for drivers that set their own affinity; make "
				       "irqbalance leave the RT CPUs alone (see irq.balance).");
	}
	if (busy.n && !managed_irq) {
		strbuf_puts(&out->fix, bad.n ? " " : "");
		strbuf_puts(&out->fix, "The managed queue vectors cannot be moved by a write "
				       "(EIO): boot with isolcpus=managed_irq,");
		check_put_cpus(&out->fix, ctx->rt_cpus);
		strbuf_puts(&out->fix, " (with domain, as rtready tune --emit-boot writes it), so "
				       "that the kernel delivers them to housekeeping CPUs.");
	} else if (busy.n) {
		strbuf_puts(&out->fix, bad.n ? " " : "");
		strbuf_puts(&out->fix, "Something on the RT CPUs submits block I/O through those "
				       "queues: keep file and disk I/O out of the RT threads (hand "
				       "it to a thread on a housekeeping CPU), and keep other tasks "
				       "off the RT CPUs (see cpu.isolation).");
	}
out:
	strbuf_free(&bad.text);
	strbuf_free(&quiet.text);
	strbuf_free(&busy.text);
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

	if (check_tasks_unusable(&ctx->facts->tasks, out))
		return;
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
	if (!check_judge_cpus(out, &miss, ": all banned from balancing.", ": not banned "))
		goto out;
	strbuf_puts(ev, ", so irqbalance moves IRQs onto them every few seconds, undoing any "
			"manual affinity.");
	strbuf_puts(&out->fix, "Put IRQBALANCE_BANNED_CPULIST=");
	check_put_cpus(&out->fix, ctx->rt_cpus);
	strbuf_printf(&out->fix, " in %s (Debian; /etc/sysconfig/irqbalance on Red Hat), then "
				 "systemctl restart irqbalance; the file keeps it across reboots "
				 "(rtready tune --apply does both, and --revert undoes them). Or stop "
				 "it for good (systemctl disable --now irqbalance) and set IRQ "
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
