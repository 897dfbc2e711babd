// SPDX-License-Identifier: MIT
/*
 * Memory checks and the invoking user's limits. A realtime task must never
 * wait for a page: swap, transparent huge page compaction, KSM merging and
 * NUMA balancing all make the kernel touch or move pages behind the
 * application's back. RLIMIT_RTPRIO and RLIMIT_MEMLOCK decide whether an
 * unprivileged user can use SCHED_FIFO and mlockall() at all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks/check.h"

#define CAP_IPC_LOCK_BIT 14
#define CAP_SYS_NICE_BIT 23

static const char tmpfiles_note[] =
	"(lost at reboot; to keep it, add the line 'w %s - - - - %s' to "
	"/etc/tmpfiles.d/rtready.conf, which systemd-tmpfiles applies at boot)";

/*
 * A knob's file is missing. That means "not built in" only when something
 * says so: the kernel config, or the directory that would hold the file
 * being there without it. A tree that lacks the directory too (an empty
 * --root, a partial snapshot) tells nothing, and the check skips.
 */
static void absent_knob(const struct check_ctx *ctx, struct check_out *out, const char *file,
			const char *option, const char *dir, bool dir_seen, const char *what)
{
	const struct kernel_facts *k = &ctx->facts->kernel;

	if (k->config_err == 0 && !kconfig_enabled(&k->config, option)) {
		check_set(out, RTR_PASS, "no %s and %s is not set: %s is not built in", file,
			  option, what);
		return;
	}
	if (k->config_err == 0) {
		check_set(out, RTR_SKIP, "%s is missing although %s is enabled in the kernel "
			  "config: cannot tell how %s is set", file, option, what);
		return;
	}
	if (dir_seen) {
		check_set(out, RTR_PASS, "%s exists but has no %s: %s is not built in", dir,
			  strrchr(file, '/') + 1, what);
		return;
	}
	check_set(out, RTR_SKIP, "neither %s nor %s could be read, and no kernel config says "
		  "whether %s is built in", file, dir, what);
}

/* ---- mem.swap ---------------------------------------------------------- */

static void check_swap(const struct check_ctx *ctx, struct check_out *out)
{
	const struct memory_facts *m = &ctx->facts->memory;
	char sw[48] = "";

	if (m->swaps_err) {
		check_skip_read(out, "/proc/swaps", m->swaps_err);
		return;
	}
	if (m->swappiness.err == 0)
		snprintf(sw, sizeof(sw), "; vm.swappiness = %lld", (long long)m->swappiness.value);
	if (m->swap_devices == 0) {
		check_set(out, RTR_PASS, "no swap area is active%s", sw);
		return;
	}
	check_set(out, RTR_WARN, "%u swap areas active, %llu MiB, %llu MiB in use%s: pages of "
		  "processes that did not mlockall() can be written out and faulted back in",
		  m->swap_devices, (unsigned long long)(m->swap_total_kb / 1024),
		  (unsigned long long)(m->swap_used_kb / 1024), sw);
}

/* ---- mem.thp ----------------------------------------------------------- */

static void check_thp(const struct check_ctx *ctx, struct check_out *out)
{
	const struct memory_facts *m = &ctx->facts->memory;
	static const char en[] = "/sys/kernel/mm/transparent_hugepage/enabled";
	static const char df[] = "/sys/kernel/mm/transparent_hugepage/defrag";
	char note[256];

	if (m->thp_enabled_err == -ENOENT) {
		absent_knob(ctx, out, en, "CONFIG_TRANSPARENT_HUGEPAGE", "/sys/kernel/mm",
			    m->sys_mm_dir, "transparent huge pages");
		return;
	}
	if (m->thp_enabled_err) {
		check_skip_read(out, en, m->thp_enabled_err);
		return;
	}
	if (strcmp(m->thp_enabled, "always") == 0) {
		check_set(out, RTR_WARN, "enabled = [always], defrag = [%s]: every anonymous "
			  "mapping may get huge pages, so a page fault can clear 2 MiB and "
			  "khugepaged collapses pages in the background",
			  m->thp_defrag_err ? "?" : m->thp_defrag);
		snprintf(note, sizeof(note), tmpfiles_note, en, "madvise");
		check_fix(out, "echo madvise > %s (or never) %s; or boot with "
			  "transparent_hugepage=madvise.", en, note);
		return;
	}
	if (m->thp_defrag_err == 0 && strcmp(m->thp_defrag, "always") == 0 &&
	    strcmp(m->thp_enabled, "never") != 0) {
		check_set(out, RTR_WARN, "enabled = [%s], defrag = [always]: a page fault in a "
			  "huge-page region stalls in direct compaction when no huge page is free",
			  m->thp_enabled);
		snprintf(note, sizeof(note), tmpfiles_note, df, "defer+madvise");
		check_fix(out, "echo defer+madvise > %s (or never) %s.", df, note);
		return;
	}
	check_set(out, RTR_PASS, "enabled = [%s], defrag = [%s]", m->thp_enabled,
		  m->thp_defrag_err ? "?" : m->thp_defrag);
}

