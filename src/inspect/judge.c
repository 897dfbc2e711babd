// SPDX-License-Identifier: MIT
/*
 * Findings of rtready inspect, from collected facts only (no I/O). The
 * rules come from the checklist: an RT thread must never run at 99, must
 * have its memory locked and take no page fault in its periodic work,
 * should sit on its own CPU away from IRQs and non-RT tasks, and should
 * not be preempted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "inspect/inspect.h"
#include "util/parse.h"
#include "util/strbuf.h"

#define EXAMPLES 5	/* names listed in an evidence before "and N more" */

/*
 * Resident memory that may stay unlocked under mlockall: mappings the kernel
 * does not lock (vvar, device and PFN maps) still count in VmRSS. Allow the
 * larger of 1 MiB and 5% before calling the process partly unlocked.
 */
#define UNLOCKED_SLACK_KB(rss_kb) ((rss_kb) / 20 > 1024 ? (rss_kb) / 20 : 1024)

static const char why_prio99[] =
	"Priority 99 belongs to the kernel threads that must beat everything else (watchdogs, "
	"migration, threaded IRQs of the tick); an application thread there can starve them. "
	"The highest an application should use is 98, and most need far less.";
static const char why_locked[] =
	"Memory that is not locked can be reclaimed or swapped out, and the next access is a "
	"page fault that waits for the kernel, or for the disk. mlockall(MCL_CURRENT | "
	"MCL_FUTURE) keeps every page, code and stack included, resident.";
static const char why_faults[] =
	"A page fault in the realtime loop puts the thread in the kernel to find and map a "
	"page: tens of microseconds at best, milliseconds when it must read from disk. All "
	"memory the loop touches must be allocated, locked and written before it starts.";
static const char why_affinity[] =
	"A realtime thread allowed on several CPUs can be migrated, losing its caches, and "
	"shares each of those CPUs with whatever else runs or interrupts there. Pin it to one "
	"CPU reserved for realtime work, with IRQs and other tasks moved away.";
static const char why_preempted[] =
	"Involuntary context switches of a realtime thread mean something of equal or higher "
	"priority (or the RT throttling) took its CPU while it wanted to run.";
static const char why_non_rt[] =
	"Non-realtime tasks allowed on the CPU of a realtime thread compete for its caches and "
	"memory bandwidth, and their system calls and interrupts can delay it.";
static const char why_no_rt[] =
	"None of its threads has a realtime policy, so the scheduler gives them time slices "
	"like any other task; that is right for most tasks, and wrong for the time-critical "
	"ones.";

static const char *pname(const struct task_info *t)
{
	return task_policy_name(t->policy);
}

/* Add the finding with the evidence @ev, which is released. Return: 0 or -ENOMEM. */
static int add(struct report *r, const char *id, enum rtr_status st, long tid,
	       const char *title, struct strbuf *ev, const char *why, const char *fix)
{
	int err = ev->err ? -ENOMEM :
		  report_add(r, id, "proc", st, tid, title, strbuf_str(ev), why, fix);

	strbuf_free(ev);
	return err;
}

static int judge_prio99(const struct inspect_proc *p, struct report *r)
{
	int err = 0;

	for (size_t i = 0; i < p->n_threads && !err; i++) {
		const struct task_info *t = p->threads[i].t;
		struct strbuf ev = STRBUF_INIT;
		char fix[256];

		if (!task_is_rt(t) || t->rt_priority < 99 || p->threads[i].vanished)
			continue;
		strbuf_printf(&ev, "thread %d (%s) of %d (%s) runs %s at priority 99", t->tid,
			      t->comm, p->pid, p->comm, pname(t));
		snprintf(fix, sizeof(fix), "chrt -%c -p 90 %d (now); lower the priority the "
			 "application requests (at most 98)", t->policy == 2 ? 'r' : 'f', t->tid);
		err = add(r, "proc.prio99", RTR_FAIL, t->tid, "Thread at priority 99", &ev,
			  why_prio99, fix);
	}
	return err;
}

