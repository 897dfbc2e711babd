// SPDX-License-Identifier: MIT
/* The kernel.* checks as pure functions of hand-made facts: every status path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit.h"

#include "checks-helper.h"

static void preempt(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	/* Nothing readable at all. */
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_SKIP);

	/* PREEMPT_RT, told by /sys/kernel/realtime alone. */
	f->kernel.realtime = (struct knob){ 0, 1 };
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_PASS);
	assert_has(r.evidence, "PREEMPT_RT");
	f->kernel.realtime = (struct knob){ -ENOENT, 0 };

	/* PREEMPT_RT from uname -v. */
	f->kernel.version_err = 0;
	strcpy(f->kernel.version, "#1 SMP PREEMPT_RT Thu Jan  1 00:00:00 UTC 2026");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_PASS);

	/* Plain PREEMPT (full) in uname -v, no config. */
	strcpy(f->kernel.version, "#1 SMP PREEMPT Thu Jan  1 00:00:00 UTC 2026");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_WARN);
	assert_has(r.evidence, "model: full");

	/* No PREEMPT word at all: none or voluntary. */
	strcpy(f->kernel.version, "#1 SMP Thu Jan  1 00:00:00 UTC 2026");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_FAIL);

	/* PREEMPT_DYNAMIC: the debugfs mode wins over the config default. */
	strcpy(f->kernel.version, "#1 SMP PREEMPT_DYNAMIC @0");
	set_config(f, "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_NONE=y\n");
	f->kernel.preempt_err = 0;
	strcpy(f->kernel.preempt_modes, "none voluntary (full) lazy");
	strcpy(f->kernel.preempt_active, "full");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_WARN);
	assert_has(r.evidence, "none voluntary (full) lazy");
	assert_has(r.fix, "preempt=full");
	strcpy(f->kernel.preempt_modes, "(none) voluntary full lazy");
	strcpy(f->kernel.preempt_active, "none");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_FAIL);
	assert_has(r.fix, "does not survive a reboot");

	/* debugfs unreadable: preempt= on the command line, then the config default. */
	f->kernel.preempt_err = -EACCES;
	set_cmdline(f, "ro preempt=full");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_WARN);
	assert_has(r.evidence, "preempt=full on the command line");
	set_cmdline(f, "ro");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_FAIL);
	assert_has(r.evidence, "config default: none");
	assert_has(r.evidence, "mode: (none) voluntary full;");
	set_config(f, "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_FAIL);
	set_config(f, "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_LAZY=y\n");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_WARN);

	/* A dynamic kernel whose mode nothing tells: skip, not a guess. */
	kconfig_free(&f->kernel.config);
	f->kernel.config_err = -ENOENT;
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_SKIP);

	/* Garbage in the debugfs file leaves an unknown mode: skip. */
	f->kernel.preempt_err = 0;
	strcpy(f->kernel.preempt_active, "bogus");
	assert_int_equal(run_check(f, "", "kernel.preempt", &r), RTR_SKIP);
	facts_blank_free(f);
}

static void config(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	strcpy(f->kernel.config_tried, "/proc/config.gz: No such file or directory");
	/* No release either: not a kernel's tree, nothing to warn about. */
	assert_int_equal(run_check(f, "", "kernel.config", &r), RTR_SKIP);
	assert_has(r.evidence, "cannot read /proc/sys/kernel/osrelease");
	f->kernel.release_err = 0;
	strcpy(f->kernel.release, "6.12.0");
	assert_int_equal(run_check(f, "", "kernel.config", &r), RTR_WARN);
	assert_has(r.evidence, "/proc/config.gz: No such file");
	set_config(f, "CONFIG_A=y\nCONFIG_B=y\n");
	assert_int_equal(run_check(f, "", "kernel.config", &r), RTR_PASS);
	assert_has(r.evidence, "2 options");
	facts_blank_free(f);
}

static void hrtimers(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.high_res_timers", &r), RTR_SKIP);
	set_cmdline(f, "highres=off");
	assert_int_equal(run_check(f, "", "kernel.high_res_timers", &r), RTR_FAIL);
	set_cmdline(f, "highres=on");
	set_config(f, "CONFIG_HIGH_RES_TIMERS=y\n");
	assert_int_equal(run_check(f, "", "kernel.high_res_timers", &r), RTR_PASS);
	set_config(f, "# CONFIG_HIGH_RES_TIMERS is not set\nCONFIG_HZ=100\n");
	assert_int_equal(run_check(f, "", "kernel.high_res_timers", &r), RTR_FAIL);
	assert_has(r.evidence, "CONFIG_HZ=100");
	facts_blank_free(f);
}

