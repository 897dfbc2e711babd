// SPDX-License-Identifier: MIT
/*
 * Kernel checks: how the kernel preempts, where its configuration is, and
 * the build options and boot parameters that cost latency (high-resolution
 * timers, the lockup and hung-task detectors, the tick, debug options,
 * forced IRQ threading). Pure functions of struct kernel_facts (and the task
 * list, for the threads these features start).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks/check.h"

/* "CONFIG_X=y", "CONFIG_X is not set", or "CONFIG_X absent" for evidence. */
static const char *cfg_word(const struct kernel_facts *k, const char *name)
{
	const char *v = kconfig_get(&k->config, name);

	if (!v)
		return "absent";
	return strcmp(v, "n") == 0 ? "not set" : v;
}

static bool cfg_known(const struct kernel_facts *k)
{
	return k->config_err == 0;
}

static bool cfg_on(const struct kernel_facts *k, const char *name)
{
	return kconfig_enabled(&k->config, name);
}

/* Whether the whitespace-separated @list holds the word @w. */
static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

static const char *cmdline_value(const struct kernel_facts *k, const char *name)
{
	const struct cmdline_param *p = k->cmdline_err ? NULL : cmdline_get(&k->cmdline, name);

	return p ? (p->value ? p->value : "") : NULL;
}

static bool cmdline_flag(const struct kernel_facts *k, const char *name)
{
	return cmdline_value(k, name) != NULL;
}

