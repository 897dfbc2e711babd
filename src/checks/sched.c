// SPDX-License-Identifier: MIT
/*
 * Scheduling checks: RT throttling (and the fair deadline server that
 * replaced part of it in 6.12), RT group scheduling, tasks at priority 99,
 * the inventory of realtime tasks, and SCHED_DEADLINE mixed with FIFO/RR.
 * By default the kernel lets realtime tasks use 950 ms of every second
 * (sched_rt_runtime_us 950000 of sched_rt_period_us 1000000); in the
 * remaining 50 ms no RT task runs, which is a priority inversion that
 * breaks any deadline shorter than that.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "checks/check.h"

/* How many tasks an evidence list names before "and N more". */
#define LIST_MAX 8

static bool kernel_at_least(const struct kernel_facts *k, int major, int minor)
{
	return k->major > major || (k->major == major && k->minor >= minor);
}

/*
 * Append the fair-server facts of a 6.12+ kernel; return true when it
 * reserves time where it matters: on an RT CPU (any CPU when none are
 * declared). Time reserved on the other CPUs is what they are for.
 */
static bool fair_server_note(const struct sched_facts *s, const struct rtr_cpuset *rt,
			     struct strbuf *ev)
{
	if (s->fair_server_err) {
		strbuf_printf(ev, "; kernel 6.12+: the fair deadline server still reserves time "
			      "for normal tasks on each CPU (its settings in "
			      "/sys/kernel/debug/sched/fair_server are not readable: %s)",
			      strerror(-s->fair_server_err));
		return false;
	}
	if (s->fair_runtime_max_ns == 0) {
		strbuf_printf(ev, "; fair server runtime 0 on all %u CPUs: no time reserved for "
			      "normal tasks", s->fair_server_cpus);
		return false;
	}
	if (!rtr_cpuset_is_empty(rt) && !rtr_cpuset_intersects(&s->fair_reserving, rt)) {
		strbuf_printf(ev, "; fair server runtime 0 on every RT CPU (time is reserved for "
			      "normal tasks only on the others)");
		return false;
	}
	strbuf_printf(ev, "; kernel 6.12+: the fair deadline server reserves %lld..%lld ns per "
		      "%lld ns for normal tasks on %u CPUs, which preempts RT tasks when normal "
		      "tasks starve there, throttling or not",
		      (long long)s->fair_runtime_min_ns, (long long)s->fair_runtime_max_ns,
		      (long long)s->fair_period_ns, s->fair_server_cpus);
	return true;
}

static const char fair_fix[] =
	" On 6.12+ also zero the fair server on the RT CPUs: for each RT CPU N, "
	"'echo 0 > /sys/kernel/debug/sched/fair_server/cpuN/runtime' (debugfs, as root; it has "
	"no sysctl or boot parameter, so put it in a boot script, e.g. a systemd unit; rtready tune "
	"--apply does it, journaled, and its --emit-boot unit repeats it at boot).";

static void check_rt_throttling(const struct check_ctx *ctx, struct check_out *out)
{
	const struct sched_facts *s = &ctx->facts->sched;
	bool dl_server = kernel_at_least(&ctx->facts->kernel, 6, 12), reserves = false;
	struct strbuf ev = STRBUF_INIT;
	enum rtr_status st;

	if (s->rt_runtime_err) {
		check_skip_read(out, "/proc/sys/kernel/sched_rt_runtime_us", s->rt_runtime_err);
		return;
	}
	if (s->rt_runtime_us < 0 ||
	    (s->rt_period_err == 0 && s->rt_runtime_us >= s->rt_period_us)) {
		strbuf_printf(&ev, "sched_rt_runtime_us = %lld: RT throttling is off",
			      (long long)s->rt_runtime_us);
		if (dl_server)
			reserves = fair_server_note(s, ctx->rt_cpus, &ev);
		st = reserves ? RTR_WARN : RTR_PASS;
	} else if (s->rt_period_err) {
		strbuf_printf(&ev, "sched_rt_runtime_us = %lld (sched_rt_period_us unreadable: %s)",
			      (long long)s->rt_runtime_us, strerror(-s->rt_period_err));
		st = RTR_WARN;
	} else {
		strbuf_printf(&ev, "sched_rt_runtime_us = %lld of sched_rt_period_us = %lld: RT "
			      "tasks may run %lld us per %lld us, then none runs for %lld us",
			      (long long)s->rt_runtime_us, (long long)s->rt_period_us,
			      (long long)s->rt_runtime_us, (long long)s->rt_period_us,
			      (long long)(s->rt_period_us - s->rt_runtime_us));
		if (dl_server)
			reserves = fair_server_note(s, ctx->rt_cpus, &ev);
		st = RTR_WARN;
	}
	check_set(out, st, "%s", strbuf_str(&ev));
	if (reserves && st == RTR_WARN && s->rt_runtime_us >= 0 && s->rt_period_err == 0 &&
	    s->rt_runtime_us < s->rt_period_us)
		check_fix(out, "%s%s", sched_checks[0].fix, fair_fix);
	else if (reserves)
		check_fix(out, "%s", fair_fix + 1);
	strbuf_free(&ev);
}

