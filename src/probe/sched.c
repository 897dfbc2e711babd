// SPDX-License-Identifier: MIT
/* Reads the scheduler knobs; see sched.h. */
#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "probe/knob.h"
#include "probe/sched.h"
#include "util/parse.h"

static void probe_fair_server(const struct rootfs *fs, struct sched_facts *s)
{
	static const char dir[] = "/sys/kernel/debug/sched/fair_server";
	struct dirent *de;
	unsigned int seen = 0;
	int64_t period_cpu = -1;
	DIR *d = rootfs_opendir(fs, dir);

	if (!d) {
		s->fair_server_err = -errno;
		return;
	}
	s->fair_server_err = -ENOENT;
	while ((de = readdir(d)) && seen++ < 65536) {
		char path[128];
		int64_t rt, per, cpu;

		if (strncmp(de->d_name, "cpu", 3) != 0 ||
		    parse_int64(de->d_name + 3, 0, 65535, &cpu))
			continue;
		if (rootfs_path(path, sizeof(path), "%s/%s/runtime", dir, de->d_name) ||
		    rootfs_read_int64(fs, path, &rt) || rt < 0)
			continue;
		if (rt > 0 && rtr_cpuset_set(&s->fair_reserving, (int)cpu))
			continue;	/* ENOMEM or out of range: leave this CPU out */
		if (s->fair_server_cpus == 0 || rt < s->fair_runtime_min_ns)
			s->fair_runtime_min_ns = rt;
		if (s->fair_server_cpus == 0 || rt > s->fair_runtime_max_ns)
			s->fair_runtime_max_ns = rt;
		s->fair_server_cpus++;
		/*
		 * The period of the lowest-numbered CPU, whatever order readdir()
		 * gives: every period is read, so a snapshot holds the same one.
		 */
		rootfs_path(path, sizeof(path), "%s/%s/period", dir, de->d_name);
		if (rootfs_read_int64(fs, path, &per) || per <= 0)
			per = 0;
		if (period_cpu < 0 || cpu < period_cpu) {
			period_cpu = cpu;
			s->fair_period_ns = per;
		}
		s->fair_server_err = 0;
	}
	closedir(d);
}

void probe_sched(const struct rootfs *fs, struct sched_facts *s)
{
	memset(s, 0, sizeof(*s));
	s->rt_runtime_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_runtime_us",
					      &s->rt_runtime_us);
	s->rt_period_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_period_us",
					     &s->rt_period_us);
	probe_fair_server(fs, s);
	probe_rtgroup(fs, &s->rtg);
}

void probe_sched_free(struct sched_facts *s)
{
	rtr_cpuset_free(&s->fair_reserving);
}