static int judge_memory(const struct inspect_proc *p, struct report *r)
{
	struct strbuf ev = STRBUF_INIT;
	enum rtr_status st;
	char lck[32], rss[32];
	int err;

	if (!p->n_rt)
		return 0;
	if (p->status_err) {
		strbuf_printf(&ev, "no thread status of %d shows its memory (VmLck, VmRSS): %s",
			      p->pid, strerror(-p->status_err));
		st = RTR_SKIP;
	} else {
		format_size(p->vm_lck_kb * 1024, lck, sizeof(lck));
		format_size(p->vm_rss_kb * 1024, rss, sizeof(rss));
		strbuf_printf(&ev, "%d (%s): VmLck %s, VmRSS %s", p->pid, p->comm, lck, rss);
		if (p->vm_lck_kb == 0) {
			st = RTR_FAIL;
			strbuf_puts(&ev, ": nothing is locked");
		} else if (p->vm_lck_kb < p->vm_rss_kb &&
			   p->vm_rss_kb - p->vm_lck_kb > UNLOCKED_SLACK_KB(p->vm_rss_kb)) {
			st = RTR_WARN;
			strbuf_puts(&ev, ": part of the resident memory is not locked "
					 "(mlock of some ranges, or mlockall without MCL_FUTURE)");
		} else {
			st = RTR_PASS;
		}
	}
	err = add(r, "proc.memory_locked", st, 0, "Realtime process memory locked", &ev,
		  why_locked,
		  "call mlockall(MCL_CURRENT | MCL_FUTURE) at start, before creating the RT "
		  "threads (rtr_mem_lock() in librtready); raise RLIMIT_MEMLOCK (ulimit -l, "
		  "limits.conf memlock) or grant CAP_IPC_LOCK");
	return err;
}

static int judge_faults(const struct inspect_result *res, const struct inspect_proc *p,
			struct report *r)
{
	int err = 0;

	for (size_t i = 0; i < p->n_threads && !err; i++) {
		const struct inspect_thread *th = &p->threads[i];
		const struct task_info *t = th->t;
		struct strbuf ev = STRBUF_INIT;
		char win[32];
		enum rtr_status st;

		if (!task_is_rt(t) || !th->have_delta)
			continue;
		format_duration(res->window_ns, win, sizeof(win));
		strbuf_printf(&ev, "thread %d (%s): %llu minor and %llu major faults in %s", t->tid,
			      t->comm, (unsigned long long)th->minflt_d,
			      (unsigned long long)th->majflt_d, win);
		if (th->perf && th->perf->read_ok[PERF_PAGE_FAULTS])
			strbuf_printf(&ev, " (perf page-faults: %llu)",
				      (unsigned long long)th->perf->value[PERF_PAGE_FAULTS]);
		st = th->minflt_d + th->majflt_d ? RTR_FAIL : RTR_PASS;
		err = add(r, "proc.page_faults", st, t->tid, "No page faults in RT threads", &ev,
			  why_faults,
			  "set mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, -1), lock memory "
			  "with mlockall, and prefault heap and stack before the loop starts "
			  "(rtr_mem_setup() in librtready); allocate nothing inside the loop");
	}
	return err;
}

/* IRQs whose requested or effective CPUs meet @cpus, listed into @ev. */
static size_t irqs_on(const struct irq_facts *irq, const struct rtr_cpuset *cpus,
		      struct strbuf *ev)
{
	size_t n = 0;

	for (size_t i = 0; i < irq->n; i++) {
		const struct irq_info *q = &irq->irqs[i];
		const struct rtr_cpuset *eff = q->effective_err ? &q->affinity : &q->effective;

		if ((q->effective_err && q->affinity_err) || !rtr_cpuset_intersects(eff, cpus))
			continue;
		if (n < EXAMPLES)
			strbuf_printf(&ev[0], "%s%d", n ? "," : "", q->irq);
		n++;
	}
	return n;
}