/* ---- sched.rt_group ---------------------------------------------------- */

static const char *hier_name(enum rtgroup_hier h)
{
	return h == RTGROUP_V1 ? "cgroup v1" : h == RTGROUP_V2 ? "cgroup v2" : "no hierarchy";
}

/* Whether this kernel knows rt_group_sched= (6.16+, or a config that names its default). */
static bool has_rt_group_param(const struct kernel_facts *k)
{
	return kernel_at_least(k, 6, 16) ||
	       kconfig_tristate(&k->config, "CONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED") !=
		       KCONFIG_ABSENT;
}

/* The other busy groups without a budget, as a sentence (empty when none). */
static void others_note(const struct rtgroup_facts *g, struct strbuf *ev)
{
	if (g->zero_busy)
		strbuf_printf(ev, "; %u group%s under %s with no RT budget hold%s tasks (e.g. %s)",
			      g->zero_busy, g->zero_busy == 1 ? "" : "s", g->mount,
			      g->zero_busy == 1 ? "s" : "", g->zero_example);
	if (g->truncated)
		strbuf_printf(ev, " (walk stopped at %u groups)", RTGROUP_MAX_DIRS);
}

/* The remedy for a group @dir without a budget, for the hierarchy it is in. */
static void rt_group_fix(struct check_out *out, const struct kernel_facts *k,
			 const struct rtgroup_facts *g, const char *dir)
{
	const char *param = has_rt_group_param(k) ?
		" or boot with rt_group_sched=0 (this kernel has the parameter);" :
		" or (Linux 6.16+) boot with rt_group_sched=0;";

	if (g->hier == RTGROUP_V2)
		check_fix(out, "cgroup v2 has no cpu.rt_runtime_us, so a group that takes the cpu "
			  "controller can never get an RT budget. Run the RT work in the root "
			  "cgroup: echo $$ > %s/cgroup.procs, then start it from that shell; or "
			  "turn the cpu controller off below the root: echo -cpu > "
			  "CGROUP/cgroup.subtree_control, from the deepest group up to %s (refused "
			  "while a child still uses it);%s or a kernel without CONFIG_RT_GROUP_SCHED; "
			  "sysctl kernel.sched_rt_runtime_us=-1 also lifts the refusal, but turns "
			  "RT throttling off.", g->mount, g->self_enabled_in[0] ? g->self_enabled_in :
			  g->mount, param);
	else
		check_fix(out, "Give the group an RT budget, parents first: echo 950000 > "
			  "DIR/cpu.rt_runtime_us for each DIR from below %s down to %s (a child "
			  "cannot have more than its parent; lost at reboot, so repeat it in a boot "
			  "script or the service's ExecStartPre=); or run the RT work in the root "
			  "group: echo $$ > %s/cgroup.procs;%s or a kernel without "
			  "CONFIG_RT_GROUP_SCHED.", g->mount, dir, g->mount, param);
}