static void cpus_str(const struct rtr_cpuset *s, char *buf, size_t len)
{
	rtr_cpuset_format_list(s, buf, len);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* ---- kernel.preempt ---------------------------------------------------- */

enum preempt_model { PM_UNKNOWN, PM_NONE, PM_VOLUNTARY, PM_FULL, PM_LAZY, PM_RT };

static const char *const model_names[] = { "unknown", "none", "voluntary", "full", "lazy",
					   "PREEMPT_RT" };

static enum preempt_model model_of(const char *s)
{
	for (int m = PM_NONE; m <= PM_LAZY; m++)
		if (strcmp(s, model_names[m]) == 0)
			return (enum preempt_model)m;
	return PM_UNKNOWN;
}

/* The model the config builds in (the boot default of a PREEMPT_DYNAMIC kernel). */
static enum preempt_model config_model(const struct kernel_facts *k)
{
	if (cfg_on(k, "CONFIG_PREEMPT_RT"))
		return PM_RT;
	if (cfg_on(k, "CONFIG_PREEMPT_LAZY"))
		return PM_LAZY;
	if (cfg_on(k, "CONFIG_PREEMPT"))
		return PM_FULL;
	if (cfg_on(k, "CONFIG_PREEMPT_VOLUNTARY"))
		return PM_VOLUNTARY;
	if (cfg_on(k, "CONFIG_PREEMPT_NONE"))
		return PM_NONE;
	return PM_UNKNOWN;
}

static void check_preempt(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	bool ver = k->version_err == 0, dynamic;
	enum preempt_model m = PM_UNKNOWN;
	const char *from = NULL, *boot = cmdline_value(k, "preempt");
	struct strbuf ev = STRBUF_INIT;

	if (k->version_err && !cfg_known(k) && k->realtime.err && k->preempt_err) {
		check_skip_read(out, "/proc/sys/kernel/version", k->version_err);
		return;
	}
	dynamic = (ver && has_word(k->version, "PREEMPT_DYNAMIC")) ||
		  cfg_on(k, "CONFIG_PREEMPT_DYNAMIC") || k->preempt_err == 0;

	if ((k->realtime.err == 0 && k->realtime.value == 1) || cfg_on(k, "CONFIG_PREEMPT_RT") ||
	    (ver && has_word(k->version, "PREEMPT_RT"))) {
		m = PM_RT;
		from = "PREEMPT_RT kernel";
	} else if (dynamic && k->preempt_err == 0) {
		m = model_of(k->preempt_active);
		from = k->preempt_private ? "/sys/kernel/debug/sched/preempt, with debugfs mounted "
					    "by rtready in a private mount namespace (nothing left "
					    "mounted)" : "/sys/kernel/debug/sched/preempt";
	} else if (dynamic && boot && model_of(boot) != PM_UNKNOWN) {
		m = model_of(boot);
		from = "preempt= on the command line";
	} else if (cfg_known(k) && config_model(k) != PM_UNKNOWN) {
		m = config_model(k);
		from = dynamic ? "the configured boot default" : "the kernel configuration";
	} else if (ver && !dynamic) {
		/* uname -v names PREEMPT for full; none and voluntary leave no trace. */
		m = has_word(k->version, "PREEMPT") ? PM_FULL : PM_VOLUNTARY;
		from = has_word(k->version, "PREEMPT") ? "uname -v" :
			"uname -v (no PREEMPT: none or voluntary)";
	}

	if (ver)
		strbuf_printf(&ev, "uname -v: '%s'", k->version);
	if (k->realtime.err == 0)
		strbuf_printf(&ev, "; /sys/kernel/realtime = %lld", (long long)k->realtime.value);
	if (dynamic) {
		if (k->preempt_err == 0)
			strbuf_printf(&ev, "; PREEMPT_DYNAMIC modes: %s", k->preempt_modes);
		else
			strbuf_printf(&ev, "; PREEMPT_DYNAMIC mode not readable "
				      "(/sys/kernel/debug/sched/preempt: %s%s)", strerror(-k->preempt_err),
				      k->preempt_err == -EPERM ? ", kernel lockdown refuses debugfs" :
				      k->preempt_err == -ENOENT ? "; debugfs not mounted, and as root "
				      "rtready mounts it privately" : "");
	}
	if (boot)
		strbuf_printf(&ev, "; preempt=%s on the command line", boot);
	if (cfg_known(k) && config_model(k) != PM_UNKNOWN)
		strbuf_printf(&ev, "; config default: %s", model_names[config_model(k)]);
	if (dynamic && k->preempt_err && m >= PM_NONE && m <= PM_LAZY) {
		/* Show it as debugfs would: the modes, the active one in parentheses. */
		int last = cfg_on(k, "CONFIG_ARCH_HAS_PREEMPT_LAZY") || m == PM_LAZY ? PM_LAZY :
			   PM_FULL;

		strbuf_printf(&ev, "; mode:");
		for (int i = PM_NONE; i <= last; i++)
			strbuf_printf(&ev, i == (int)m ? " (%s)" : " %s", model_names[i]);
	}
	strbuf_printf(&ev, "; model: %s", model_names[m]);
	if (from)
		strbuf_printf(&ev, " (from %s)", from);

	switch (m) {
	case PM_RT:
		check_set(out, RTR_PASS, "%s", strbuf_str(&ev));
		break;
	case PM_FULL:
	case PM_LAZY:
		check_set(out, RTR_WARN, "%s: the kernel preempts, but spinlocks and interrupt "
			  "handlers still run with preemption off for unbounded time",
			  strbuf_str(&ev));
		break;
	case PM_NONE:
	case PM_VOLUNTARY:
		check_set(out, RTR_FAIL, "%s: kernel code runs to its next preemption point, so "
			  "a realtime task can wait for milliseconds", strbuf_str(&ev));
		break;
	case PM_UNKNOWN:
		check_set(out, RTR_SKIP, "%s: cannot tell the preemption model", strbuf_str(&ev));
		break;
	}
	if (m != PM_RT && dynamic)
		check_fix(out, "For hard deadlines install a PREEMPT_RT kernel (mainline since 6.12: "
			  "CONFIG_PREEMPT_RT=y; Debian: the linux-image-rt-* package). Meanwhile this "
			  "PREEMPT_DYNAMIC kernel can run fully preemptible: add 'preempt=full' to the "
			  "kernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, then "
			  "update-grub and reboot); at run time 'echo full > "
			  "/sys/kernel/debug/sched/preempt' (debugfs mounted, as root) switches now "
			  "but does not survive a reboot.");
	strbuf_free(&ev);
}

/* ---- kernel.config ----------------------------------------------------- */

static void check_config(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;

	if (cfg_known(k)) {
		check_set(out, RTR_PASS, "read %s (%zu options)", k->config_path, k->config.n);
		return;
	}
	if (k->release_err) {
		/* Not even the release: a tree without the kernel's files, nothing to judge. */
		check_skip_read(out, "/proc/sys/kernel/osrelease", k->release_err);
		strbuf_printf(&out->evidence, ", so /boot/config-RELEASE cannot be named; %s",
			      k->config_tried[0] ? k->config_tried : "no /proc/config.gz");
		return;
	}
	check_set(out, RTR_WARN, "no kernel configuration found (%s); the checks that need it "
		  "skip", k->config_tried[0] ? k->config_tried :
		  "the kernel release is unknown");
}

/* ---- kernel.high_res_timers -------------------------------------------- */

static void check_hrtimers(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	const char *hr = cmdline_value(k, "highres");

	if (hr && strcmp(hr, "off") == 0) {
		check_set(out, RTR_FAIL, "highres=off on the kernel command line: timers fire "
			  "only on the tick");
		check_fix(out, "Remove 'highres=off' from the kernel command line "
			  "(GRUB_CMDLINE_LINUX in /etc/default/grub, update-grub, reboot).");
		return;
	}
	if (!cfg_known(k)) {
		check_set(out, RTR_SKIP, "no kernel configuration to read CONFIG_HIGH_RES_TIMERS "
			  "from (see kernel.config)");
		return;
	}
	if (cfg_on(k, "CONFIG_HIGH_RES_TIMERS"))
		check_set(out, RTR_PASS, "CONFIG_HIGH_RES_TIMERS=y");
	else
		check_set(out, RTR_FAIL, "CONFIG_HIGH_RES_TIMERS %s: sleeps and timers are "
			  "rounded up to the next tick (CONFIG_HZ=%s)",
			  cfg_word(k, "CONFIG_HIGH_RES_TIMERS"), cfg_word(k, "CONFIG_HZ"));
}

/* ---- kernel.lockup_detector -------------------------------------------- */

static void check_lockup(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	const struct rtr_cpuset *rt = ctx->rt_cpus;
	bool soft_built, hard_built;
	struct strbuf ev = STRBUF_INIT;
	char mask[256], rtl[256];
	enum rtr_status st;

	soft_built = cfg_on(k, "CONFIG_SOFTLOCKUP_DETECTOR");
	hard_built = cfg_on(k, "CONFIG_HARDLOCKUP_DETECTOR");
	if (cfg_known(k) && !soft_built && !hard_built && k->watchdog.err) {
		check_set(out, RTR_PASS, "CONFIG_LOCKUP_DETECTOR %s, CONFIG_SOFTLOCKUP_DETECTOR %s, "
			  "CONFIG_HARDLOCKUP_DETECTOR %s: no lockup detector built in",
			  cfg_word(k, "CONFIG_LOCKUP_DETECTOR"),
			  cfg_word(k, "CONFIG_SOFTLOCKUP_DETECTOR"),
			  cfg_word(k, "CONFIG_HARDLOCKUP_DETECTOR"));
		return;
	}
	if (k->watchdog.err) {
		if (!cfg_known(k))
			check_skip_read(out, "/proc/sys/kernel/watchdog", k->watchdog.err);
		else
			check_set(out, RTR_WARN, "CONFIG_SOFTLOCKUP_DETECTOR %s, "
				  "CONFIG_HARDLOCKUP_DETECTOR %s, but /proc/sys/kernel/watchdog is "
				  "not readable (%s)", cfg_word(k, "CONFIG_SOFTLOCKUP_DETECTOR"),
				  cfg_word(k, "CONFIG_HARDLOCKUP_DETECTOR"), strerror(-k->watchdog.err));
		return;
	}
	if (k->watchdog.value == 0 ||
	    (k->soft_watchdog.err == 0 && k->soft_watchdog.value == 0 &&
	     (k->nmi_watchdog.err || k->nmi_watchdog.value == 0))) {
		check_set(out, RTR_PASS, "kernel.watchdog = %lld, soft_watchdog = %lld, "
			  "nmi_watchdog = %lld: the lockup detectors are off",
			  (long long)k->watchdog.value, (long long)k->soft_watchdog.value,
			  (long long)k->nmi_watchdog.value);
		return;
	}
	strbuf_printf(&ev, "kernel.watchdog = %lld", (long long)k->watchdog.value);
	if (k->soft_watchdog.err == 0)
		strbuf_printf(&ev, ", soft_watchdog = %lld", (long long)k->soft_watchdog.value);
	if (k->nmi_watchdog.err == 0)
		strbuf_printf(&ev, ", nmi_watchdog = %lld", (long long)k->nmi_watchdog.value);
	if (k->watchdog_thresh.err == 0)
		strbuf_printf(&ev, ", watchdog_thresh = %lld s", (long long)k->watchdog_thresh.value);
	cpus_str(rt, rtl, sizeof(rtl));
	if (k->watchdog_cpumask_err == 0) {
		cpus_str(&k->watchdog_cpumask, mask, sizeof(mask));
		strbuf_printf(&ev, ", watchdog_cpumask = %s", mask);
	}
	if (rtr_cpuset_is_empty(rt)) {
		strbuf_printf(&ev, "; no RT CPUs declared, so every CPU in the mask takes the "
			      "detector's periodic work");
		st = RTR_WARN;
	} else if (k->watchdog_cpumask_err) {
		strbuf_printf(&ev, "; watchdog_cpumask unreadable (%s)",
			      strerror(-k->watchdog_cpumask_err));
		st = RTR_WARN;
	} else if (rtr_cpuset_intersects(&k->watchdog_cpumask, rt)) {
		strbuf_printf(&ev, "; the detector runs on RT CPUs %s", rtl);
		st = RTR_WARN;
	} else {
		strbuf_printf(&ev, "; RT CPUs %s are outside the mask", rtl);
		st = RTR_PASS;
	}
	check_set(out, st, "%s", strbuf_str(&ev));
	if (st == RTR_WARN && !rtr_cpuset_is_empty(rt) && k->watchdog_cpumask_err == 0) {
		struct rtr_cpuset keep = RTR_CPUSET_INIT;
		char kl[256];

		if (rtr_cpuset_copy(&keep, &k->watchdog_cpumask) == 0) {
			rtr_cpuset_andnot(&keep, rt);
			cpus_str(&keep, kl, sizeof(kl));
			check_fix(out, "Keep the detector off the RT CPUs: sysctl -w "
				  "kernel.watchdog_cpumask=%s (now; lost at reboot) and "
				  "'kernel.watchdog_cpumask = %s' in /etc/sysctl.d/90-rtready.conf "
				  "(at boot); nohz_full=%s on the kernel command line does the same. "
				  "Or turn it off: sysctl -w kernel.watchdog=0 and "
				  "'kernel.watchdog = 0' in sysctl.d, or 'nowatchdog' on the kernel "
				  "command line.", kl, kl, rtl);
		}
		rtr_cpuset_free(&keep);
	}
	strbuf_free(&ev);
}

/* ---- kernel.hung_task -------------------------------------------------- */

static void check_hung_task(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	const struct knob *t = &k->hung_task_timeout;

	if (t->err == -ENOENT && cfg_known(k) && !cfg_on(k, "CONFIG_DETECT_HUNG_TASK")) {
		check_set(out, RTR_PASS, "CONFIG_DETECT_HUNG_TASK %s: no hung-task detector",
			  cfg_word(k, "CONFIG_DETECT_HUNG_TASK"));
		return;
	}
	if (t->err) {
		if (t->err == -ENOENT && !cfg_known(k))
			check_set(out, RTR_SKIP, "no /proc/sys/kernel/hung_task_timeout_secs and no "
				  "kernel configuration: cannot tell whether the detector is built");
		else
			check_skip_read(out, "/proc/sys/kernel/hung_task_timeout_secs", t->err);
		return;
	}
	if (t->value == 0)
		check_set(out, RTR_PASS, "kernel.hung_task_timeout_secs = 0: khungtaskd sleeps");
	else
		check_set(out, RTR_WARN, "kernel.hung_task_timeout_secs = %lld: khungtaskd wakes "
			  "every %lld s and walks the whole task list", (long long)t->value,
			  (long long)t->value);
}

/* ---- kernel.log -------------------------------------------------------- */

/*
 * What the kernel already logged. Throttling and lockups mean a deadline
 * was missed or a CPU was held: the system has failed, whatever the
 * settings say now. Hung tasks, RCU stalls and an unstable clock source
 * are warnings. The log is since boot (or since the ring wrapped).
 */
static void check_log(const struct check_ctx *ctx, struct check_out *out)
{
	static const enum kmsg_event fails[] = { KMSG_RT_THROTTLING, KMSG_HARD_LOCKUP,
						 KMSG_SOFT_LOCKUP };
	const struct kmsg_facts *k = &ctx->facts->kmsg;
	enum rtr_status st = RTR_PASS;

	if (k->err) {
		check_skip_read(out, "/dev/kmsg", k->err);
		return;
	}
	if (k->records == 0) {
		check_set(out, RTR_SKIP, "the kernel log holds no record to judge");
		return;
	}
	for (int e = 0; e < KMSG_EVENT_COUNT; e++) {
		const struct kmsg_hit *h = &k->hits[e];
		bool fail = false;

		if (!h->count)
			continue;
		for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++)
			fail |= fails[i] == (enum kmsg_event)e;
		if (fail)
			st = RTR_FAIL;
		else if (st == RTR_PASS)
			st = RTR_WARN;
		strbuf_printf(&out->evidence, "%s%s: %u time%s, last at %llu.%06llu s: '%s'",
			      out->evidence.len ? "; " : "", kmsg_event_name((enum kmsg_event)e),
			      h->count, h->count == 1 ? "" : "s",
			      (unsigned long long)(h->last_us / 1000000),
			      (unsigned long long)(h->last_us % 1000000), h->last);
	}
	if (st == RTR_PASS) {
		check_set(out, RTR_PASS, "%zu kernel log records read: no RT throttling, lockup, "
			  "hung task, RCU stall or clock source trouble", k->records);
		return;
	}
	out->status = st;
	strbuf_printf(&out->evidence, " (%zu records read)", k->records);
	if (k->hits[KMSG_RT_THROTTLING].count)
		check_fix(out, "The kernel stopped every RT task for the rest of a throttling "
			  "period: find the RT task that ran too long (rtready inspect, perf sched) "
			  "before turning throttling off (sched.rt_throttling), then reboot or note "
			  "the time so the next check judges only new messages.");
}

