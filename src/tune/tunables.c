// SPDX-License-Identifier: MIT
/*
 * The table of tunables: one row per runtime fix of the checklist, with the
 * check it fixes, the option that leaves it alone, the files it may write
 * and a pure function from the old value to the new one. Everything else
 * (plan, apply, revert, boot files, --help) is driven by this table.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/irqbalance.h"
#include "tune/tune.h"
#include "util/strbuf.h"

static int put(char *out, size_t len, const char *s)
{
	if (strlen(s) >= len)
		return -ENOSPC;
	strcpy(out, s);
	return 1;
}

/*
 * RT throttling: the scheduler takes the CPU away from every realtime task
 * for (period - runtime) of each period, 50 ms of every second by default.
 * -1 disables it.
 */
static int compute_throttling(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	char *end;
	long long v;

	(void)ctx;
	errno = 0;
	v = strtoll(old, &end, 10);
	if (end == old || *end || errno)
		return -EINVAL;
	return v == -1 ? 0 : put(out, len, "-1");
}

/*
 * The CPUs a mask or list should become: drop the RT CPUs; when nothing is
 * left (it allowed only RT CPUs), all non-RT CPUs. A set that does not touch
 * an RT CPU is left as the user made it. Return: 1 changed, 0 already right.
 */
static int off_rt(const struct tune_ctx *ctx, const struct rtr_cpuset *old, struct rtr_cpuset *nw)
{
	if (!rtr_cpuset_intersects(old, ctx->rt))
		return 0;
	if (rtr_cpuset_copy(nw, old))
		return -ENOMEM;
	rtr_cpuset_andnot(nw, ctx->rt);
	if (rtr_cpuset_is_empty(nw) && rtr_cpuset_copy(nw, ctx->nonrt))
		return -ENOMEM;
	return 1;
}

/* A hex mask (default_smp_affinity, the workqueue cpumask) without the RT CPUs. */
static int compute_mask_off_rt(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	struct rtr_cpuset o = RTR_CPUSET_INIT, n = RTR_CPUSET_INIT;
	int rc = rtr_cpuset_parse_mask(&o, old);

	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	rc = off_rt(ctx, &o, &n);
	if (rc == 1) {
		int err = tunable_format_mask_like(&n, old, out, len);

		rc = err ? err : 1;
	}
	rtr_cpuset_free(&o);
	rtr_cpuset_free(&n);
	return rc;
}

/* A cpu list (an IRQ's smp_affinity_list, watchdog_cpumask) without the RT CPUs. */
static int compute_list_off_rt(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	struct rtr_cpuset o = RTR_CPUSET_INIT, n = RTR_CPUSET_INIT;
	int rc = rtr_cpuset_parse_list(&o, old);

	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	rc = off_rt(ctx, &o, &n);
	if (rc == 1 && rtr_cpuset_format_list(&n, out, len) >= len)
		rc = -ENOSPC;
	rtr_cpuset_free(&o);
	rtr_cpuset_free(&n);
	return rc;
}

/* Frequency changes on an RT CPU stall it; "performance" keeps the top frequency. */
static int compute_governor(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	(void)ctx;
	if (!*old)
		return -EINVAL;
	return strcmp(old, "performance") == 0 ? 0 : put(out, len, "performance");
}

/* cpuidle stateN/disable: 1 keeps the CPU out of that (deep) state. */
static int compute_idle(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	(void)ctx;
	if (strcmp(old, "1") == 0)
		return 0;
	if (strcmp(old, "0") != 0)
		return -EINVAL;
	return put(out, len, "1");
}

/*
 * THP "always" lets khugepaged collapse and the fault path allocate huge
 * pages behind an RT task's back (compaction stalls); madvise limits it to
 * regions that ask. "never" is left alone.
 */
static int compute_thp(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	(void)ctx;
	if (strcmp(old, "always") == 0)
		return put(out, len, "madvise");
	if (strcmp(old, "madvise") == 0 || strcmp(old, "never") == 0)
		return 0;
	return -EINVAL;
}

/* Timer migration moves timers of idle CPUs onto busy ones, RT CPUs included. */
static int compute_timer_migration(const struct tune_ctx *ctx, const char *old, char *out,
				   size_t len)
{
	(void)ctx;
	if (strcmp(old, "0") == 0)
		return 0;
	if (strcmp(old, "1") != 0)
		return -EINVAL;
	return put(out, len, "0");
}