static void check_rt_group(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	const struct sched_facts *s = &ctx->facts->sched;
	const struct rtgroup_facts *g = &s->rtg;
	const struct cmdline_param *boot =
		k->cmdline_err ? NULL : cmdline_get(&k->cmdline, "rt_group_sched");
	enum kconfig_tristate cfg = kconfig_tristate(&k->config, "CONFIG_RT_GROUP_SCHED");
	struct strbuf ev = STRBUF_INIT;
	enum rtr_status st;

	if (k->config_err == 0 && cfg != KCONFIG_YES) {
		check_set(out, RTR_PASS, "CONFIG_RT_GROUP_SCHED not set: cgroups do not limit RT "
			  "tasks (only the global throttling does)");
		return;
	}
	if (boot && boot->value && strcmp(boot->value, "0") == 0) {
		check_set(out, RTR_PASS, "rt_group_sched=0 on the command line: RT group "
			  "scheduling is off");
		return;
	}
	if (k->config_err == 0 &&
	    kconfig_tristate(&k->config, "CONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED") == KCONFIG_YES &&
	    !(boot && boot->value && strcmp(boot->value, "1") == 0)) {
		check_set(out, RTR_PASS, "CONFIG_RT_GROUP_SCHED=y but off by default "
			  "(CONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED=y, no rt_group_sched=1 on the "
			  "command line)");
		return;
	}
	if (s->rt_runtime_err == 0 && s->rt_runtime_us < 0) {
		/* The kernel tests a group's budget only while throttling is on. */
		check_set(out, RTR_PASS, "RT throttling is off (kernel.sched_rt_runtime_us = -1), "
			  "and with it the kernel's test of group RT budgets: no cgroup refuses "
			  "SCHED_FIFO/RR (setting a runtime again brings the refusals back)");
		return;
	}
	if (g->err && g->err != -ENOENT) {
		check_set(out, RTR_SKIP, "cannot read the cgroup mounts (%s): cannot tell where "
			  "RT group scheduling applies", strerror(-g->err));
		return;
	}
	if (g->hier == RTGROUP_NONE) {
		if (g->self == RTGROUP_SELF_HIDDEN) {
			check_set(out, RTR_WARN, "no hierarchy mounted here holds the cpu controller, "
				  "but this process is in cpu cgroup %s of one mounted elsewhere: its "
				  "RT budget cannot be read from here", g->self_cgroup);
			return;
		}
		if (k->config_err)
			check_set(out, RTR_SKIP, "no kernel configuration and no hierarchy with the "
				  "cpu controller: cannot tell whether RT group scheduling is on");
		else if (g->self == RTGROUP_SELF_UNKNOWN)
			check_set(out, RTR_WARN, "CONFIG_RT_GROUP_SCHED=y and no hierarchy mounted "
				  "here holds the cpu controller, but this process's cgroup could "
				  "not be read (%s: %s)", g->self_err_path, strerror(-g->self_err));
		else
			check_set(out, RTR_PASS, "CONFIG_RT_GROUP_SCHED=y, but no cgroup hierarchy "
				  "holds the cpu controller: every task is in the root group, which "
				  "only the global throttling limits");
		return;
	}
	strbuf_printf(&ev, "%sRT group scheduling: the cpu controller is on %s at %s",
		      k->config_err == 0 ? "CONFIG_RT_GROUP_SCHED=y, " : "", hier_name(g->hier),
		      g->mount);
	switch (g->self) {
	case RTGROUP_SELF_ZERO:
		st = RTR_FAIL;
		strbuf_printf(&ev, "; this process's cgroup %s", g->self_cgroup);
		if (g->hier == RTGROUP_V2) {
			if (strcmp(g->self_group + strlen(g->mount), g->self_cgroup) != 0)
				strbuf_printf(&ev, " is charged to %s", g->self_group);
			else
				strbuf_printf(&ev, " (%s)", g->self_group);
			strbuf_printf(&ev, ", which takes the cpu controller (cgroup.controllers: "
				      "%s; enabled by %s/cgroup.subtree_control) and has no RT "
				      "budget (%s)", g->self_controllers, g->self_enabled_in,
				      g->self_runtime_us < 0 ? "v2 has no cpu.rt_runtime_us" :
				      "cpu.rt_runtime_us = 0");
		} else {
			strbuf_printf(&ev, " (%s) has cpu.rt_runtime_us = 0", g->self_group);
		}
		strbuf_printf(&ev, ": SCHED_FIFO and SCHED_RR requested from here (rtready "
			      "latency, chrt, the application) fail with EPERM, even as root");
		others_note(g, &ev);
		check_set(out, st, "%s", strbuf_str(&ev));
		rt_group_fix(out, k, g, g->self_group);
		strbuf_free(&ev);
		return;
	case RTGROUP_SELF_HIDDEN:
		strbuf_printf(&ev, "; this process's cgroup %s is charged to a group above this "
			      "view (a cgroup namespace or container), whose RT budget cannot be "
			      "read from here", g->self_cgroup);
		st = RTR_WARN;
		break;
	case RTGROUP_SELF_UNKNOWN:
		strbuf_printf(&ev, "; this process's cgroup could not be read (%s: %s)",
			      g->self_err_path, strerror(-g->self_err));
		/* Every group has a budget: wherever the process is, it is fine. */
		st = g->zero || g->truncated ? RTR_WARN : RTR_PASS;
		break;
	case RTGROUP_SELF_ROOT:
		if (g->self_cgroup[0] && strcmp(g->self_cgroup, "/") != 0)
			strbuf_printf(&ev, "; this process's cgroup %s is charged to the root group "
				      "(%s): no group above it takes the cpu controller",
				      g->self_cgroup, g->self_group);
		else
			strbuf_printf(&ev, "; this process is in the root group (%s)",
				      g->self_group);
		st = RTR_PASS;
		break;
	default:
		strbuf_printf(&ev, "; this process's cgroup %s has cpu.rt_runtime_us = %lld",
			      g->self_group, (long long)g->self_runtime_us);
		st = RTR_PASS;
		break;
	}
	if (g->unread) {
		/* What was not read is not judged: never a pass over it. */
		strbuf_printf(&ev, "; %u group%s under %s could not be read", g->unread,
			      g->unread == 1 ? "" : "s", g->mount);
		if (st == RTR_PASS)
			st = RTR_WARN;
	}
	if (g->zero_busy) {
		st = RTR_WARN;
		others_note(g, &ev);
		strbuf_printf(&ev, ": a task there gets EPERM from sched_setscheduler/chrt for "
			      "SCHED_FIFO and SCHED_RR");
	} else {
		if (g->groups == 0)
			strbuf_printf(&ev, "; no group in view takes the cpu controller");
		else
			strbuf_printf(&ev, "; %u group%s take%s the cpu controller", g->groups,
				      g->groups == 1 ? "" : "s", g->groups == 1 ? "s" : "");
		if (g->groups == 0)
			;
		else if (g->zero)
			strbuf_printf(&ev, ", %u with no RT budget, none of them holding tasks",
				      g->zero);
		else
			strbuf_printf(&ev, ", all with an RT budget");
		if (g->truncated) {
			strbuf_printf(&ev, " (walk stopped at %u groups)", RTGROUP_MAX_DIRS);
			if (st == RTR_PASS && g->self != RTGROUP_SELF_ROOT &&
			    g->self != RTGROUP_SELF_BUDGET)
				st = RTR_WARN;
		}
	}
	check_set(out, st, "%s", strbuf_str(&ev));
	if (g->zero_busy)
		rt_group_fix(out, k, g, g->zero_example);
	strbuf_free(&ev);
}

