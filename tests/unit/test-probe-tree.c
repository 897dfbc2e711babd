// SPDX-License-Identifier: MIT
/*
 * The kernel, sched, tasks, memory and platform probes on a hand-built
 * root tree (as `--root` sees a snapshot): values land in the facts, a
 * gzip'ed config is found and parsed, tasks are walked (single- and
 * multi-threaded, vanished, garbage), cgroups are walked, and garbage in
 * any file becomes an error in the facts, never a crash.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"
#include <zlib.h>

#include "probe/facts.h"

static char dir[] = "/tmp/rtr-probe-tree-XXXXXX";

/* Write @len bytes at @rel under the tree, creating parent directories. */
static void put_bytes(const char *rel, const void *data, size_t len)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put(const char *rel, const char *text)
{
	put_bytes(rel, text, strlen(text));
}

static void put_gz(const char *rel, const char *text)
{
	unsigned char out[4096];
	z_stream zs = { 0 };

	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = out;
	zs.avail_out = sizeof(out);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	deflateEnd(&zs);
	put_bytes(rel, out, sizeof(out) - zs.avail_out);
}

/* A stat line for pid/tid with @threads threads, @policy and @prio. */
static void put_task(int pid, int tid, const char *comm, int threads, int policy, int prio,
		     unsigned flags, const char *cpus)
{
	char rel[128], line[512], st[256];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	snprintf(line, sizeof(line),
		 "%d (%s) S 1 %d %d 0 -1 %u 10 0 2 0 5 6 0 0 20 0 %d 0 100 0 0 0 0 0 0 0 0 0 0 0 "
		 "0 0 0 0 17 1 %d %d 0 0 0\n", tid, comm, pid, pid, flags, threads, prio, policy);
	put(rel, line);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, tid);
	snprintf(st, sizeof(st), "Name:\t%s\nCpus_allowed_list:\t%s\nvoluntary_ctxt_switches:\t3\n"
		 "nonvoluntary_ctxt_switches:\t4\n", comm, cpus);
	put(rel, st);
}

