// SPDX-License-Identifier: MIT
/*
 * Time and platform checks: the clock source every timestamp and timer
 * expiry is read from, whether the machine is virtual (then its latency is
 * bounded by the host, not by anything tuned inside), and whether tuned owns
 * the knobs that realtime tuning sets.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks/check.h"

/* Clock sources by how they serve a realtime system. */
static const struct {
	const char *name;
	enum rtr_status status;
	const char *why;
} clocks[] = {
	{ "tsc", RTR_PASS, "the CPU's time stamp counter, read in user space in nanoseconds" },
	{ "arch_sys_counter", RTR_PASS, "the Arm generic timer, read in user space" },
	{ "kvm-clock", RTR_PASS, "KVM's paravirtual clock: the right choice inside a KVM guest" },
	{ "hyperv_clocksource_tsc_page", RTR_PASS,
	  "Hyper-V's TSC page: the right choice inside a Hyper-V guest" },
	{ "xen", RTR_PASS, "Xen's paravirtual clock: the right choice inside a Xen guest" },
	{ "riscv_clocksource", RTR_PASS, "the RISC-V time CSR" },
	{ "hpet", RTR_FAIL, "the HPET: each read is a slow MMIO access that cannot be done from "
			    "the vDSO, so clock_gettime() becomes a system call" },
	{ "acpi_pm", RTR_FAIL, "the ACPI PM timer: each read is a slow port access, "
			       "clock_gettime() becomes a system call" },
	{ "jiffies", RTR_FAIL, "the tick counter: time advances only once per tick" },
	{ "refined-jiffies", RTR_FAIL, "the tick counter: time advances only once per tick" },
};

static bool listed(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

static void check_clocksource(const struct check_ctx *ctx, struct check_out *out)
{
	const struct platform_facts *p = &ctx->facts->platform;
	const char *avail = p->clocksources_err ? "?" : p->clocksources;

	if (p->clocksource_err) {
		check_skip_read(out, "/sys/devices/system/clocksource/clocksource0/"
			       "current_clocksource", p->clocksource_err);
		return;
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (strcmp(p->clocksource, clocks[i].name) != 0)
			continue;
		check_set(out, clocks[i].status, "current %s (available: %s): %s", p->clocksource,
			  avail, clocks[i].why);
		if (clocks[i].status == RTR_FAIL && listed(avail, "tsc"))
			check_fix(out, "The kernel fell back from the TSC (see 'dmesg | grep -i "
				  "tsc'). If the TSC is trustworthy on this board: echo tsc > "
				  "/sys/devices/system/clocksource/clocksource0/current_clocksource "
				  "(now; lost at reboot) and clocksource=tsc on the kernel command "
				  "line.");
		return;
	}
	check_set(out, RTR_INFO, "current %s (available: %s): not one rtready knows; check it "
		  "is readable from the vDSO and of fine resolution", p->clocksource, avail);
}

/* DMI vendors and products of virtual machines. */
static const char *const vm_dmi[] = {
	"QEMU", "KVM", "VMware", "VirtualBox", "innotek", "Xen", "Bochs", "Parallels",
	"Virtual Machine", "Google Compute Engine", "OpenStack", "BHYVE", "Firecracker",
};

static void check_virtualized(const struct check_ctx *ctx, struct check_out *out)
{
	const struct platform_facts *p = &ctx->facts->platform;
	struct strbuf ev = STRBUF_INIT;
	const char *dmi_hit = NULL;
	bool vm = false;

	if (p->hypervisor_type_err == 0 && p->hypervisor_type[0]) {
		strbuf_printf(&ev, "/sys/hypervisor/type = %s", p->hypervisor_type);
		vm = true;
	}
	if (p->cpuinfo_err == 0 && p->cpu_hypervisor_flag) {
		strbuf_printf(&ev, "%sthe CPU flags include 'hypervisor'", ev.len ? "; " : "");
		vm = true;
	}
	for (size_t i = 0; i < sizeof(vm_dmi) / sizeof(vm_dmi[0]) && !dmi_hit; i++)
		if ((p->sys_vendor_err == 0 && strstr(p->sys_vendor, vm_dmi[i])) ||
		    (p->product_name_err == 0 && strstr(p->product_name, vm_dmi[i])))
			dmi_hit = vm_dmi[i];
	if (p->sys_vendor_err == 0 || p->product_name_err == 0)
		strbuf_printf(&ev, "%sDMI: %s / %s", ev.len ? "; " : "",
			      p->sys_vendor_err ? "?" : p->sys_vendor,
			      p->product_name_err ? "?" : p->product_name);
	if (p->dt_err == 0)
		strbuf_printf(&ev, "%sdevice tree: compatible '%s'%s", ev.len ? "; " : "",
			      p->dt_compatible, p->dt_virtual ? " (a virtual board)" : "");
	vm = vm || dmi_hit || (p->dt_err == 0 && p->dt_virtual);

	if (vm)
		check_set(out, RTR_WARN, "%s: a virtual machine. Its vCPUs are threads of the "
			  "host, so the worst-case latency here is bounded by how the host "
			  "schedules them, not by any tuning inside", strbuf_str(&ev));
	else if (p->hypervisor_type_err && p->cpuinfo_err && p->sys_vendor_err &&
		 p->product_name_err && p->dt_err)
		/* -ENOENT from the cpuinfo parser: read, but no x86 flags line in it. */
		check_set(out, RTR_SKIP, "no sign either way: /proc/cpuinfo %s, and no "
			  "/sys/hypervisor/type, DMI or device tree to read",
			  p->cpuinfo_err == -ENOENT ? "has no x86 flags line"
						    : "cannot be read");
	else
		check_set(out, RTR_PASS, "%s%sno sign of a hypervisor", strbuf_str(&ev),
			  ev.len ? "; " : "");
	strbuf_free(&ev);
}

/* ---- sys.tuned ---------------------------------------------------------- */

/* Every name of @profile (space-separated) is a realtime-purpose profile. */
static bool all_rt(const char *profile)
{
	char name[64];
	size_t n;
	bool any = false;

	for (const char *p = profile; *p; p += n) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (!n)
			break;
		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1),
			 p);
		if (!tuned_profile_is_rt(name))
			return false;
		any = true;
	}
	return any;
}