/* ---- task lists -------------------------------------------------------- */

/* Skip with a reason when the task list is unusable. Return: true when skipped. */
static void task_line(struct strbuf *sb, const struct task_info *t, bool first)
{
	char cpus[128];

	rtr_cpuset_format_list(&t->allowed, cpus, sizeof(cpus));
	strbuf_printf(sb, "%s%s (pid %d", first ? "" : ", ", t->comm, t->pid);
	if (t->tid != t->pid)
		strbuf_printf(sb, " tid %d", t->tid);
	strbuf_printf(sb, ") %s", task_policy_name(t->policy));
	if (t->policy == 1 || t->policy == 2)
		strbuf_printf(sb, " %d", t->rt_priority);
	if (t->allowed_err == 0)
		strbuf_printf(sb, " cpus %s", cpus);
}

static void tasks_note(const struct tasks_facts *t, struct strbuf *sb)
{
	if (t->unreadable)
		strbuf_printf(sb, "; %zu tasks unreadable (first %s: %s)", t->unreadable,
			      t->first_unreadable, strerror(-t->first_unreadable_err));
	if (t->truncated)
		strbuf_printf(sb, "; the walk stopped at %d tasks", TASKS_MAX);
}

/* ---- sched.prio99 ------------------------------------------------------ */

static bool at_99(const struct task_info *t)
{
	return (t->policy == 1 || t->policy == 2) && t->rt_priority >= 99;
}

