// SPDX-License-Identifier: MIT
/*
 * The mem.*, limits.*, clock.source and sys.virtualized checks as pure
 * functions of hand-made facts: every status path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "unit.h"

#include "checks-helper.h"
#include "probe/platform.h"

static void swap(void **state)
{
	struct facts *f = facts_blank();
	struct memory_facts *m = &f->memory;
	struct result r;

	(void)state;
	m->swaps_err = -EFBIG;
	assert_int_equal(run_check(f, "", "mem.swap", &r), RTR_SKIP);
	assert_has(r.evidence, "/proc/swaps");
	m->swaps_err = 0;
	assert_int_equal(run_check(f, "", "mem.swap", &r), RTR_PASS);
	m->swap_devices = 1;
	m->swap_total_kb = 2048 * 1024;
	m->swap_used_kb = 1024;
	m->swappiness = (struct knob){ 0, 60 };
	assert_int_equal(run_check(f, "", "mem.swap", &r), RTR_WARN);
	assert_has(r.evidence, "2048 MiB");
	assert_has(r.evidence, "vm.swappiness = 60");
	facts_blank_free(f);
}

static void thp(void **state)
{
	struct facts *f = facts_blank();
	struct memory_facts *m = &f->memory;
	struct result r;

	(void)state;
	/* Absent file, nothing else known (an empty --root): never a pass. */
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_SKIP);
	assert_has(r.evidence, "/sys/kernel/mm");
	m->sys_mm_dir = true;	/* the directory is there without it: not built in */
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_PASS);
	assert_has(r.evidence, "not built in");
	m->sys_mm_dir = false;
	set_config(f, "CONFIG_TRANSPARENT_HUGEPAGE=y\n");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_SKIP);
	set_config(f, "# CONFIG_TRANSPARENT_HUGEPAGE is not set\nCONFIG_HZ=250\n");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_PASS);
	assert_has(r.evidence, "CONFIG_TRANSPARENT_HUGEPAGE is not set");
	m->thp_enabled_err = -EINVAL;
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_SKIP);
	m->thp_enabled_err = 0;
	strcpy(m->thp_enabled, "always");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_WARN);
	assert_has(r.fix, "tmpfiles.d");
	assert_has(r.fix, "transparent_hugepage=madvise");
	strcpy(m->thp_enabled, "madvise");
	m->thp_defrag_err = 0;
	strcpy(m->thp_defrag, "always");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_WARN);
	assert_has(r.fix, "defrag");
	strcpy(m->thp_defrag, "madvise");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_PASS);
	strcpy(m->thp_enabled, "never");
	strcpy(m->thp_defrag, "always");
	assert_int_equal(run_check(f, "", "mem.thp", &r), RTR_PASS);
	facts_blank_free(f);
}

static void ksm(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "mem.ksm", &r), RTR_SKIP);
	f->memory.sys_mm_dir = true;
	assert_int_equal(run_check(f, "", "mem.ksm", &r), RTR_PASS);
	assert_has(r.evidence, "KSM is not built in");
	f->memory.ksm_run = (struct knob){ -EINVAL, 0 };
	assert_int_equal(run_check(f, "", "mem.ksm", &r), RTR_SKIP);
	f->memory.ksm_run = (struct knob){ 0, 1 };
	assert_int_equal(run_check(f, "", "mem.ksm", &r), RTR_WARN);
	assert_has(r.fix, "echo 2 > /sys/kernel/mm/ksm/run");
	f->memory.ksm_run = (struct knob){ 0, 0 };
	assert_int_equal(run_check(f, "", "mem.ksm", &r), RTR_PASS);
	facts_blank_free(f);
}

static void numa(void **state)
{
	struct facts *f = facts_blank();
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_SKIP);
	f->memory.sysctl_kernel_dir = true;
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_PASS);
	f->memory.sysctl_kernel_dir = false;
	set_config(f, "CONFIG_NUMA_BALANCING=y\n");
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_SKIP);
	assert_has(r.evidence, "enabled in the kernel config");
	f->memory.numa_balancing = (struct knob){ -EACCES, 0 };
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_SKIP);
	f->memory.numa_balancing = (struct knob){ 0, 1 };
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_WARN);
	f->memory.numa_balancing = (struct knob){ 0, 0 };
	assert_int_equal(run_check(f, "", "mem.numa_balancing", &r), RTR_PASS);
	facts_blank_free(f);
}

static void rtprio(void **state)
{
	struct facts *f = facts_blank();
	struct memory_facts *m = &f->memory;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_SKIP);
	m->limits_err = 0;
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_SKIP);	/* no row */
	assert_string_equal(r.evidence,
			    "no readable 'Max realtime priority' row in /proc/self/limits");
	m->limits.rtprio = (struct proc_limit){ true, 0, 0 };
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_WARN);
	assert_has(r.evidence, "EPERM");
	assert_has(r.evidence, "RLIMIT_RTPRIO soft 0, hard 0 and no CAP_SYS_NICE");
	m->limits.rtprio.hard = 95;
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_WARN);
	assert_has(r.evidence, "ulimit -r 95");
	m->cap_err = 0;
	m->cap_eff = 1ull << 23;	/* CAP_SYS_NICE */
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_INFO);
	m->limits.rtprio.soft = 95;
	assert_int_equal(run_check(f, "", "limits.rtprio", &r), RTR_PASS);
	facts_blank_free(f);
}