/*
 * A sysctl that is off at 0 (hung_task_timeout_secs, numa_balancing): any
 * other non-negative number becomes 0. NUMA balancing takes 0-3 (modes).
 */
static int compute_zero(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	char *end;
	long long v;

	(void)ctx;
	errno = 0;
	v = strtoll(old, &end, 10);
	if (end == old || *end || errno || v < 0)
		return -EINVAL;
	return v == 0 ? 0 : put(out, len, "0");
}

/*
 * KSM: 0 stopped, 1 running, 2 stop and unmerge every merged page. A running
 * ksmd becomes 2, so no page stays shared copy-on-write; revert writes 1 back
 * and ksmd starts again.
 */
static int compute_ksm(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	(void)ctx;
	if (strcmp(old, "0") == 0 || strcmp(old, "2") == 0)
		return 0;
	if (strcmp(old, "1") != 0)
		return -EINVAL;
	return put(out, len, "2");
}

/* The line ending of @text: CRLF where its lines end so, else LF. */
static const char *eol_of(const char *text)
{
	const char *nl = strchr(text, '\n');

	return nl && nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
}

int tune_irqbalance_compute(const struct rtr_cpuset *rt, const char *old, char **out,
			    char *summary, size_t slen)
{
	static const char key[] = "IRQBALANCE_BANNED_CPULIST";
	struct irqbalance_conf conf;
	struct irqbalance_setting set;
	struct rtr_cpuset banned = RTR_CPUSET_INIT;
	struct strbuf text = STRBUF_INIT;
	size_t len = strlen(old), need;
	char was[256] = "unset", *now = NULL;
	int rc;

	*out = NULL;
	summary[0] = '\0';
	/*
	 * The values as irqbalance reads them, and the span of the line to
	 * rewrite: both from the project's one grammar of this file.
	 */
	rc = irqbalance_conf_parse(old, len, &conf);
	if (rc)
		return rc;
	irqbalance_find(old, len, key, &set);
	if (conf.has_mask) {
		rc = -EEXIST;
	} else if (set.form == IRQBALANCE_UNREADABLE) {
		snprintf(summary, slen, "line %zu names %s in a form rtready does not read: %s",
			 set.line_no, key, set.why);
		rc = -EINVAL;
	} else if (conf.has_cpulist && conf.cpulist_err) {
		snprintf(summary, slen, "line %zu: %s=%.*s is not a CPU list", set.line_no, key,
			 set.text_len > 64 ? 64 : (int)set.text_len, old + set.text_off);
		rc = -EINVAL;
	} else if (conf.has_cpulist) {
		rc = rtr_cpuset_copy(&banned, &conf.cpulist);
		rtr_cpuset_format_list(&conf.cpulist, was, sizeof(was));
	}
	irqbalance_conf_free(&conf);
	if (!rc && rtr_cpuset_is_subset(rt, &banned))
		rc = 1;	/* covered already */
	if (!rc)
		rc = rtr_cpuset_or(&banned, rt);
	if (!rc) {
		need = rtr_cpuset_format_list(&banned, NULL, 0) + 1;
		now = malloc(need);
		if (now)
			rtr_cpuset_format_list(&banned, now, need);
		else
			rc = -ENOMEM;
	}
	rtr_cpuset_free(&banned);
	if (rc) {
		free(now);
		return rc == 1 ? 0 : rc;
	}
	if (set.form == IRQBALANCE_SET) {
		/* Only the value changes: indent, export, quotes, comment and line end stay. */
		strbuf_add(&text, old, set.value_off);
		if (set.quote)
			strbuf_add(&text, &set.quote, 1);
		strbuf_puts(&text, now);
		if (set.quote)
			strbuf_add(&text, &set.quote, 1);
		strbuf_puts(&text, old + set.value_off + set.value_len);
	} else {
		const char *eol = eol_of(old);

		strbuf_puts(&text, old);
		if (len && old[len - 1] != '\n')
			strbuf_puts(&text, eol);
		strbuf_printf(&text, "# rtready tune: no interrupt balancing onto the RT CPUs%s"
			      "%s=%s%s", eol, key, now, eol);
	}
	snprintf(summary, slen, "%s: %.200s -> %.200s%s", key, was, now,
		 strlen(now) > 200 ? "..." : "");
	free(now);
	if (text.err) {
		strbuf_free(&text);
		return -ENOMEM;
	}
	*out = strbuf_take(&text);
	return 1;
}