static void check_prio99(const struct check_ctx *ctx, struct check_out *out)
{
	const struct tasks_facts *t = &ctx->facts->tasks;
	struct strbuf ev = STRBUF_INIT;
	size_t user = 0, kern = 0;

	if (check_tasks_unusable(t, out))
		return;
	for (size_t i = 0; i < t->n; i++) {
		if (!at_99(&t->tasks[i]))
			continue;
		if (t->tasks[i].kthread) {
			kern++;
			continue;
		}
		if (user < LIST_MAX)
			task_line(&ev, &t->tasks[i], user == 0);
		user++;
	}
	if (user > LIST_MAX)
		strbuf_printf(&ev, " and %zu more", user - LIST_MAX);
	if (user) {
		check_set(out, RTR_FAIL, "%zu user tasks at priority 99: %s; %zu kernel threads "
			  "there too", user, strbuf_str(&ev), kern);
		check_fix(out, "Run the application at 98 or below (chrt -f -p 80 PID now; change "
			  "the priority in the program, its unit file (CPUSchedulingPriority=) or its "
			  "start script so it holds after a restart).");
	} else if (kern) {
		strbuf_reset(&ev);
		strbuf_printf(&ev, "no user task at priority 99; %zu kernel threads are (the "
			      "kernel's own: migration, watchdogs; not yours to change)", kern);
		tasks_note(t, &ev);
		check_set(out, RTR_PASS, "%s", strbuf_str(&ev));
	} else {
		strbuf_reset(&ev);
		strbuf_printf(&ev, "no task at priority 99 among %zu tasks", t->n);
		tasks_note(t, &ev);
		check_set(out, RTR_PASS, "%s", strbuf_str(&ev));
	}
	strbuf_free(&ev);
}

/* ---- sched.rt_tasks ---------------------------------------------------- */

static void check_rt_tasks(const struct check_ctx *ctx, struct check_out *out)
{
	const struct tasks_facts *t = &ctx->facts->tasks;
	struct strbuf list = STRBUF_INIT, ev = STRBUF_INIT;
	size_t user = 0, kern = 0, kern_irq = 0;

	if (check_tasks_unusable(t, out))
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct task_info *x = &t->tasks[i];

		if (!task_is_rt(x))
			continue;
		if (x->kthread) {
			kern++;
			kern_irq += strncmp(x->comm, "irq/", 4) == 0;
			continue;
		}
		if (user < LIST_MAX * 2)
			task_line(&list, x, user == 0);
		user++;
	}
	if (user > LIST_MAX * 2)
		strbuf_printf(&list, " and %zu more", user - LIST_MAX * 2);
	strbuf_printf(&ev, "%zu tasks, %zu realtime: %zu user (%s), %zu kernel threads "
		      "(%zu of them IRQ threads)", t->n, user + kern, user,
		      user ? strbuf_str(&list) : "none", kern, kern_irq);
	tasks_note(t, &ev);
	check_set(out, RTR_INFO, "%s", strbuf_str(&ev));
	strbuf_free(&list);
	strbuf_free(&ev);
}

/* ---- sched.deadline_mix ------------------------------------------------ */

/* Why the task list is a child PID namespace's only (tasks_pidns_only()). */
static void put_pidns(struct strbuf *sb, const struct tasks_facts *t)
{
	if (t->pidns_link[0] && strcmp(t->pidns_link, TASKS_PIDNS_INIT) != 0)
		strbuf_printf(sb, "/proc/self/ns/pid is %s, not the initial namespace's "
			      TASKS_PIDNS_INIT, t->pidns_link);
	else
		strbuf_printf(sb, "NSpid of /proc/self/status has %d ids", t->pidns_levels);
}

static void check_deadline_mix(const struct check_ctx *ctx, struct check_out *out)
{
	const struct tasks_facts *t = &ctx->facts->tasks;
	struct strbuf dl = STRBUF_INIT, rt = STRBUF_INIT;
	size_t n_dl = 0, n_rt = 0;

	if (check_tasks_unusable(t, out))
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct task_info *x = &t->tasks[i];

		/* schedutil's sugov:N threads hold 1 ms in 10 for frequency changes only. */
		if (x->policy == 6 && dlbw_task_is_sugov(x)) {
			continue;
		} else if (x->policy == 6) {
			if (n_dl < LIST_MAX)
				task_line(&dl, x, n_dl == 0);
			n_dl++;
		} else if ((x->policy == 1 || x->policy == 2) && !x->kthread) {
			if (n_rt < LIST_MAX)
				task_line(&rt, x, n_rt == 0);
			n_rt++;
		}
	}
	if (n_dl && n_rt) {
		check_set(out, RTR_WARN, "%zu SCHED_DEADLINE tasks (%s) beside %zu user FIFO/RR "
			  "tasks (%s): every deadline task runs before any FIFO/RR task, whatever "
			  "its priority", n_dl, strbuf_str(&dl), n_rt, strbuf_str(&rt));
	} else if (tasks_pidns_only(t)) {
		/* The host's tasks are not in this /proc: a mix may be there unseen. */
		struct strbuf ns = STRBUF_INIT;

		put_pidns(&ns, t);
		check_set(out, RTR_SKIP, "%zu SCHED_DEADLINE and %zu user FIFO/RR tasks seen, but "
			  "rtready runs in a child PID namespace (%s): its /proc lists only that "
			  "namespace's tasks, not the host's", n_dl, n_rt, strbuf_str(&ns));
		strbuf_free(&ns);
		check_fix(out, "Run `rtready check --only sched.deadline_mix` on the host, outside "
			  "the PID namespace, where every task is seen.");
	} else if (n_dl)
		check_set(out, RTR_PASS, "%zu SCHED_DEADLINE tasks (%s), no user FIFO/RR task",
			  n_dl, strbuf_str(&dl));
	else
		check_set(out, RTR_PASS, "no SCHED_DEADLINE task (%zu user FIFO/RR tasks)", n_rt);
	strbuf_free(&dl);
	strbuf_free(&rt);
}