static void lockup(void **state)
{
	struct facts *f = facts_blank();
	struct kernel_facts *k = &f->kernel;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_SKIP);
	/* Built without detectors. */
	set_config(f, "# CONFIG_LOCKUP_DETECTOR is not set\n");
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_PASS);
	/* Built in, knobs unreadable. */
	set_config(f, "CONFIG_LOCKUP_DETECTOR=y\nCONFIG_SOFTLOCKUP_DETECTOR=y\n");
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_WARN);
	/* Off at run time. */
	k->watchdog = (struct knob){ 0, 0 };
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_PASS);
	k->watchdog = (struct knob){ 0, 1 };
	k->soft_watchdog = (struct knob){ 0, 0 };
	k->nmi_watchdog = (struct knob){ 0, 0 };
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_PASS);
	/* On, no RT CPUs declared. */
	k->soft_watchdog = (struct knob){ 0, 1 };
	k->watchdog_thresh = (struct knob){ 0, 10 };
	k->watchdog_cpumask_err = rtr_cpuset_parse_list(&k->watchdog_cpumask, "0-3");
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_WARN);
	assert_has(r.evidence, "no RT CPUs declared");
	/* RT CPUs inside the mask: a fix naming the mask without them. */
	assert_int_equal(run_check(f, "2-3", "kernel.lockup_detector", &r), RTR_WARN);
	assert_has(r.fix, "kernel.watchdog_cpumask=0-1");
	assert_has(r.fix, "sysctl.d");
	/* RT CPUs outside it. */
	rtr_cpuset_parse_list(&k->watchdog_cpumask, "0-1");
	assert_int_equal(run_check(f, "2-3", "kernel.lockup_detector", &r), RTR_PASS);
	/* Mask unreadable. */
	k->watchdog_cpumask_err = -EACCES;
	assert_int_equal(run_check(f, "2-3", "kernel.lockup_detector", &r), RTR_WARN);
	/* No config, knob unreadable: skip. */
	kconfig_free(&k->config);
	k->config_err = -ENOENT;
	k->watchdog = (struct knob){ -EACCES, 0 };
	assert_int_equal(run_check(f, "", "kernel.lockup_detector", &r), RTR_SKIP);
	assert_has(r.evidence, "Permission denied");
	facts_blank_free(f);
}

static void hung_task(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.hung_task", &r), RTR_SKIP);
	set_config(f, "# CONFIG_DETECT_HUNG_TASK is not set\n");
	assert_int_equal(run_check(f, "", "kernel.hung_task", &r), RTR_PASS);
	f->kernel.hung_task_timeout = (struct knob){ 0, 120 };
	assert_int_equal(run_check(f, "", "kernel.hung_task", &r), RTR_WARN);
	f->kernel.hung_task_timeout = (struct knob){ 0, 0 };
	assert_int_equal(run_check(f, "", "kernel.hung_task", &r), RTR_PASS);
	f->kernel.hung_task_timeout = (struct knob){ -EINVAL, 0 };
	assert_int_equal(run_check(f, "", "kernel.hung_task", &r), RTR_SKIP);
	assert_has(r.evidence, "not in the expected format");
	facts_blank_free(f);
}

static void nohz(void **state)
{
	struct facts *f = facts_blank();
	struct kernel_facts *k = &f->kernel;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.nohz", &r), RTR_SKIP);
	set_config(f, "CONFIG_HZ_PERIODIC=y\nCONFIG_HZ=1000\n");
	assert_int_equal(run_check(f, "2", "kernel.nohz", &r), RTR_INFO);
	assert_has(r.evidence, "never stops");
	set_config(f, "CONFIG_NO_HZ_IDLE=y\n# CONFIG_NO_HZ_FULL is not set\n");
	assert_int_equal(run_check(f, "2", "kernel.nohz", &r), RTR_INFO);
	set_cmdline(f, "nohz=off");
	assert_int_equal(run_check(f, "2", "kernel.nohz", &r), RTR_INFO);
	assert_has(r.evidence, "nohz=off");
	set_cmdline(f, "nohz_full=2-3");
	set_config(f, "CONFIG_NO_HZ_FULL=y\n");
	k->nohz_full_err = rtr_cpuset_parse_list(&k->nohz_full, "2-3");
	assert_int_equal(run_check(f, "", "kernel.nohz", &r), RTR_INFO);
	assert_int_equal(run_check(f, "2-3", "kernel.nohz", &r), RTR_PASS);
	assert_int_equal(run_check(f, "1-3", "kernel.nohz", &r), RTR_WARN);
	assert_has(r.fix, "nohz_full=1-3");
	assert_has(r.fix, "reboot");
	facts_blank_free(f);
}

static void debug(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.debug", &r), RTR_SKIP);
	set_config(f, "# CONFIG_KASAN is not set\nCONFIG_FTRACE=y\n");
	assert_int_equal(run_check(f, "", "kernel.debug", &r), RTR_PASS);
	set_config(f, "CONFIG_DEBUG_PREEMPT=y\n");
	assert_int_equal(run_check(f, "", "kernel.debug", &r), RTR_WARN);
	assert_has(r.evidence, "CONFIG_DEBUG_PREEMPT=y");
	set_config(f, "CONFIG_DEBUG_PREEMPT=y\nCONFIG_PROVE_LOCKING=y\nCONFIG_KASAN=y\n");
	assert_int_equal(run_check(f, "", "kernel.debug", &r), RTR_FAIL);
	assert_has(r.evidence, "CONFIG_KASAN=y");
	facts_blank_free(f);
}

static void threadirqs(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "kernel.threadirqs", &r), RTR_SKIP);
	set_cmdline(f, "ro quiet");
	assert_int_equal(run_check(f, "", "kernel.threadirqs", &r), RTR_INFO);
	set_config(f, "# CONFIG_IRQ_FORCED_THREADING is not set\n");
	assert_int_equal(run_check(f, "", "kernel.threadirqs", &r), RTR_INFO);
	assert_has(r.evidence, "IRQ_FORCED_THREADING");
	set_cmdline(f, "ro threadirqs");
	assert_int_equal(run_check(f, "", "kernel.threadirqs", &r), RTR_PASS);
	set_config(f, "CONFIG_PREEMPT_RT=y\n");
	set_cmdline(f, "ro");
	assert_int_equal(run_check(f, "", "kernel.threadirqs", &r), RTR_PASS);
	facts_blank_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(preempt),
		cmocka_unit_test(config),
		cmocka_unit_test(hrtimers),
		cmocka_unit_test(lockup),
		cmocka_unit_test(hung_task),
		cmocka_unit_test(nohz),
		cmocka_unit_test(debug),
		cmocka_unit_test(threadirqs),
	};

	return unit_run(tests, NULL, NULL);
}