static int judge_affinity(const struct inspect_result *res, const struct inspect_proc *p,
			  const struct inspect_env *env, struct report *r)
{
	int err = 0;

	for (size_t i = 0; i < p->n_threads && !err; i++) {
		const struct inspect_thread *th = &p->threads[i];
		const struct task_info *t = th->t;
		struct strbuf ev = STRBUF_INIT, irqs = STRBUF_INIT;
		enum rtr_status st = RTR_PASS;
		char cpus[256], fix[640];
		size_t ncpu, nirq;

		if (!task_is_rt(t) || th->vanished)
			continue;
		if (t->allowed_err) {
			strbuf_printf(&ev, "thread %d: cannot read its allowed CPUs: %s", t->tid,
				      strerror(-t->allowed_err));
			err = add(r, "proc.affinity", RTR_SKIP, t->tid, "RT thread affinity", &ev,
				  why_affinity, "");
			continue;
		}
		rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus));
		ncpu = rtr_cpuset_count(&t->allowed);
		strbuf_printf(&ev, "thread %d (%s) %s %d may run on CPUs %s (last on %d)", t->tid,
			      t->comm, pname(t), t->rt_priority, cpus, t->last_cpu);
		if (ncpu > 1) {
			st = RTR_WARN;
			strbuf_printf(&ev, "; it can migrate between %zu CPUs", ncpu);
		}
		if (!rtr_cpuset_is_empty(env->rt_cpus) &&
		    !rtr_cpuset_is_subset(&t->allowed, env->rt_cpus)) {
			char rt[256];

			rtr_cpuset_format_list(env->rt_cpus, rt, sizeof(rt));
			st = RTR_WARN;
			strbuf_printf(&ev, "; not all of them are RT CPUs (%s)", rt);
		}
		nirq = irqs_on(&res->irq, &t->allowed, &irqs);
		if (nirq && ncpu > 1) {
			st = RTR_WARN;
			strbuf_printf(&ev, "; %zu IRQ%s may be delivered there (%s%s)", nirq,
				      nirq > 1 ? "s" : "", strbuf_str(&irqs),
				      nirq > EXAMPLES ? ",..." : "");
		} else if (nirq) {
			/*
			 * Pinned already: the thread's affinity is right. The IRQs
			 * are the machine's to move (check's irq.affinity), so
			 * they are a note here, not a second verdict.
			 */
			strbuf_printf(&ev, "; pinned to one CPU; %zu IRQ%s may be delivered to it "
				      "(%s%s): see rtready check, irq.affinity", nirq,
				      nirq > 1 ? "s" : "", strbuf_str(&irqs),
				      nirq > EXAMPLES ? ",..." : "");
		}
		if (t->policy == 6) {
			/*
			 * sched_setaffinity() of a DEADLINE task fails (EBUSY, EPERM)
			 * unless the mask spans its root domain while admission
			 * control is on: only a domain of its own narrows it.
			 */
			strbuf_puts(&ev, "; a DEADLINE thread's affinity spans its root domain "
				    "(the kernel refuses to narrow it)");
			snprintf(fix, sizeof(fix),
				 "not taskset (the kernel refuses a DEADLINE task an affinity "
				 "narrower than its root domain, EBUSY/EPERM): give the RT CPUs a "
				 "root domain of their own, an exclusive cpuset partition: "
				 "rtready run --isolate --cpus LIST -- PROG (the program then "
				 "switches itself to SCHED_DEADLINE), or rtready tune --rt-cpus "
				 "LIST --isolate --apply and start the program in "
				 "/sys/fs/cgroup/rtready-isolated before it switches; move IRQs "
				 "away with rtready tune --rt-cpus LIST");
		} else if (ncpu > 1)
			snprintf(fix, sizeof(fix),
				 "pin the thread to one RT CPU: taskset -p -c CPU %d (now), or "
				 "pthread_setaffinity_np / rtr_thread_create with cpus set in the "
				 "application; move IRQs away with rtready tune --rt-cpus LIST",
				 t->tid);
		else
			snprintf(fix, sizeof(fix),
				 "pin the thread to an RT CPU instead: taskset -p -c CPU %d (now), "
				 "or its affinity in the application; move IRQs away with "
				 "rtready tune --rt-cpus LIST", t->tid);
		err = add(r, "proc.affinity", st, t->tid, "RT thread affinity", &ev, why_affinity,
			  fix);
		strbuf_free(&irqs);
	}
	return err;
}