/* ---- sched.deadline_bandwidth ------------------------------------------ */

/* Warn once the DEADLINE reservations pass this share of the admission limit. */
#define DL_WARN_PERMILLE 800
static double pct(uint64_t bw)
{
	return 100.0 * (double)bw / DLBW_UNIT;
}

/*
 * One root domain: the kernel's admission test compares the sum of the
 * runtime/period of its DEADLINE tasks (and fair servers) with the limit
 * per CPU times its CPUs (dlbw_domains(): the main one, the default one of
 * the isolcpus CPUs and isolated partitions, each cgroup v2 root
 * partition). @used comes from the debug file (dl_bw->total_bw of
 * the domain's first CPU) or from the tasks' sched_getattr and the fair
 * servers. Return: the status of this domain.
 */
static enum rtr_status dl_domain(const struct check_ctx *ctx, const struct rtr_cpuset *cpus,
				 const char *name, struct strbuf *ev)
{
	const struct facts *f = ctx->facts;
	const struct sched_facts *s = &f->sched;
	size_t n = rtr_cpuset_count(cpus);
	struct dlbw_usage u;

	if (dlbw_usage(&f->dlbw, s, &f->kernel, &f->tasks, &f->cpu, cpus, &u))
		return RTR_SKIP;
	strbuf_printf(ev, "%s%s root domain (CPU ", ev->len ? "; " : "", name);
	check_put_cpus(ev, cpus);
	strbuf_puts(ev, "): ");
	if (u.from_debug)
		strbuf_printf(ev, "%.1f%% of a CPU allocated (%s dl_bw->total_bw of CPU %d)",
			      pct(u.used), f->dlbw.debug_path, u.debug_cpu);
	if (u.have_tasks) {
		strbuf_printf(ev, "%s%zu DEADLINE thread%s %.1f%% of a CPU (sched_getattr)",
			      u.from_debug ? "; " : "", u.n_tasks,
			      u.n_tasks == 1 ? " reserves" : "s reserve", pct(u.tasks));
		if (f->dlbw.sugov)
			strbuf_printf(ev, " (%zu schedutil sugov:N thread%s left out: the kernel "
				      "does not count them)", f->dlbw.sugov,
				      f->dlbw.sugov == 1 ? "" : "s");
		if (u.fair)
			strbuf_printf(ev, " and the fair servers %.1f%%%s", pct(u.fair),
				      u.fair_assumed ? " (their default 50 ms per second, "
				      "assumed: their settings are not readable)" : "");
	}
	if (u.capacity)
		strbuf_printf(ev, "; limit %.1f%% (%lld/%lld of the capacity of its %zu CPUs: "
			      "unequal cores, so the kernel weighs each by its cpu_capacity, "
			      "%llu/1024 in all)", pct(u.limit), (long long)s->rt_runtime_us,
			      (long long)s->rt_period_us, n, (unsigned long long)u.capacity);
	else
		strbuf_printf(ev, "; limit %.1f%% (%lld/%lld of each of %zu CPU%s)", pct(u.limit),
			      (long long)s->rt_runtime_us, (long long)s->rt_period_us, n,
			      n == 1 ? "" : "s");
	strbuf_printf(ev, ", %.1f%% left", u.used < u.limit ? pct(u.limit - u.used) : 0.0);
	if (u.limit && u.used * 1000 > u.limit * DL_WARN_PERMILLE)
		return RTR_WARN;
	if (u.ns_only) {
		/* A lower bound only: the host's tasks are not in this /proc. */
		strbuf_puts(ev, "; but rtready runs in a child PID namespace (");
		put_pidns(ev, &f->tasks);
		strbuf_puts(ev, "): the sum covers only the DEADLINE threads of this namespace, "
			    "not the host's");
		return RTR_SKIP;
	}
	return RTR_PASS;
}

