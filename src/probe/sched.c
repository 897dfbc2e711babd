// SPDX-License-Identifier: MIT
/* Reads the scheduler knobs; see sched.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Decode the octal escapes (\040 for space) that /proc/mounts uses in paths. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Whether the comma-separated option list @opts holds exactly @opt. */
static bool has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, opt, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* A line: "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0" */
unsigned int sched_parse_cgroup_mounts(const char *buf, size_t len, char (*out)[256],
				       unsigned int max)
{
	char v1[256] = "", v2[256] = "";
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[1024], dev[256], mnt[256], type[64], opts[512];

		if (n < sizeof(line) && !memchr(p, '\0', n)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, "%255s %255s %63s %511s", dev, mnt, type, opts) == 4) {
				unescape(mnt);
				if (!v1[0] && strcmp(type, "cgroup") == 0 && has_option(opts, "cpu"))
					snprintf(v1, sizeof(v1), "%s", mnt);
				else if (!v2[0] && strcmp(type, "cgroup2") == 0)
					snprintf(v2, sizeof(v2), "%s", mnt);
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	{
		unsigned int k = 0;

		if (v1[0] && k < max)
			snprintf(out[k++], 256, "%s", v1);
		if (v2[0] && k < max)
			snprintf(out[k++], 256, "%s", v2);
		return k;
	}
}

struct walk {
	const struct rootfs *fs;
	struct sched_facts *s;
	unsigned int dirs;
};

/* Whether the cgroup at @path holds any task (a non-empty cgroup.procs). */
static bool cgroup_busy(const struct rootfs *fs, const char *path)
{
	char file[4200], buf[16];
	int err;

	if (rootfs_path(file, sizeof(file), "%s/cgroup.procs", path))
		return false;
	err = rootfs_read_str(fs, file, buf, sizeof(buf));
	return (err == 0 && buf[0]) || err == -EFBIG;
}

static void walk_cgroup(struct walk *w, const char *path, int depth)
{
	struct sched_facts *s = w->s;
	char file[4200];
	struct dirent *de;
	int64_t rt;
	DIR *d;

	if (++w->dirs > SCHED_CGROUP_MAX_DIRS || depth > SCHED_CGROUP_MAX_DEPTH) {
		s->rt_group_truncated = true;
		return;
	}
	if (rootfs_path(file, sizeof(file), "%s/cpu.rt_runtime_us", path) == 0 &&
	    rootfs_read_int64(w->fs, file, &rt) == 0) {
		s->rt_groups++;
		if (rt == 0) {
			bool busy = cgroup_busy(w->fs, path);

			s->rt_groups_zero++;
			if (busy)
				s->rt_groups_zero_busy++;
			if (!s->rt_zero_example[0] || (busy && s->rt_groups_zero_busy == 1))
				snprintf(s->rt_zero_example, sizeof(s->rt_zero_example), "%.*s",
					 (int)sizeof(s->rt_zero_example) - 1, path);
		}
	}
	d = rootfs_opendir(w->fs, path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[4096];

		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		if (rootfs_path(sub, sizeof(sub), "%s/%s", path, de->d_name))
			continue;
		walk_cgroup(w, sub, depth + 1);
		if (s->rt_group_truncated)
			break;
	}
	closedir(d);
}

static void probe_rt_group(const struct rootfs *fs, struct sched_facts *s)
{
	static const char *const fallback[] = { "/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu",
						"/sys/fs/cgroup" };
	char mounts[2][256];
	unsigned int n = 0;
	char *buf = NULL;
	size_t len;

	if (rootfs_read(fs, "/proc/self/mounts", ROOTFS_CAP_DEFAULT, &buf, &len) == 0)
		n = sched_parse_cgroup_mounts(buf, len, mounts, 2);
	free(buf);
	for (unsigned int i = 0; n == 0 && i < sizeof(fallback) / sizeof(fallback[0]); i++)
		if (rootfs_exists(fs, fallback[i]))
			snprintf(mounts[n++], sizeof(mounts[0]), "%s", fallback[i]);
	s->rt_group_err = -ENOENT;
	for (unsigned int i = 0; i < n; i++) {
		struct walk w = { fs, s, 0 };
		char file[300];

		if (rootfs_path(file, sizeof(file), "%s/cpu.rt_runtime_us", mounts[i]) ||
		    !rootfs_exists(fs, file))
			continue;
		memcpy(s->rt_group_mount, mounts[i], sizeof(s->rt_group_mount));
		s->rt_group_mount[sizeof(s->rt_group_mount) - 1] = '\0';
		walk_cgroup(&w, mounts[i], 0);
		s->rt_group_err = s->rt_groups ? 0 : -EINVAL;
		knob_sanitize(s->rt_group_mount);
		knob_sanitize(s->rt_zero_example);
		break;
	}
}

void probe_sched(const struct rootfs *fs, struct sched_facts *s)
{
	memset(s, 0, sizeof(*s));
	s->rt_runtime_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_runtime_us",
					      &s->rt_runtime_us);
	s->rt_period_err = rootfs_read_int64(fs, "/proc/sys/kernel/sched_rt_period_us",
					     &s->rt_period_us);
	probe_fair_server(fs, s);
	probe_rt_group(fs, s);
}

void probe_sched_free(struct sched_facts *s)
{
	rtr_cpuset_free(&s->fair_reserving);
}