/* ---- mem.ksm ----------------------------------------------------------- */

static void check_ksm(const struct check_ctx *ctx, struct check_out *out)
{
	const struct memory_facts *m = &ctx->facts->memory;
	static const char run[] = "/sys/kernel/mm/ksm/run";
	char note[256];

	if (m->ksm_run.err == -ENOENT) {
		absent_knob(ctx, out, run, "CONFIG_KSM", "/sys/kernel/mm", m->sys_mm_dir, "KSM");
		return;
	}
	if (m->ksm_run.err) {
		check_skip_read(out, run, m->ksm_run.err);
		return;
	}
	if (m->ksm_run.value == 0 || m->ksm_run.value == 2) {
		check_set(out, RTR_PASS, "ksm/run = %lld: ksmd is stopped",
			  (long long)m->ksm_run.value);
		return;
	}
	check_set(out, RTR_WARN, "ksm/run = %lld: ksmd scans memory to merge identical pages; "
		  "a write to a merged page takes a copy-on-write fault", (long long)m->ksm_run.value);
	snprintf(note, sizeof(note), tmpfiles_note, run, "2");
	check_fix(out, "echo 2 > %s (stop and unmerge) %s; also disable ksmtuned if installed "
		  "(systemctl disable --now ksmtuned).", run, note);
}

/* ---- mem.numa_balancing ------------------------------------------------ */

static void check_numa_balancing(const struct check_ctx *ctx, struct check_out *out)
{
	const struct knob *nb = &ctx->facts->memory.numa_balancing;

	if (nb->err == -ENOENT) {
		absent_knob(ctx, out, "/proc/sys/kernel/numa_balancing", "CONFIG_NUMA_BALANCING",
			    "/proc/sys/kernel", ctx->facts->memory.sysctl_kernel_dir,
			    "automatic NUMA balancing");
		return;
	}
	if (nb->err) {
		check_skip_read(out, "/proc/sys/kernel/numa_balancing", nb->err);
		return;
	}
	if (nb->value == 0)
		check_set(out, RTR_PASS, "kernel.numa_balancing = 0");
	else
		check_set(out, RTR_WARN, "kernel.numa_balancing = %lld: the kernel periodically "
			  "unmaps task memory to sample accesses, so tasks take NUMA hinting faults "
			  "and their pages migrate", (long long)nb->value);
}

/* ---- limits.* ---------------------------------------------------------- */

static void fmt_limit(uint64_t v, const char *unit, char *buf, size_t len)
{
	if (v == PROC_LIMIT_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)v, unit);
}

#define LIMIT_TEXT 32

/*
 * Limit @l, the row @row of /proc/self/limits, as text in @unit (or
 * "unlimited") into @soft and @hard. Return: false, the check skipped, when
 * the file or the row could not be read.
 */
static bool read_limit(const struct memory_facts *m, const struct proc_limit *l, const char *row,
		       const char *unit, char soft[LIMIT_TEXT], char hard[LIMIT_TEXT],
		       struct check_out *out)
{
	if (m->limits_err) {
		check_skip_read(out, "/proc/self/limits", m->limits_err);
		return false;
	}
	if (!l->found) {
		check_set(out, RTR_SKIP, "no readable '%s' row in /proc/self/limits", row);
		return false;
	}
	fmt_limit(l->soft, unit, soft, LIMIT_TEXT);
	fmt_limit(l->hard, unit, hard, LIMIT_TEXT);
	return true;
}

static bool has_cap(const struct memory_facts *m, int bit)
{
	return m->cap_err == 0 && (m->cap_eff >> bit) & 1;
}

static void check_rtprio(const struct check_ctx *ctx, struct check_out *out)
{
	const struct memory_facts *m = &ctx->facts->memory;
	const struct proc_limit *l = &m->limits.rtprio;
	char soft[LIMIT_TEXT], hard[LIMIT_TEXT];

	if (!read_limit(m, l, "Max realtime priority", "", soft, hard, out))
		return;
	if (l->soft >= 1) {
		check_set(out, RTR_PASS, "RLIMIT_RTPRIO soft %s, hard %s: this user may use "
			  "SCHED_FIFO/RR up to priority %s", soft, hard, soft);
		return;
	}
	if (has_cap(m, CAP_SYS_NICE_BIT)) {
		check_set(out, RTR_INFO, "RLIMIT_RTPRIO soft %s, hard %s, but this process has "
			  "CAP_SYS_NICE (root), which overrides it; the same account without the "
			  "capability could not use realtime policies", soft, hard);
		return;
	}
	if (l->hard >= 1)
		check_set(out, RTR_WARN, "RLIMIT_RTPRIO soft %s, hard %s: realtime policies fail "
			  "with EPERM until the program raises its soft limit (ulimit -r %s)",
			  soft, hard, hard);
	else
		check_set(out, RTR_WARN, "RLIMIT_RTPRIO soft %s, hard %s and no CAP_SYS_NICE: this "
			  "user cannot use SCHED_FIFO or SCHED_RR at all (EPERM)", soft, hard);
}