/* ---- kernel.nohz ------------------------------------------------------- */

static void check_nohz(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	const struct rtr_cpuset *rt = ctx->rt_cpus;
	const char *nohz = cmdline_value(k, "nohz"), *full = cmdline_value(k, "nohz_full");
	char rtl[256], fl[256];

	cpus_str(rt, rtl, sizeof(rtl));
	if (!cfg_known(k) && k->nohz_full_err) {
		check_set(out, RTR_SKIP, "no kernel configuration and no "
			  "/sys/devices/system/cpu/nohz_full: cannot tell the tick mode");
		return;
	}
	if (nohz && strcmp(nohz, "off") == 0) {
		check_set(out, RTR_INFO, "nohz=off on the command line: the tick runs on every CPU "
			  "all the time; steady and predictable, at the cost of power and of a "
			  "tick interrupt every 1/HZ s on the RT CPUs");
		return;
	}
	if (cfg_known(k) && !cfg_on(k, "CONFIG_NO_HZ_IDLE") && !cfg_on(k, "CONFIG_NO_HZ_FULL")) {
		check_set(out, RTR_INFO, "CONFIG_HZ_PERIODIC: the tick never stops (CONFIG_HZ=%s); "
			  "no idle tick restart on wake-up, but every CPU takes every tick and "
			  "draws more power", cfg_word(k, "CONFIG_HZ"));
		return;
	}
	if (cfg_known(k) && !cfg_on(k, "CONFIG_NO_HZ_FULL")) {
		check_set(out, RTR_INFO, "CONFIG_NO_HZ_IDLE=y, CONFIG_NO_HZ_FULL %s: idle CPUs stop "
			  "the tick (saves power; restarting it adds a little to the wake-up path) "
			  "and busy RT CPUs take a tick every 1/HZ s (CONFIG_HZ=%s)",
			  cfg_word(k, "CONFIG_NO_HZ_FULL"), cfg_word(k, "CONFIG_HZ"));
		return;
	}
	/* NO_HZ_FULL built (or the config is unknown but sysfs answers). */
	if (k->nohz_full_err == 0)
		cpus_str(&k->nohz_full, fl, sizeof(fl));
	else
		snprintf(fl, sizeof(fl), "%s", full ? full : "none");
	if (rtr_cpuset_is_empty(rt)) {
		check_set(out, RTR_INFO, "CONFIG_NO_HZ_FULL=y, nohz_full CPUs: %s; no RT CPUs "
			  "declared to compare with", fl);
		return;
	}
	if (check_cpus_unknown(ctx, out))
		return;
	if (k->nohz_full_err && k->cmdline_err) {
		check_skip_read(out, "/sys/devices/system/cpu/nohz_full", k->nohz_full_err);
		strbuf_puts(&out->evidence, ", and ");
		check_put_read_err(&out->evidence, "/proc/cmdline", k->cmdline_err);
		strbuf_puts(&out->evidence, ": the nohz_full CPUs are unknown");
		return;
	}
	if (k->nohz_full_err == 0 && rtr_cpuset_is_subset(rt, &k->nohz_full)) {
		check_set(out, RTR_PASS, "nohz_full = %s covers the RT CPUs %s: a CPU running one "
			  "task takes no tick (kernel entry and exit cost a little more)", fl, rtl);
		return;
	}
	check_set(out, RTR_WARN, "CONFIG_NO_HZ_FULL=y but nohz_full = %s does not cover the RT "
		  "CPUs %s: they take a tick interrupt every 1/HZ s even when running one task",
		  fl, rtl);
	check_fix(out, "Add 'nohz_full=%s' to the kernel command line (GRUB_CMDLINE_LINUX in "
		  "/etc/default/grub, update-grub, reboot; it cannot change at run time). Weigh "
		  "it: a tickless CPU pays more on every system call and kernel entry, which "
		  "suits one busy RT task per CPU better than many short ones.", rtl);
}