/* Two domains' statuses together: a warning stands even beside an unknown domain. */
static enum rtr_status dl_worse(enum rtr_status a, enum rtr_status b)
{
	if (a == RTR_WARN || b == RTR_WARN)
		return RTR_WARN;
	return a > b ? a : b;
}

static void check_deadline_bandwidth(const struct check_ctx *ctx, struct check_out *out)
{
	const struct facts *f = ctx->facts;
	const struct sched_facts *s = &f->sched;
	const struct dlbw_facts *d = &f->dlbw;
	struct dlbw_domains doms = { 0 };
	struct strbuf ev = STRBUF_INIT;
	enum rtr_status st = RTR_PASS, one;

	if (s->rt_runtime_err || s->rt_period_err) {
		check_skip_read(out, s->rt_runtime_err ? "/proc/sys/kernel/sched_rt_runtime_us" :
				"/proc/sys/kernel/sched_rt_period_us",
				s->rt_runtime_err ? s->rt_runtime_err : s->rt_period_err);
		return;
	}
	if (check_cpus_unknown(ctx, out))
		return;
	if (s->rt_runtime_us < 0) {
		check_set(out, RTR_INFO, "sched_rt_runtime_us = -1: DEADLINE admission control is "
			  "off, the kernel admits every DEADLINE task whatever the sum of their "
			  "runtime/period (%zu DEADLINE thread%s reserve %.1f%% of a CPU%s)",
			  d->n_tasks, d->n_tasks == 1 ? "" : "s", pct(d->tasks_bw),
			  d->tasks_err ? ", as far as the task list tells" :
			  tasks_pidns_only(&f->tasks) ? " in this PID namespace; the host's are "
			  "not seen here" : "");
		check_fix(out, "Nothing to do for admission; size the DEADLINE tasks yourself so "
			  "their runtime/period sums stay below the CPUs' capacity.");
		return;
	}
	if (dlbw_domains(&f->cpu, &f->partition, &doms)) {
		check_set(out, RTR_SKIP, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < doms.n; i++) {
		one = dl_domain(ctx, &doms.d[i].cpus, doms.d[i].name, &ev);
		st = dl_worse(st, one);
	}
	if (ev.len && doms.partitions)
		strbuf_puts(&ev, "; cpuset partitions make root domains of their own, each "
			    "figure is that of the domain named with its CPUs");
	if (ev.len && doms.unmapped[0]) {
		/* The limit may span domains the used figure does not: no pass. */
		strbuf_printf(&ev, "; but %s: a figure above may mix root domains", doms.unmapped);
		if (st == RTR_PASS)
			st = RTR_SKIP;
	}
	if (st == RTR_SKIP && !ev.len) {
		check_set(out, RTR_SKIP, "cannot read %s: %s, and %s", d->debug_path,
			  strerror(-d->debug_err), d->tasks_err == -ENOTSUP ?
			  "a snapshot cannot tell the tasks' DEADLINE parameters (sched_getattr "
			  "needs the live machine)" : "the tasks could not be read");
		goto out;
	}
	if (d->unread)
		strbuf_printf(&ev, "; %zu DEADLINE thread%s could not be read (exited?)", d->unread,
			      d->unread == 1 ? "" : "s");
	check_set(out, st, "%s", strbuf_str(&ev));
	if (st == RTR_SKIP && tasks_pidns_only(&f->tasks))
		check_fix(out, "Run `rtready check --only sched.deadline_bandwidth` on the host, "
			  "outside the PID namespace, where every DEADLINE task is seen; or make "
			  "%s readable here (it gives the whole root domain's figure).",
			  d->debug_path);
	else if (st == RTR_SKIP)
		check_fix(out, "Read each CPU's dl_rq section in %s: its dl_bw->total_bw is what "
			  "that CPU's root domain holds, and its dl_bw->bw times the domain's CPUs "
			  "the limit; or make the cpuset layout readable (cgroup v2 partitions are "
			  "mapped).", d->debug_path);
	if (st == RTR_WARN)
		check_fix(out, "The DEADLINE reservations are near the admission limit: the next "
			  "task asking for more than what is left fails with EBUSY. Shrink the "
			  "runtime/period of the tasks, spread them over more CPUs of the root "
			  "domain, or raise sched_rt_runtime_us (closer to sched_rt_period_us).");
out:
	dlbw_domains_free(&doms);
	strbuf_free(&ev);
}

const struct check sched_checks[] = {
	{
		"sched.rt_throttling", "sched", "RT throttling",
		"The kernel stops every realtime task once they together used their runtime "
		"in a period (by default 950 ms per second). A task that needs the CPU in "
		"the remaining time misses its deadline; when the kernel logs "
		"\"sched: RT throttling activated\" the system has already failed. Since 6.12 "
		"the fair deadline server also reserves time (by default 50 ms per second) for "
		"normal tasks on each CPU, even with throttling off.",
		"sysctl -w kernel.sched_rt_runtime_us=-1 (now; lost at reboot), and "
		"'kernel.sched_rt_runtime_us = -1' in /etc/sysctl.d/90-rtready.conf (at boot); "
		"make sure no RT task can spin forever first.",
		check_rt_throttling,
	},
	{
		"sched.rt_group", "sched", "RT group scheduling",
		"With CONFIG_RT_GROUP_SCHED every cgroup that takes the cpu controller has its own "
		"RT budget, and new ones get none. On cgroup v1 the budget is cpu.rt_runtime_us "
		"(0 in a new group); cgroup v2 has no such file, so every non-root group with the "
		"cpu controller has none. A shell, service or container in such a group cannot "
		"switch to SCHED_FIFO or SCHED_RR at all: chrt and sched_setscheduler fail with "
		"EPERM even as root.",
		"cgroup v1: give the group an RT budget, parents first (echo 950000 > "
		"DIR/cpu.rt_runtime_us). cgroup v2: run the RT work in the root cgroup, or turn the "
		"cpu controller off below the root (echo -cpu > DIR/cgroup.subtree_control). "
		"Either: boot with rt_group_sched=0 (6.16+), or use a kernel without "
		"CONFIG_RT_GROUP_SCHED.",
		check_rt_group,
	},
	{
		"sched.prio99", "sched", "Tasks at priority 99",
		"Priority 99 is where the kernel puts its own most urgent threads (CPU migration, "
		"watchdogs). An application there competes with them and can stall the kernel; "
		"it gains nothing, since nothing else of the user's runs above 98.",
		"Use priorities 1-98 for applications: chrt -f -p PRIO PID now (lost when the task "
		"restarts), and the same priority in the program, its unit file "
		"(CPUSchedulingPriority=) or its start script.",
		check_prio99,
	},
	{
		"sched.rt_tasks", "sched", "Realtime task inventory",
		"Most tasks on a realtime system should not be realtime. Knowing which tasks run "
		"with FIFO, RR or DEADLINE, at which priority and on which CPUs is the start of "
		"every priority design.",
		"Review each RT task: does it need to be realtime, and is its priority above "
		"everything it waits for?",
		check_rt_tasks,
	},
	{
		"sched.deadline_mix", "sched", "SCHED_DEADLINE beside FIFO/RR",
		"SCHED_DEADLINE tasks are scheduled before every SCHED_FIFO and SCHED_RR task, "
		"whatever the priorities. Mixing the classes makes the FIFO/RR priority design "
		"meaningless unless the deadline budgets were sized with it in mind.",
		"Use one class for the time-critical tasks, or size the deadline tasks' "
		"runtime/period so the FIFO/RR tasks still meet their deadlines.",
		check_deadline_mix,
	},
	{
		"sched.deadline_bandwidth", "sched", "SCHED_DEADLINE bandwidth and admission",
		"The kernel admits a SCHED_DEADLINE task only if the runtime/period of every "
		"DEADLINE task of its root domain, with the new one, stays within "
		"sched_rt_runtime_us/sched_rt_period_us of each of the domain's CPUs (95% by "
		"default; on unequal cores each CPU counts as its cpu_capacity/1024; after 6.12 "
		"the fair servers' 5% per CPU counts too); otherwise "
		"sched_setattr fails with EBUSY. The RT throttling settings are thus also the "
		"DEADLINE admission limit: lowering sched_rt_runtime_us shrinks it (the kernel "
		"refuses to go below what is already admitted), and -1, which turns throttling "
		"off, turns admission control off as well, so any DEADLINE task is admitted (and "
		"may be pinned to fewer CPUs than its root domain) and overload is no longer "
		"prevented.",
		"Keep the sum of the DEADLINE tasks' runtime/period below the limit with room to "
		"spare, or raise sched_rt_runtime_us; `rtready run --policy deadline` and "
		"`rtready latency --policy deadline` say what is left when admission fails.",
		check_deadline_bandwidth,
	},
};
const size_t sched_checks_n = sizeof(sched_checks) / sizeof(sched_checks[0]);