static int judge_preempted(const struct inspect_proc *p, struct report *r)
{
	int err = 0;

	for (size_t i = 0; i < p->n_threads && !err; i++) {
		const struct inspect_thread *th = &p->threads[i];
		const struct task_info *t = th->t;
		struct strbuf ev = STRBUF_INIT;

		if (!task_is_rt(t) || !th->have_ctxt_delta)
			continue;
		strbuf_printf(&ev, "thread %d (%s): %llu involuntary and %llu voluntary context "
			      "switches in the window", t->tid, t->comm,
			      (unsigned long long)th->nvcsw_d, (unsigned long long)th->vcsw_d);
		err = add(r, "proc.preempted", th->nvcsw_d ? RTR_WARN : RTR_PASS, t->tid,
			  "RT thread not preempted", &ev, why_preempted,
			  "find what runs on its CPU at equal or higher priority (rtready check, "
			  "sched.rt_tasks), disable RT throttling, and give the thread its own CPU");
	}
	return err;
}

/* Non-RT user tasks anywhere on the machine allowed on the CPUs of @p's RT threads. */
static int judge_non_rt(const struct inspect_result *res, const struct inspect_proc *p,
			struct report *r)
{
	const struct tasks_facts *all = res->window_ns > 0 ? &res->after : &res->before;
	struct rtr_cpuset cpus = RTR_CPUSET_INIT;
	struct strbuf ev = STRBUF_INIT;
	char list[256];
	size_t n = 0;
	int err = 0;

	if (!p->n_rt)
		return 0;
	for (size_t i = 0; i < p->n_threads && !err; i++)
		if (task_is_rt(p->threads[i].t) && !p->threads[i].vanished)
			err = rtr_cpuset_or(&cpus, &p->threads[i].t->allowed);
	if (err)
		return err;
	rtr_cpuset_format_list(&cpus, list, sizeof(list));
	strbuf_printf(&ev, "RT threads of %d (%s) use CPUs %s; ", p->pid, p->comm, list);
	for (size_t i = 0; i < all->n; i++) {
		const struct task_info *t = &all->tasks[i];

		if (task_is_rt(t) || t->kthread || t->allowed_err || t->pid == p->pid ||
		    !rtr_cpuset_intersects(&t->allowed, &cpus))
			continue;
		if (n < EXAMPLES)
			strbuf_printf(&ev, "%s%s[%d]", n ? ", " : "non-RT tasks allowed there: ",
				      t->comm, t->tid);
		n++;
	}
	if (n > EXAMPLES)
		strbuf_printf(&ev, " and %zu more", n - EXAMPLES);
	if (!n)
		strbuf_puts(&ev, "no non-RT user task may run there");
	err = add(r, "proc.non_rt_on_rt_cpu", n ? RTR_WARN : RTR_PASS, 0,
		  "No non-RT tasks on the CPUs of RT threads", &ev, why_non_rt,
		  "isolate the RT CPUs (isolcpus= or cpusets) and move other tasks off them: "
		  "rtready tune --rt-cpus LIST --apply, or taskset -a -p -c OTHER_CPUS PID");
	rtr_cpuset_free(&cpus);
	return err;
}