/* ---- kernel.debug ------------------------------------------------------ */

static const struct {
	const char *opt;
	bool heavy;	/* slows the whole kernel, not one path */
} debug_opts[] = {
	{ "CONFIG_KASAN", true },
	{ "CONFIG_KCSAN", true },
	{ "CONFIG_KMSAN", true },
	{ "CONFIG_LOCKDEP", true },
	{ "CONFIG_PROVE_LOCKING", true },
	{ "CONFIG_LOCK_STAT", true },
	{ "CONFIG_DEBUG_LOCK_ALLOC", true },
	{ "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT", true },
	{ "CONFIG_SLUB_DEBUG_ON", true },
	{ "CONFIG_DEBUG_OBJECTS", true },
	{ "CONFIG_DEBUG_KMEMLEAK", true },
	{ "CONFIG_PROVE_RCU", true },
	{ "CONFIG_DEBUG_PAGEALLOC", false },
	{ "CONFIG_DEBUG_PREEMPT", false },
	{ "CONFIG_DEBUG_ATOMIC_SLEEP", false },
	{ "CONFIG_DEBUG_SPINLOCK", false },
	{ "CONFIG_DEBUG_MUTEXES", false },
	{ "CONFIG_DEBUG_RT_MUTEXES", false },
	{ "CONFIG_DEBUG_VM", false },
	{ "CONFIG_PREEMPT_TRACER", false },
	{ "CONFIG_IRQSOFF_TRACER", false },
	{ "CONFIG_UBSAN", false },
};