static void memlock(void **state)
{
	struct facts *f = facts_blank();
	struct memory_facts *m = &f->memory;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "limits.memlock", &r), RTR_SKIP);
	m->limits_err = 0;
	assert_int_equal(run_check(f, "", "limits.memlock", &r), RTR_SKIP);
	assert_string_equal(r.evidence, "no readable 'Max locked memory' row in /proc/self/limits");
	m->limits.memlock = (struct proc_limit){ true, 65536, 65536 };
	assert_int_equal(run_check(f, "", "limits.memlock", &r), RTR_WARN);
	assert_has(r.evidence, "RLIMIT_MEMLOCK soft 65536 bytes, hard 65536 bytes: ");
	m->cap_err = 0;
	m->cap_eff = 1ull << 14;	/* CAP_IPC_LOCK */
	assert_int_equal(run_check(f, "", "limits.memlock", &r), RTR_INFO);
	m->limits.memlock.soft = m->limits.memlock.hard = PROC_LIMIT_INFINITY;
	assert_int_equal(run_check(f, "", "limits.memlock", &r), RTR_PASS);
	assert_has(r.evidence, "unlimited");
	facts_blank_free(f);
}

static void clocksource(void **state)
{
	struct facts *f = facts_blank();
	struct platform_facts *p = &f->platform;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_SKIP);
	p->clocksource_err = 0;
	strcpy(p->clocksource, "tsc");
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_PASS);
	assert_has(r.evidence, "available: ?");
	strcpy(p->clocksource, "kvm-clock");
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_PASS);
	strcpy(p->clocksource, "hpet");
	p->clocksources_err = 0;
	strcpy(p->clocksources, "tsc hpet acpi_pm");
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_FAIL);
	assert_has(r.fix, "clocksource=tsc");
	strcpy(p->clocksources, "hpet acpi_pm");
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_FAIL);
	assert_string_equal(r.fix, "");
	strcpy(p->clocksource, "timer-imx-gpt");
	assert_int_equal(run_check(f, "", "clock.source", &r), RTR_INFO);
	facts_blank_free(f);
}

static void virtualized(void **state)
{
	struct facts *f = facts_blank();
	struct platform_facts *p = &f->platform;
	struct result r;

	(void)state;
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_SKIP);
	p->cpuinfo_err = 0;
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_PASS);
	p->sys_vendor_err = 0;
	strcpy(p->sys_vendor, "Dell Inc.");
	p->product_name_err = 0;
	strcpy(p->product_name, "PowerEdge R750");
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_PASS);
	assert_has(r.evidence, "Dell Inc. / PowerEdge R750");
	strcpy(p->sys_vendor, "QEMU");
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_WARN);
	strcpy(p->sys_vendor, "Dell Inc.");
	p->cpu_hypervisor_flag = true;
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_WARN);
	assert_has(r.evidence, "'hypervisor'");
	p->cpu_hypervisor_flag = false;
	p->hypervisor_type_err = 0;
	strcpy(p->hypervisor_type, "xen");
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_WARN);
	assert_has(r.evidence, "xen");
	facts_blank_free(f);
}

/* Arm and RISC-V: no x86 flags line, no DMI on a direct kernel boot; the device tree tells. */
static void virtualized_dt(void **state)
{
	static const char virt[] = "linux,dummy-virt\0";
	static const char board[] = "raspberrypi,4-model-b\0brcm,bcm2711\0";
	struct facts *f = facts_blank();
	struct platform_facts *p = &f->platform;
	struct result r;
	bool v;

	(void)state;
	p->cpuinfo_err = -ENOENT;	/* read, but no flags line */
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_SKIP);
	assert_has(r.evidence, "no x86 flags line");
	assert_int_equal(platform_parse_compatible(virt, sizeof(virt) - 1, p->dt_compatible,
						   sizeof(p->dt_compatible), &v), 0);
	assert_true(v);
	p->dt_err = 0;
	p->dt_virtual = v;
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_WARN);
	assert_has(r.evidence, "linux,dummy-virt");
	assert_int_equal(platform_parse_compatible(board, sizeof(board) - 1, p->dt_compatible,
						   sizeof(p->dt_compatible), &v), 0);
	assert_false(v);
	p->dt_virtual = v;
	assert_int_equal(run_check(f, "", "sys.virtualized", &r), RTR_PASS);
	assert_has(r.evidence, "raspberrypi,4-model-b");
	/* Hostile: empty, no NUL, an entry longer than what is kept. */
	assert_int_equal(platform_parse_compatible("", 0, p->dt_compatible,
						   sizeof(p->dt_compatible), &v), -EINVAL);
	assert_int_equal(platform_parse_compatible("qemu,x", 6, p->dt_compatible,
						   sizeof(p->dt_compatible), &v), 0);
	assert_true(v);
	facts_blank_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(swap),
		cmocka_unit_test(thp),
		cmocka_unit_test(ksm),
		cmocka_unit_test(numa),
		cmocka_unit_test(rtprio),
		cmocka_unit_test(memlock),
		cmocka_unit_test(clocksource),
		cmocka_unit_test(virtualized),
		cmocka_unit_test(virtualized_dt),
	};

	return unit_run(tests, NULL, NULL);
}