static int compute_irqbalance(const struct tune_ctx *ctx, const char *old, char *out, size_t len)
{
	char summary[600], *text;
	int rc = tune_irqbalance_compute(ctx->rt, old, &text, summary, sizeof(summary));

	if (rc == 1 && strlen(text) >= len)
		rc = -ENOSPC;
	if (rc == 1)
		strcpy(out, text);
	free(text);
	return rc;
}

/* One row per tunable reads better than one field per line. */
/* clang-format off */
static const struct tunable table[TUNE_COUNT] = {
	[TUNE_RT_THROTTLING] = {
		TUNE_RT_THROTTLING, "rt-throttling", "sched.rt_throttling", "--keep-throttling",
		"/proc/sys/kernel/sched_rt_runtime_us", TUNE_VAL_PLAIN,
		"kernel.sched_rt_runtime_us", compute_throttling,
		"RT throttling off (kernel.sched_rt_runtime_us = -1)",
	},
	[TUNE_IRQ_DEFAULT] = {
		TUNE_IRQ_DEFAULT, "irq-default", "irq.default_affinity", "--no-irqs",
		"/proc/irq/default_smp_affinity", TUNE_VAL_PLAIN, NULL, compute_mask_off_rt,
		"new IRQs start on the non-RT CPUs (/proc/irq/default_smp_affinity)",
	},
	[TUNE_IRQS] = {
		TUNE_IRQS, "irq-affinity", "irq.affinity", "--no-irqs",
		"/proc/irq/#/smp_affinity_list", TUNE_VAL_PLAIN, NULL, compute_list_off_rt,
		"every movable IRQ off the RT CPUs (/proc/irq/N/smp_affinity_list)",
	},
	[TUNE_WORKQUEUE] = {
		TUNE_WORKQUEUE, "workqueue", "cpu.workqueue", "--no-workqueue",
		"/sys/devices/virtual/workqueue/cpumask", TUNE_VAL_PLAIN, NULL,
		compute_mask_off_rt,
		"unbound workqueues off the RT CPUs (/sys/devices/virtual/workqueue/cpumask)",
	},
	[TUNE_TASKS] = {
		TUNE_TASKS, "tasks", "cpu.tasks_on_rt_cpus", "--no-tasks",
		NULL, TUNE_VAL_AFFINITY, NULL, compute_list_off_rt,
		"user tasks and movable kernel threads off the RT CPUs (sched_setaffinity)",
	},
	[TUNE_GOVERNOR] = {
		TUNE_GOVERNOR, "governor", "cpu.governor", "--no-governor",
		"/sys/devices/system/cpu/cpu#/cpufreq/scaling_governor", TUNE_VAL_PLAIN, NULL,
		compute_governor,
		"cpufreq governor 'performance' on the RT CPUs",
	},
	[TUNE_IDLE] = {
		TUNE_IDLE, "idle", "cpu.idle", "--no-idle",
		"/sys/devices/system/cpu/cpu#/cpuidle/state#/disable", TUNE_VAL_PLAIN, NULL,
		compute_idle,
		"idle states with a long exit latency disabled on the RT CPUs",
	},
	[TUNE_THP] = {
		TUNE_THP, "thp", "mem.thp", "--no-thp",
		"/sys/kernel/mm/transparent_hugepage/enabled", TUNE_VAL_SELECTOR, NULL,
		compute_thp,
		"transparent huge pages only where asked (madvise)",
	},
	[TUNE_TIMER_MIGRATION] = {
		TUNE_TIMER_MIGRATION, "timer-migration", "cpu.timer_migration",
		"--no-timer-migration", "/proc/sys/kernel/timer_migration", TUNE_VAL_PLAIN,
		"kernel.timer_migration", compute_timer_migration,
		"timer migration off (kernel.timer_migration = 0)",
	},
	[TUNE_WATCHDOG] = {
		TUNE_WATCHDOG, "watchdog", "kernel.lockup_detector", "--no-watchdog",
		"/proc/sys/kernel/watchdog_cpumask", TUNE_VAL_PLAIN, "kernel.watchdog_cpumask",
		compute_list_off_rt,
		"lockup detectors only on the non-RT CPUs (kernel.watchdog_cpumask)",
	},
	[TUNE_HUNG_TASK] = {
		TUNE_HUNG_TASK, "hung-task", "kernel.hung_task", "--no-hung-task",
		"/proc/sys/kernel/hung_task_timeout_secs", TUNE_VAL_PLAIN,
		"kernel.hung_task_timeout_secs", compute_zero,
		"hung task detector off (kernel.hung_task_timeout_secs = 0)",
	},
	[TUNE_KSM] = {
		TUNE_KSM, "ksm", "mem.ksm", "--no-ksm",
		"/sys/kernel/mm/ksm/run", TUNE_VAL_PLAIN, NULL, compute_ksm,
		"KSM stopped and its pages unmerged (/sys/kernel/mm/ksm/run = 2)",
	},
	[TUNE_NUMA_BALANCING] = {
		TUNE_NUMA_BALANCING, "numa-balancing", "mem.numa_balancing",
		"--no-numa-balancing", "/proc/sys/kernel/numa_balancing", TUNE_VAL_PLAIN,
		"kernel.numa_balancing", compute_zero,
		"automatic NUMA balancing off (kernel.numa_balancing = 0)",
	},
	[TUNE_FAIR_SERVER] = {
		TUNE_FAIR_SERVER, "fair-server", "sched.rt_throttling", "--no-fair-server",
		"/sys/kernel/debug/sched/fair_server/cpu#/runtime", TUNE_VAL_PLAIN, NULL,
		compute_zero,
		"6.12+: the fair deadline server off on the RT CPUs (debugfs "
		"sched/fair_server/cpuN/runtime = 0)",
	},
	[TUNE_IRQBALANCE] = {
		TUNE_IRQBALANCE, "irqbalance", "irq.balance", "--no-irqbalance",
		"/etc/default/irqbalance", TUNE_VAL_FILE, NULL, compute_irqbalance,
		"irqbalance keeps off the RT CPUs (IRQBALANCE_BANNED_CPULIST in its environment "
		"file; it is restarted to read it)",
	},
	/* --isolate: planned by isolate_plan() (tune/isolate.c), never computed from a value. */
	[TUNE_ISO_SUBTREE] = {
		TUNE_ISO_SUBTREE, "isolate-subtree", "cpu.isolation", "--isolate",
		"/sys/fs/cgroup/cgroup.subtree_control", TUNE_VAL_CONTROLLER, NULL, NULL,
		"--isolate: the cpuset controller for the root's children (cgroup.subtree_control)",
	},
	[TUNE_ISO_GROUP] = {
		TUNE_ISO_GROUP, "isolate-group", "cpu.isolation", "--isolate",
		TUNE_ISO_GROUP_PATH, TUNE_VAL_CGROUP, NULL, NULL,
		"--isolate: the cgroup " TUNE_ISO_GROUP_PATH,
	},
	[TUNE_ISO_CPUS] = {
		TUNE_ISO_CPUS, "isolate-cpus", "cpu.isolation", "--isolate",
		TUNE_ISO_GROUP_PATH "/cpuset.cpus", TUNE_VAL_PLAIN, NULL, NULL,
		"--isolate: the RT CPUs in the group's cpuset.cpus",
	},
	[TUNE_ISO_PARTITION] = {
		TUNE_ISO_PARTITION, "isolate-partition", "cpu.isolation", "--isolate",
		TUNE_ISO_GROUP_PATH "/cpuset.cpus.partition", TUNE_VAL_PLAIN, NULL, NULL,
		"--isolate: the group an isolated partition (cpuset.cpus.partition)",
	},
};
/* clang-format on */