static void check_debug(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	struct strbuf ev = STRBUF_INIT;
	bool heavy = false;
	size_t n = 0;

	if (!cfg_known(k)) {
		check_set(out, RTR_SKIP, "no kernel configuration to read (see kernel.config)");
		return;
	}
	for (size_t i = 0; i < sizeof(debug_opts) / sizeof(debug_opts[0]); i++) {
		if (!cfg_on(k, debug_opts[i].opt))
			continue;
		strbuf_printf(&ev, "%s%s=%s", n++ ? ", " : "", debug_opts[i].opt,
			      cfg_word(k, debug_opts[i].opt));
		heavy = heavy || debug_opts[i].heavy;
	}
	if (n == 0)
		check_set(out, RTR_PASS, "none of the %zu latency-costly debug options is set",
			  sizeof(debug_opts) / sizeof(debug_opts[0]));
	else if (heavy)
		check_set(out, RTR_FAIL, "%s: a debug kernel; its latencies say nothing about the "
			  "production kernel", strbuf_str(&ev));
	else
		check_set(out, RTR_WARN, "%s: each adds work to hot kernel paths", strbuf_str(&ev));
	strbuf_free(&ev);
}

/* ---- kernel.threadirqs ------------------------------------------------- */

static void check_threadirqs(const struct check_ctx *ctx, struct check_out *out)
{
	const struct kernel_facts *k = &ctx->facts->kernel;
	bool rt = cfg_on(k, "CONFIG_PREEMPT_RT") ||
		  (k->realtime.err == 0 && k->realtime.value == 1) ||
		  (k->version_err == 0 && has_word(k->version, "PREEMPT_RT"));

	if (rt) {
		check_set(out, RTR_PASS, "PREEMPT_RT: every interrupt handler runs in a thread");
		return;
	}
	if (k->cmdline_err) {
		check_skip_read(out, "/proc/cmdline", k->cmdline_err);
		return;
	}
	if (cmdline_flag(k, "threadirqs")) {
		check_set(out, RTR_PASS, "threadirqs on the command line: interrupt handlers run "
			  "in irq/N-name threads whose priority can be set");
		return;
	}
	if (cfg_known(k) && !cfg_on(k, "CONFIG_IRQ_FORCED_THREADING")) {
		check_set(out, RTR_INFO, "CONFIG_IRQ_FORCED_THREADING %s: handlers run in hard "
			  "interrupt context and cannot be prioritised",
			  cfg_word(k, "CONFIG_IRQ_FORCED_THREADING"));
		return;
	}
	check_set(out, RTR_INFO, "no threadirqs on the command line: device interrupt handlers "
		  "run in hard interrupt context, above every RT task");
}