static void check_memlock(const struct check_ctx *ctx, struct check_out *out)
{
	const struct memory_facts *m = &ctx->facts->memory;
	const struct proc_limit *l = &m->limits.memlock;
	char soft[LIMIT_TEXT], hard[LIMIT_TEXT];

	if (!read_limit(m, l, "Max locked memory", " bytes", soft, hard, out))
		return;
	if (l->soft == PROC_LIMIT_INFINITY) {
		check_set(out, RTR_PASS, "RLIMIT_MEMLOCK soft %s, hard %s", soft, hard);
		return;
	}
	if (has_cap(m, CAP_IPC_LOCK_BIT)) {
		check_set(out, RTR_INFO, "RLIMIT_MEMLOCK soft %s, hard %s, but this process has "
			  "CAP_IPC_LOCK (root), which lifts it; the same account without the "
			  "capability could lock only that much", soft, hard);
		return;
	}
	check_set(out, RTR_WARN, "RLIMIT_MEMLOCK soft %s, hard %s: mlockall(MCL_CURRENT | "
		  "MCL_FUTURE) fails (ENOMEM) or later allocations fail once the process maps more "
		  "than that", soft, hard);
}

const struct check mem_checks[] = {
	{
		"mem.swap", "mem", "Swap",
		"A page that was swapped out costs a disk read to get back: milliseconds. "
		"Realtime applications lock their memory with mlockall(), but everything they "
		"depend on (daemons, the shell, libraries of helpers) can still be swapped, and "
		"the kernel reclaims to make room for swap-backed pages under pressure.",
		"swapoff -a (now; lost at reboot) and remove or comment out the swap lines in "
		"/etc/fstab (and disable zram or swap units: systemctl mask swap.target) so none "
		"comes back at boot. Keep mlockall() in the application either way.",
		check_swap,
	},
	{
		"mem.thp", "mem", "Transparent huge pages",
		"With THP 'always', a page fault may have to find, compact and clear a 2 MiB page, "
		"and khugepaged rewrites page tables of running processes; both show up as "
		"latency spikes of the application or of the CPU it shares.",
		"echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (now; lost at reboot), "
		"and transparent_hugepage=madvise on the kernel command line.",
		check_thp,
	},
	{
		"mem.ksm", "mem", "Kernel samepage merging (KSM)",
		"ksmd scans memory and merges identical pages copy-on-write. It costs CPU time and "
		"lock contention, and the next write to a merged page faults.",
		"echo 2 > /sys/kernel/mm/ksm/run (now; lost at reboot), and the same in a boot "
		"script or tmpfiles.d line.",
		check_ksm,
	},
	{
		"mem.numa_balancing", "mem", "Automatic NUMA balancing",
		"NUMA balancing makes tasks take deliberate page faults to learn where their memory "
		"is used, then migrates pages. Each of these is a stall that a realtime task did "
		"not ask for; place memory explicitly (numactl, mbind) instead.",
		"sysctl -w kernel.numa_balancing=0 (now; lost at reboot) and "
		"'kernel.numa_balancing = 0' in /etc/sysctl.d/90-rtready.conf, or numa_balancing="
		"disable on the kernel command line.",
		check_numa_balancing,
	},
	{
		"limits.rtprio", "limits", "RLIMIT_RTPRIO of the invoking user",
		"An unprivileged process may only set a realtime priority up to its RLIMIT_RTPRIO "
		"(0 by default: none). Without CAP_SYS_NICE or a raised limit, chrt and "
		"pthread_setschedparam fail with EPERM.",
		"Add '@realtime - rtprio 98' to /etc/security/limits.d/90-rtready.conf and put the "
		"user in group realtime (applies at the next login, through pam_limits); for a "
		"systemd service set LimitRTPRIO=98 in its unit.",
		check_rtprio,
	},
	{
		"limits.memlock", "limits", "RLIMIT_MEMLOCK of the invoking user",
		"mlockall() needs the process's whole locked memory to fit in RLIMIT_MEMLOCK "
		"(often 8 MiB or 64 KiB by default) unless it has CAP_IPC_LOCK. A realtime "
		"application that cannot lock its memory takes page faults at the worst times.",
		"Add '@realtime - memlock unlimited' to /etc/security/limits.d/90-rtready.conf and "
		"put the user in group realtime (applies at the next login); for a systemd "
		"service set LimitMEMLOCK=infinity in its unit.",
		check_memlock,
	},
};
const size_t mem_checks_n = sizeof(mem_checks) / sizeof(mem_checks[0]);