static void check_tuned(const struct check_ctx *ctx, struct check_out *out)
{
	const struct tuned_facts *t = &ctx->facts->tuned;
	const char *where = ctx->facts->host ? "" : " in the snapshot's task list";
	int pid;

	if (check_tasks_unusable(&ctx->facts->tasks, out))
		return;
	pid = tuned_running_pid(&ctx->facts->tasks);
	if (t->profile_err && t->profile_err != -ENOENT) {
		check_skip_read(out, "/etc/tuned/active_profile", t->profile_err);
		if (pid)
			strbuf_printf(&out->evidence, "; tuned runs (pid %d%s)", pid, where);
		return;
	}
	if (t->profile_err == -ENOENT && pid) {
		/* Without the file the daemon applies the profile it recommends itself. */
		check_set(out, RTR_WARN, "tuned runs (pid %d%s) with no /etc/tuned/active_profile: "
			  "it applies the profile it recommends for this machine (balanced, "
			  "throughput-performance or virtual-guest), which sets CPU governors, "
			  "transparent huge pages and sysctls that rtready tune sets too", pid, where);
		return;
	}
	if (!t->profile[0]) {
		check_set(out, RTR_PASS, "no tuned profile is active (%s)%s",
			  t->profile_err ? "no /etc/tuned/active_profile" :
					   "/etc/tuned/active_profile is empty: tuned-adm off",
			  pid ? "; the daemon runs but changes nothing" : " and no tuned runs");
		return;
	}
	if (!pid) {
		check_set(out, RTR_INFO, "tuned profile '%s' is selected (%s) but no tuned runs%s: "
			  "it applies that profile again whenever tuned starts (at boot, when "
			  "tuned.service is enabled)", t->profile, t->mode[0] ? t->mode : "mode unknown",
			  where);
		check_fix(out, "If rtready tune is to own these knobs: tuned-adm off, and systemctl "
			  "disable tuned so that it does not start at boot.");
		return;
	}
	if (all_rt(t->profile)) {
		check_set(out, RTR_INFO, "tuned runs (pid %d%s) with profile '%s' (%s): made for "
			  "realtime work, but it owns the same knobs as rtready tune (isolated "
			  "cores, IRQ and workqueue affinity, governors, sysctls) and writes them "
			  "again whenever it restarts", pid, where, t->profile,
			  t->mode[0] ? t->mode : "mode unknown");
		check_fix(out, "Keep one owner. Either let tuned own them (isolated_cores= in "
			  "/etc/tuned/%s-variables.conf set to the RT CPUs, then tuned-adm profile "
			  "again) and use rtready tune only to look (no --apply), or tuned-adm off "
			  "before rtready tune --apply.",
			  strncmp(t->profile, "cpu-partitioning", 16) == 0 ? "cpu-partitioning" :
									     "realtime");
		return;
	}
	check_set(out, RTR_WARN, "tuned runs (pid %d%s) with profile '%s' (%s): a profile not "
		  "made for realtime work sets CPU governors, energy/performance bias, "
		  "transparent huge pages and sysctls (vm.swappiness, scheduler tunables) that "
		  "rtready tune sets differently, and tuned writes its values again whenever it "
		  "restarts or reapplies", pid, where, t->profile,
		  t->mode[0] ? t->mode : "mode unknown");
}

const struct check platform_checks[] = {
	{
		"clock.source", "clock", "Clock source",
		"Every clock_gettime(), every timer expiry and every latency measurement reads "
		"the clock source. A slow one (HPET, ACPI PM timer) turns each read into a "
		"system call plus a device access of a microsecond or more; a coarse one rounds "
		"everything to the tick.",
		"Use the TSC on x86 (clocksource=tsc on the kernel command line when the kernel "
		"distrusts it wrongly), the architected timer on Arm, the paravirtual clock in a VM.",
		check_clocksource,
	},
	{
		"sys.virtualized", "sys", "Virtual machine",
		"Inside a virtual machine the host decides when a vCPU runs. A guest can be tuned "
		"perfectly and still see milliseconds of latency when the host preempts its vCPU, "
		"so its results describe the host as much as the guest.",
		"For realtime work run on bare metal, or give the VM dedicated, isolated host "
		"CPUs with its vCPU threads pinned at realtime priority on a PREEMPT_RT host, and "
		"measure latency in the guest under load on the host.",
		check_virtualized,
	},
	{
		"sys.tuned", "sys", "tuned profile",
		"tuned applies a profile of runtime settings (CPU governors, transparent huge "
		"pages, sysctls, IRQ and task affinity) and applies it again when it restarts. "
		"A general-purpose profile undoes realtime tuning; even a realtime profile "
		"rewrites the knobs rtready tune sets, so the last writer wins.",
		"Give the knobs one owner: tuned-adm off and systemctl disable --now tuned before "
		"rtready tune --apply, or use tuned's realtime (or cpu-partitioning) profile with "
		"isolated_cores= set to the RT CPUs and do not apply rtready tune on top.",
		check_tuned,
	},
};
const size_t platform_checks_n = sizeof(platform_checks) / sizeof(platform_checks[0]);