static int rm(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	put("proc/sys/kernel/osrelease", "6.12.8-rt5\n");
	put("proc/sys/kernel/version", "#1 SMP PREEMPT_RT Mon Jan  1 00:00:00 UTC 2026\n");
	put("sys/kernel/realtime", "1\n");
	put("sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	put_gz("proc/config.gz", "CONFIG_PREEMPT_RT=y\n# CONFIG_KASAN is not set\n"
				 "CONFIG_NO_HZ_FULL=y\n");
	put("proc/cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=2-3 nohz_full=2-3 threadirqs\n");
	put("proc/sys/kernel/watchdog", "1\n");
	put("proc/sys/kernel/nmi_watchdog", "0\n");
	put("proc/sys/kernel/soft_watchdog", "1\n");
	put("proc/sys/kernel/watchdog_thresh", "garbage\n");
	put("proc/sys/kernel/watchdog_cpumask", "0-1\n");
	put("proc/sys/kernel/hung_task_timeout_secs", "120\n");
	put("sys/devices/system/cpu/nohz_full", "2-3\n");

	put("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put("proc/sys/kernel/sched_rt_period_us", "1000000\n");
	put("sys/kernel/debug/sched/fair_server/cpu0/runtime", "50000000\n");
	put("sys/kernel/debug/sched/fair_server/cpu0/period", "1000000000\n");
	put("sys/kernel/debug/sched/fair_server/cpu1/runtime", "0\n");
	put("sys/kernel/debug/sched/fair_server/cpux/runtime", "7\n");
	put("proc/self/mounts", "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n");
	put("proc/self/cgroup", "3:memory:/\n2:cpu:/system.slice/app.service\n0::/\n");
	put("sys/fs/cgroup/cpu/cpu.rt_runtime_us", "950000\n");
	put("sys/fs/cgroup/cpu/system.slice/cpu.rt_runtime_us", "0\n");
	put("sys/fs/cgroup/cpu/system.slice/cgroup.procs", "");
	put("sys/fs/cgroup/cpu/system.slice/app.service/cpu.rt_runtime_us", "0\n");
	put("sys/fs/cgroup/cpu/system.slice/app.service/cgroup.procs", "812\n");
	put("sys/fs/cgroup/cpu/user.slice/cpu.rt_runtime_us", "junk\n");

	put_task(1, 1, "init", 1, 0, 0, 0x400100, "0-3");
	put_task(15, 15, "migration/0", 1, 1, 99, 0x04208040, "0");
	put_task(700, 700, "rt app", 2, 1, 80, 0x400040, "2-3");
	put_task(700, 702, "a) (b", 2, 2, 99, 0x400040, "3");
	put("proc/800/task/800/stat", "800 (broken) S 1 garbage\n");
	put("proc/900/task/901/stat", "");	/* no main thread: the process is gone */
	put("proc/self/limits", "Limit Soft Limit Hard Limit Units\n"
				"Max locked memory         65536     65536     bytes\n"
				"Max realtime priority     0         0\n");
	put("proc/self/status", "Name:\trtready\nCapEff:\t0000000000800000\n");

	put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n/dev/vda2 partition 1024 0 -2\n");
	put("proc/sys/vm/swappiness", "60\n");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("sys/kernel/mm/transparent_hugepage/defrag", "always defer [madvise] never\n");
	put("sys/kernel/mm/ksm/run", "\0\0\0");
	put("proc/sys/kernel/numa_balancing", "1\n");

	put("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put("sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet\n");
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisor\n");
	put("sys/class/dmi/id/sys_vendor", "QEMU\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void gather(struct facts *f)
{
	struct rootfs fs;

	assert_int_equal(rootfs_open(&fs, dir), 0);
	assert_int_equal(facts_gather(&fs, f), 0);
	rootfs_close(&fs);
}

static void kernel(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct kernel_facts *k = &f->kernel;

	(void)state;
	gather(f);
	assert_int_equal(k->release_err, 0);
	assert_string_equal(k->release, "6.12.8-rt5");
	assert_int_equal(k->major, 6);
	assert_int_equal(k->minor, 12);
	assert_int_equal(k->realtime.value, 1);
	assert_int_equal(k->preempt_err, 0);
	assert_string_equal(k->preempt_active, "full");
	assert_int_equal(k->config_err, 0);
	assert_string_equal(k->config_path, "/proc/config.gz");
	assert_int_equal(kconfig_tristate(&k->config, "CONFIG_PREEMPT_RT"), KCONFIG_YES);
	assert_int_equal(k->cmdline_err, 0);
	assert_string_equal(cmdline_get(&k->cmdline, "nohz_full")->value, "2-3");
	assert_int_equal(k->watchdog.value, 1);
	assert_int_equal(k->watchdog_thresh.err, -EINVAL);
	assert_int_equal(k->watchdog_cpumask_err, 0);
	assert_true(rtr_cpuset_test(&k->watchdog_cpumask, 1));
	assert_int_equal(k->hung_task_timeout.value, 120);
	assert_int_equal(k->nohz_full_err, 0);
	assert_int_equal(rtr_cpuset_count(&k->nohz_full), 2);
	facts_free(f);
	free(f);
}

static void config_fallback(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	char p[512];

	(void)state;
	/* No config.gz: /boot/config-RELEASE is next; a corrupt gz is reported as tried. */
	put("proc/config.gz", "not gzip at all");
	put("boot/config-6.12.8-rt5", "CONFIG_HZ=1000\n");
	gather(f);
	assert_int_equal(f->kernel.config_err, 0);
	assert_string_equal(f->kernel.config_path, "/boot/config-6.12.8-rt5");
	assert_string_equal(kconfig_get(&f->kernel.config, "CONFIG_HZ"), "1000");
	assert_non_null(strstr(f->kernel.config_tried, "/proc/config.gz: Invalid argument"));
	facts_free(f);
	/* Nothing anywhere: the error and every place tried. */
	snprintf(p, sizeof(p), "%s/boot/config-6.12.8-rt5", dir);
	unlink(p);
	gather(f);
	assert_int_equal(f->kernel.config_err, -ENOENT);
	assert_non_null(strstr(f->kernel.config_tried, "/lib/modules/6.12.8-rt5/build/.config"));
	facts_free(f);
	free(f);
}

static void sched(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct sched_facts *s = &f->sched;

	(void)state;
	gather(f);
	assert_int_equal(s->rt_runtime_us, -1);
	assert_int_equal(s->fair_server_err, 0);
	assert_int_equal(s->fair_server_cpus, 2);
	assert_int_equal(s->fair_runtime_min_ns, 0);
	assert_int_equal(s->fair_runtime_max_ns, 50000000);
	assert_int_equal(s->rtg.err, 0);
	assert_int_equal(s->rtg.hier, RTGROUP_V1);
	assert_string_equal(s->rtg.mount, "/sys/fs/cgroup/cpu");
	assert_int_equal(s->rtg.groups, 3);
	assert_int_equal(s->rtg.zero, 2);
	assert_int_equal(s->rtg.zero_busy, 1);
	assert_string_equal(s->rtg.zero_example, "/sys/fs/cgroup/cpu/system.slice/app.service");
	/* This process (as the tree says) is in the busy group without a budget. */
	assert_int_equal(s->rtg.self, RTGROUP_SELF_ZERO);
	assert_string_equal(s->rtg.self_cgroup, "/system.slice/app.service");
	assert_string_equal(s->rtg.self_group, "/sys/fs/cgroup/cpu/system.slice/app.service");
	facts_free(f);
	free(f);
}

static void tasks(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct tasks_facts *t = &f->tasks;

	(void)state;
	gather(f);
	assert_int_equal(t->err, 0);
	assert_int_equal(t->n, 4);
	assert_int_equal(t->tasks[0].pid, 1);
	assert_false(t->tasks[0].kthread);
	assert_int_equal(t->tasks[1].pid, 15);
	assert_true(t->tasks[1].kthread);
	assert_true(t->tasks[1].per_cpu);
	assert_int_equal(t->tasks[1].rt_priority, 99);
	assert_string_equal(t->tasks[2].comm, "rt app");
	assert_int_equal(t->tasks[3].tid, 702);
	assert_string_equal(t->tasks[3].comm, "a) (b");
	assert_int_equal(t->tasks[3].policy, 2);
	assert_int_equal(t->tasks[3].allowed_err, 0);
	assert_true(rtr_cpuset_test(&t->tasks[3].allowed, 3));
	assert_int_equal(t->unreadable, 1);	/* 800's garbage */
	assert_string_equal(t->first_unreadable, "/proc/800/task/800/stat");
	assert_int_equal(t->vanished, 1);	/* 900: its main thread is gone */
	facts_free(f);
	free(f);
}

static void memory_platform(void **state)
{
	struct facts *f = calloc(1, sizeof(*f));
	struct memory_facts *m = &f->memory;
	struct platform_facts *p = &f->platform;

	(void)state;
	gather(f);
	assert_int_equal(m->swaps_err, 0);
	assert_int_equal(m->swap_devices, 1);
	assert_int_equal(m->swappiness.value, 60);
	assert_string_equal(m->thp_enabled, "always");
	assert_string_equal(m->thp_defrag, "madvise");
	assert_int_equal(m->ksm_run.err, -EINVAL);	/* NUL bytes */
	assert_int_equal(m->numa_balancing.value, 1);
	assert_int_equal(m->limits_err, 0);
	assert_int_equal(m->limits.memlock.soft, 65536);
	assert_true(m->limits.rtprio.found);
	assert_int_equal(m->cap_err, 0);
	assert_int_equal(m->cap_eff, 1u << 23);
	assert_string_equal(p->clocksource, "tsc");
	assert_string_equal(p->clocksources, "tsc hpet");
	assert_true(p->cpu_hypervisor_flag);
	assert_string_equal(p->sys_vendor, "QEMU");
	assert_int_equal(p->product_name_err, -ENOENT);
	assert_int_equal(p->hypervisor_type_err, -ENOENT);
	facts_free(f);
	free(f);
}

/* An empty root: every probe reports its errors and nothing crashes. */
static void empty_root(void **state)
{
	char empty[] = "/tmp/rtr-probe-empty-XXXXXX";
	struct facts *f = calloc(1, sizeof(*f));
	struct rootfs fs;

	(void)state;
	assert_non_null(mkdtemp(empty));
	assert_int_equal(rootfs_open(&fs, empty), 0);
	assert_int_equal(facts_gather(&fs, f), 0);
	rootfs_close(&fs);
	assert_int_equal(f->kernel.release_err, -ENOENT);
	assert_int_equal(f->kernel.config_err, -ENOENT);
	assert_int_equal(f->kernel.cmdline_err, -ENOENT);
	assert_int_equal(f->sched.rtg.err, -ENOENT);
	assert_int_equal(f->sched.rtg.self, RTGROUP_SELF_UNKNOWN);
	assert_int_equal(f->tasks.err, -ENOENT);
	assert_int_equal(f->memory.limits_err, -ENOENT);
	assert_int_equal(f->platform.clocksource_err, -ENOENT);
	facts_free(f);
	free(f);
	rmdir(empty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel),
		cmocka_unit_test(sched),
		cmocka_unit_test(tasks),
		cmocka_unit_test(memory_platform),
		cmocka_unit_test(config_fallback),
		cmocka_unit_test(empty_root),
	};

	return unit_run(tests, setup, teardown);
}