const struct tunable *tunable_get(enum tune_id id)
{
	if ((unsigned int)id >= TUNE_COUNT)
		return NULL;
	return &table[id];
}

const struct tunable *tunable_by_name(const char *name)
{
	for (size_t i = 0; i < TUNE_COUNT; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

/* '#' matches one or more digits (at most 9: IRQ, CPU and state numbers fit). */
static bool match(const char *pat, const char *s)
{
	while (*pat) {
		if (*pat == '#') {
			size_t n = 0;

			while (s[n] >= '0' && s[n] <= '9')
				n++;
			if (n == 0 || n > 9)
				return false;
			s += n;
			pat++;
			continue;
		}
		if (*pat++ != *s++)
			return false;
	}
	return *s == '\0';
}

bool tunable_path_allowed(const struct tunable *t, const char *path)
{
	static const char *const prefixes[] = {"/proc/sys/", "/proc/irq/", "/sys/"};
	bool under = false;

	if (!t || !t->pattern || !path)
		return false;
	/* irqbalance's environment file: Debian's, or Red Hat's. */
	if (t->id == TUNE_IRQBALANCE)
		return strcmp(path, "/etc/default/irqbalance") == 0 ||
		       strcmp(path, "/etc/sysconfig/irqbalance") == 0;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		under |= strncmp(path, prefixes[i], strlen(prefixes[i])) == 0;
	return under && match(t->pattern, path);
}

int tunable_path(char *buf, size_t len, const char *pattern, int a, int b)
{
	const int nums[2] = {a, b};
	size_t pos = 0;
	int used = 0;

	for (const char *p = pattern; *p; p++) {
		char tmp[16];
		const char *piece = tmp;

		if (*p == '#') {
			if (used == 2 || nums[used] < 0)
				return -EINVAL;
			snprintf(tmp, sizeof(tmp), "%d", nums[used++]);
		} else {
			tmp[0] = *p;
			tmp[1] = '\0';
		}
		for (; *piece; piece++) {
			if (pos + 1 >= len)
				return -ENAMETOOLONG;
			buf[pos++] = *piece;
		}
	}
	if (used < 2 && nums[used] >= 0)
		return -EINVAL; /* a number given for a '#' that is not there */
	if (len == 0)
		return -ENAMETOOLONG;
	buf[pos] = '\0';
	return 0;
}

int tunable_normalize(enum tune_value_kind kind, const char *content, char *out, size_t len)
{
	size_t n = strlen(content);

	while (n > 0 && (content[n - 1] == '\n' || content[n - 1] == ' ' ||
			 content[n - 1] == '\t' || content[n - 1] == '\r'))
		n--;
	if (kind == TUNE_VAL_SELECTOR) {
		const char *open = memchr(content, '[', n), *close;

		if (!open)
			return -EINVAL;
		close = memchr(open, ']', n - (size_t)(open - content));
		if (!close || close == open + 1)
			return -EINVAL;
		content = open + 1;
		n = (size_t)(close - open - 1);
	}
	if (n >= len)
		return -ENOSPC;
	memmove(out, content, n); /* @out may be @content */
	out[n] = '\0';
	return 0;
}

int tunable_format_mask_like(const struct rtr_cpuset *set, const char *like, char *out, size_t len)
{
	size_t n = strlen(like), digits = 0;
	int c;

	if (n >= len)
		return -ENOSPC;
	/* Digits from the right: the last one holds CPUs 0-3. */
	for (size_t i = n; i-- > 0;) {
		unsigned int v = 0;

		if (like[i] == ',') {
			out[i] = ',';
			continue;
		}
		if (!((like[i] >= '0' && like[i] <= '9') || (like[i] >= 'a' && like[i] <= 'f') ||
		      (like[i] >= 'A' && like[i] <= 'F')))
			return -EINVAL;
		for (int b = 0; b < 4; b++)
			if (rtr_cpuset_test(set, (int)(digits * 4 + (size_t)b)))
				v |= 1u << b;
		out[i] = "0123456789abcdef"[v];
		digits++;
	}
	if (digits == 0)
		return -EINVAL;
	out[n] = '\0';
	/* Every CPU of the set must fit in the width. */
	for (c = rtr_cpuset_next(set, -1); c >= 0; c = rtr_cpuset_next(set, c))
		if ((size_t)c >= digits * 4)
			return -ERANGE;
	return 0;
}

static const char *const state_names[] = {
    [CHANGE_PENDING] = "pending",   [CHANGE_ATTEMPTING] = "attempting",
    [CHANGE_APPLIED] = "applied",   [CHANGE_FAILED] = "failed",
    [CHANGE_REVERTED] = "reverted", [CHANGE_REVERT_FAILED] = "revert-failed",
};

const char *change_state_name(enum change_state s)
{
	if ((unsigned int)s >= sizeof(state_names) / sizeof(state_names[0]))
		return "?";
	return state_names[s];
}

int change_state_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
		if (strcmp(state_names[i], name) == 0)
			return (int)i;
	return -EINVAL;
}