static const char why_busy[] =
	"Most tasks should stay non-realtime, but a busy one still takes CPU time, cache and "
	"memory bandwidth wherever it may run. Bounded by a control group (cpu.max) and kept "
	"off the realtime CPUs, it cannot crowd them.";

/* Busy non-RT threads allowed on RT CPUs, in a cgroup without a CPU limit. */
static int judge_busy(const struct inspect_result *res, const struct inspect_proc *p,
		      const struct inspect_env *env, struct report *r)
{
	int err = 0;

	if (!p->busy || rtr_cpuset_is_empty(env->rt_cpus))
		return 0;
	for (size_t i = 0; i < p->n_threads && !err; i++) {
		const struct inspect_thread *th = &p->threads[i];
		const struct task_info *t = th->t;
		double pct = inspect_cpu_percent(res, th);
		struct strbuf ev = STRBUF_INIT;
		char cpus[256];

		if (task_is_rt(t) || th->vanished || pct < INSPECT_BUSY_PCT || t->allowed_err ||
		    !rtr_cpuset_intersects(&t->allowed, env->rt_cpus))
			continue;
		rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus));
		strbuf_printf(&ev, "thread %d (%s) of %d (%s) used %.0f%% of a CPU, is %s and may "
			      "run on CPUs %s, RT CPUs among them; ", t->tid, t->comm, p->pid,
			      p->comm, pct, task_policy_name(t->policy), cpus);
		if (p->cpu_limit_err)
			strbuf_printf(&ev, "its cgroup's CPU limit could not be read (%s)",
				      strerror(-p->cpu_limit_err));
		else if (p->cpu_limit_pct > 0)
			strbuf_printf(&ev, "its cgroup %s caps it at %.0f%%", p->cgroup,
				      p->cpu_limit_pct);
		else
			strbuf_printf(&ev, "its cgroup %s has no CPU limit", p->cgroup);
		err = add(r, "proc.busy_non_rt", p->cpu_limit_pct > 0 ? RTR_INFO : RTR_WARN, t->tid,
			  "Busy non-RT task on RT CPUs", &ev, why_busy,
			  "keep it off the RT CPUs (taskset -a -p -c OTHER_CPUS PID, or rtready tune "
			  "--apply) and cap it: rtready run --nice 10 --cpu-max 20 -- CMD, or "
			  "CPUQuota= in its systemd unit");
	}
	return err;
}

static int judge_no_rt(const struct inspect_proc *p, struct report *r)
{
	struct strbuf ev = STRBUF_INIT;
	int err;

	strbuf_printf(&ev, "%d (%s): %zu thread%s, none SCHED_FIFO, SCHED_RR or SCHED_DEADLINE",
		      p->pid, p->comm, p->n_threads, p->n_threads == 1 ? "" : "s");
	err = add(r, "proc.no_rt_threads", RTR_INFO, 0, "Realtime threads present", &ev,
		  why_no_rt,
		  "if it is time-critical, run its critical thread with SCHED_FIFO: "
		  "rtready run --policy fifo --prio 80 -- CMD, or chrt -f -p 80 TID");
	return err;
}

int inspect_judge(const struct inspect_result *res, const struct inspect_env *env,
		  struct report *r)
{
	int err = 0;

	for (size_t k = 0; k < res->n_procs && !err; k++) {
		const struct inspect_proc *p = &res->procs[k];

		if (p->vanished)
			continue;
		err = judge_busy(res, p, env, r);
		if (err)
			break;
		if (!p->n_rt) {
			if (env->verbose)
				err = judge_no_rt(p, r);
			continue;
		}
		err = judge_prio99(p, r);
		err = err ? err : judge_memory(p, r);
		err = err ? err : judge_faults(res, p, r);
		err = err ? err : judge_affinity(res, p, env, r);
		err = err ? err : judge_preempted(p, r);
		err = err ? err : judge_non_rt(res, p, r);
	}
	return err;
}