const struct check kernel_checks[] = {
	{
		"kernel.preempt", "kernel", "Kernel preemption model",
		"How far the kernel lets a woken realtime task preempt kernel code decides the "
		"worst-case latency. Without preemption (none, voluntary) kernel code runs until "
		"it reaches a preemption point; full preemption still keeps spinlock sections "
		"and hard interrupt handlers non-preemptible; PREEMPT_RT makes nearly all of "
		"them preemptible and gives bounded latency.",
		"Boot a PREEMPT_RT kernel (CONFIG_PREEMPT_RT=y; Debian: linux-image-rt-amd64 or "
		"linux-image-rt-arm64).",
		check_preempt,
	},
	{
		"kernel.config", "kernel", "Kernel configuration available",
		"Several checks judge build options (preemption, timers, debug options, "
		"detectors). Without the configuration they can only guess or skip.",
		"Build the kernel with CONFIG_IKCONFIG=y and CONFIG_IKCONFIG_PROC=y (then "
		"/proc/config.gz exists; 'modprobe configs' if it is a module), or install the "
		"config as /boot/config-$(uname -r).",
		check_config,
	},
	{
		"kernel.high_res_timers", "kernel", "High-resolution timers",
		"Without high-resolution timers every sleep and timer expires on a tick, so a "
		"periodic task wakes up to 1/HZ late (4 ms at HZ=250).",
		"Build with CONFIG_HIGH_RES_TIMERS=y and do not boot with highres=off.",
		check_hrtimers,
	},
	{
		"kernel.lockup_detector", "kernel", "Lockup detectors (watchdog)",
		"The soft lockup detector runs a check on each CPU in watchdog_cpumask every few "
		"seconds from the CPU stopper, which preempts any realtime task; the hard "
		"lockup detector adds a perf NMI on every CPU. Both exist to catch kernel bugs; "
		"on a realtime CPU their periodic work is latency.",
		"sysctl -w kernel.watchdog=0 (now; lost at reboot) and 'kernel.watchdog = 0' in "
		"/etc/sysctl.d/90-rtready.conf, or 'nowatchdog' on the kernel command line; or "
		"build without CONFIG_LOCKUP_DETECTOR.",
		check_lockup,
	},
	{
		"kernel.hung_task", "kernel", "Hung task detector",
		"khungtaskd wakes up every hung_task_timeout_secs and walks every task in the "
		"system to find ones stuck in uninterruptible sleep. It is a debugging aid; on "
		"a realtime system it is periodic work nobody asked for.",
		"sysctl -w kernel.hung_task_timeout_secs=0 (now; lost at reboot) and "
		"'kernel.hung_task_timeout_secs = 0' in /etc/sysctl.d/90-rtready.conf; or build "
		"without CONFIG_DETECT_HUNG_TASK.",
		check_hung_task,
	},
	{
		"kernel.nohz", "kernel", "Tick mode (NO_HZ)",
		"The scheduler tick interrupts every CPU 100-1000 times a second. NO_HZ_IDLE "
		"stops it on idle CPUs (power saving, a little cost on wake-up); NO_HZ_FULL with "
		"nohz_full= also stops it on CPUs that run a single task, at the cost of more "
		"expensive kernel entries. Neither is right everywhere: it is a latency, "
		"throughput and power trade-off to decide on purpose.",
		"Put nohz_full=<RT CPUs> on the kernel command line of a CONFIG_NO_HZ_FULL "
		"kernel if each RT CPU runs one busy task; boot parameters need a reboot.",
		check_nohz,
	},
	{
		"kernel.debug", "kernel", "Debug options that cost latency",
		"Lock debugging (lockdep), sanitizers (KASAN, KCSAN), page and object debugging "
		"and preemption debugging add checks to the hottest kernel paths. They are "
		"right for finding bugs and wrong for measuring or running realtime work.",
		"Build the production kernel without these options (scripts/config --disable "
		"OPTION, then make olddefconfig).",
		check_debug,
	},
	{
		"kernel.log", "kernel", "Realtime failures in the kernel log",
		"Some failures leave their only trace in the kernel log. \"sched: RT throttling "
		"activated\" means the kernel stopped every realtime task: a deadline was already "
		"missed. Soft and hard lockups mean a CPU was held for seconds; hung tasks and RCU "
		"stalls mean work could not run; an unstable clock source changes timekeeping "
		"under a running system. Settings that look right now do not undo any of it.",
		"Find the cause of each message (the task that spun, the driver that held the "
		"CPU), fix it, and judge again after a reboot or a clean run.",
		check_log,
	},
	{
		"kernel.threadirqs", "kernel", "Threaded interrupt handlers",
		"With forced threading (threadirqs, always on PREEMPT_RT) device interrupt "
		"handlers run as irq/N-name kernel threads; they can be given priorities below "
		"or above the application's tasks instead of always interrupting them.",
		"Add 'threadirqs' to the kernel command line (GRUB_CMDLINE_LINUX in "
		"/etc/default/grub, update-grub, reboot), then set the IRQ threads' priorities "
		"with chrt -f -p PRIO PID from a boot script (a chrt by hand is lost at reboot).",
		check_threadirqs,
	},
};
const size_t kernel_checks_n = sizeof(kernel_checks) / sizeof(kernel_checks[0]);
