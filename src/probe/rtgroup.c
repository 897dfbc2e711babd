// SPDX-License-Identifier: MIT
/* Where RT group scheduling bites: this process's group and the busy ones; see rtgroup.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cgroupfs.h"
#include "probe/knob.h"
#include "probe/rtgroup.h"

struct walk {
	const struct rootfs *fs;
	struct rtgroup_facts *g;
	unsigned int dirs;
	bool v2;
};

/* The group tasks are charged to, as the walk descends. */
struct node {
	bool zero;		/* no RT budget */
	bool busy;		/* tasks are charged to it */
};

/* Whether @dir/cgroup.controllers lists "cpu": 1, 0, or -errno when unreadable. */
static int lists_cpu(const struct rootfs *fs, const char *dir)
{
	static const char *const cpu[] = { "cpu", NULL };

	return cgroupfs_lists(fs, dir, "cgroup.controllers", cpu);
}

/* @dir's cpu.rt_runtime_us into @rt. Return: 0 or -errno (-ENOENT: no such file). */
static int read_budget(const struct rootfs *fs, const char *dir, int64_t *rt)
{
	char file[PATH_MAX + 32];

	if (rootfs_path(file, sizeof(file), "%s/cpu.rt_runtime_us", dir))
		return -ENAMETOOLONG;
	return rootfs_read_int64(fs, file, rt);
}

/*
 * Whether @dir is the hierarchy's real root: only non-root cgroups have
 * cgroup.type (v2). A cgroup namespace or a container's mount shows a
 * non-root group at the mount point.
 */
static bool v2_real_root(const struct rootfs *fs, const char *dir)
{
	char file[PATH_MAX + 32], buf[32];

	return rootfs_path(file, sizeof(file), "%s/cgroup.type", dir) == 0 &&
	       rootfs_read_str(fs, file, buf, sizeof(buf)) != 0;
}

/* Whether the cgroup at @path holds any task (a non-empty cgroup.procs). */
static bool busy(const struct rootfs *fs, const char *path)
{
	char file[PATH_MAX + 32], buf[16];
	int err;

	if (rootfs_path(file, sizeof(file), "%s/cgroup.procs", path))
		return false;
	err = rootfs_read_str(fs, file, buf, sizeof(buf));
	return (err == 0 && buf[0]) || err == -EFBIG;
}

static void set_example(struct rtgroup_facts *g, const char *path, bool busy_group)
{
	if (!g->zero_example[0] || (busy_group && g->zero_busy == 1))
		snprintf(g->zero_example, sizeof(g->zero_example), "%.*s",
			 (int)sizeof(g->zero_example) - 1, path);
}

static void walk_group(struct walk *w, const char *path, int depth, struct node *eff)
{
	struct rtgroup_facts *g = w->g;
	struct node own = { false, false };
	bool takes_cpu;
	struct dirent *de;
	char *sub;
	DIR *d;

	if (++w->dirs > RTGROUP_MAX_DIRS || depth > RTGROUP_MAX_DEPTH) {
		g->truncated = true;
		return;
	}
	if (!w->v2)
		takes_cpu = true;	/* every v1 cgroup of the hierarchy is a task group */
	else if (depth == 0 && v2_real_root(w->fs, path))
		takes_cpu = true;
	else {
		int cpu = lists_cpu(w->fs, path);

		takes_cpu = cpu == 1;
		if (cpu < 0)
			g->unread++;	/* whether it takes cpu is unknown */
	}
	if (takes_cpu) {
		int64_t rt = -1;
		int err = read_budget(w->fs, path, &rt);
		bool root = depth == 0 && (!w->v2 || v2_real_root(w->fs, path));

		if (err == 0 || w->v2)
			g->groups++;
		else
			g->unread++;	/* a v1 group whose budget is unreadable */
		/* v2 has no budget file: a non-root group's budget is 0. */
		own.zero = err == 0 ? rt == 0 : (w->v2 && !root);
		eff = &own;
	}
	if (eff && eff->zero && !eff->busy && busy(w->fs, path))
		eff->busy = true;
	d = rootfs_opendir(w->fs, path);
	if (!d)
		g->unread++;	/* its subgroups are unknown */
	sub = d ? malloc(PATH_MAX) : NULL;
	while (sub && (de = readdir(d))) {
		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.')
			continue;
		if (rootfs_path(sub, PATH_MAX, "%s/%s", path, de->d_name))
			continue;
		walk_group(w, sub, depth + 1, eff);
		if (g->truncated)
			break;
	}
	free(sub);
	if (d)
		closedir(d);
	if (takes_cpu && own.zero) {
		g->zero++;
		if (own.busy)
			g->zero_busy++;
		set_example(g, path, own.busy);
	}
}

static void self_unknown(struct rtgroup_facts *g, int err, const char *path)
{
	g->self = RTGROUP_SELF_UNKNOWN;
	g->self_err = err;
	snprintf(g->self_err_path, sizeof(g->self_err_path), "%.*s",
		 (int)sizeof(g->self_err_path) - 1, path);
}

static void self_group(struct rtgroup_facts *g, const char *dir)
{
	snprintf(g->self_group, sizeof(g->self_group), "%.*s", (int)sizeof(g->self_group) - 1,
		 dir);
}

/* v1: the budget of the process's own cgroup in the cpu hierarchy. */
static void self_v1(const struct rootfs *fs, struct rtgroup_facts *g, const char *dir,
		    bool root)
{
	int err;

	self_group(g, dir);
	err = read_budget(fs, dir, &g->self_runtime_us);
	if (err) {
		char file[PATH_MAX + 32];

		snprintf(file, sizeof(file), "%s/cpu.rt_runtime_us", dir);
		self_unknown(g, err, file);
		return;
	}
	if (g->self_runtime_us == 0)
		g->self = RTGROUP_SELF_ZERO;
	else
		g->self = root ? RTGROUP_SELF_ROOT : RTGROUP_SELF_BUDGET;
}

/* v2: from the process's group upwards to the first that takes the cpu controller. */
static void self_v2(const struct rootfs *fs, struct rtgroup_facts *g, char *dir)
{
	size_t mlen = strlen(g->mount);

	for (int depth = 0; depth <= RTGROUP_MAX_DEPTH; depth++) {
		bool top = strcmp(dir, g->mount) == 0;
		int cpu;

		if (top && v2_real_root(fs, dir)) {
			self_group(g, dir);
			g->self = RTGROUP_SELF_ROOT;
			return;
		}
		cpu = lists_cpu(fs, dir);
		if (cpu < 0) {
			char file[PATH_MAX + 32];

			snprintf(file, sizeof(file), "%s/cgroup.controllers", dir);
			self_unknown(g, cpu, file);
			return;
		}
		if (cpu == 1) {
			char file[PATH_MAX + 32], *slash;

			self_group(g, dir);
			snprintf(file, sizeof(file), "%s/cgroup.controllers", dir);
			if (rootfs_read_str(fs, file, g->self_controllers,
					    sizeof(g->self_controllers)))
				g->self_controllers[0] = '\0';
			snprintf(file, sizeof(file), "%s", dir);
			slash = strrchr(file, '/');
			if (slash && slash != file)
				*slash = '\0';
			snprintf(g->self_enabled_in, sizeof(g->self_enabled_in), "%.*s",
				 (int)sizeof(g->self_enabled_in) - 1, file);
			if (read_budget(fs, dir, &g->self_runtime_us))
				g->self_runtime_us = -1;
			g->self = g->self_runtime_us > 0 ? RTGROUP_SELF_BUDGET : RTGROUP_SELF_ZERO;
			return;
		}
		if (top) {
			/* A namespace's root without cpu: the group that applies is out of sight. */
			self_group(g, dir);
			g->self = RTGROUP_SELF_HIDDEN;
			return;
		}
		/* Up one level, never above the mount. */
		{
			char *slash = strrchr(dir, '/');

			if (!slash || (size_t)(slash - dir) < mlen)
				break;
			*slash = '\0';
		}
	}
	self_unknown(g, -ELOOP, dir);
}

static void probe_self(const struct rootfs *fs, struct rtgroup_facts *g,
		       const struct cgroup_mounts *m)
{
	struct cgroup_self *self = calloc(1, sizeof(*self));
	char *dir = malloc(PATH_MAX), *text = NULL;
	const char *path;
	size_t len;
	int err;

	if (!self || !dir) {
		self_unknown(g, -ENOMEM, "/proc/self/cgroup");
		goto out;
	}
	err = rootfs_read(fs, "/proc/self/cgroup", ROOTFS_CAP_DEFAULT, &text, &len);
	if (!err)
		err = cgroup_parse_self(text, self);
	if (err) {
		self_unknown(g, err, "/proc/self/cgroup");
		goto out;
	}
	path = g->hier == RTGROUP_V1 ? self->v1_cpu : self->v2;
	if (g->hier == RTGROUP_NONE) {
		/*
		 * No hierarchy here holds cpu. A v1 line names one mounted
		 * elsewhere (another mount namespace): a group we cannot see.
		 */
		path = self->v1_cpu[0] ? self->v1_cpu : self->v2;
		snprintf(g->self_cgroup, sizeof(g->self_cgroup), "%.*s",
			 (int)sizeof(g->self_cgroup) - 1, path);
		g->self = self->v1_cpu[0] && strcmp(self->v1_cpu, "/") != 0 ?
				  RTGROUP_SELF_HIDDEN : RTGROUP_SELF_ROOT;
		goto out;
	}
	if (!path[0]) {
		self_unknown(g, -ENOENT, g->hier == RTGROUP_V1 ?
				   "/proc/self/cgroup (no line of the cpu controller)" :
				   "/proc/self/cgroup (no cgroup2 line)");
		goto out;
	}
	snprintf(g->self_cgroup, sizeof(g->self_cgroup), "%.*s", (int)sizeof(g->self_cgroup) - 1,
		 path);
	if (g->hier == RTGROUP_V1) {
		err = cgroupfs_dir(dir, PATH_MAX, m->v1_cpu, m->v1_cpu_root, path);
		if (err) {
			self_unknown(g, err, path);
			goto out;
		}
		self_v1(fs, g, dir, strcmp(dir, m->v1_cpu) == 0 && strcmp(m->v1_cpu_root, "/") == 0);
	} else {
		err = cgroupfs_dir(dir, PATH_MAX, m->v2, m->v2_root, path);
		if (err) {
			self_unknown(g, err, path);
			goto out;
		}
		self_v2(fs, g, dir);
	}
out:
	knob_sanitize(g->self_cgroup);
	knob_sanitize(g->self_group);
	knob_sanitize(g->self_controllers);
	knob_sanitize(g->self_enabled_in);
	knob_sanitize(g->self_err_path);
	free(text);
	free(dir);
	free(self);
}

/* Where the cpu controller is: a v1 hierarchy, else cgroup2 if it lists it. */
static void find_hierarchy(const struct rootfs *fs, struct rtgroup_facts *g,
			   const struct cgroup_mounts *m)
{
	if (m->v1_cpu[0]) {
		g->hier = RTGROUP_V1;
		snprintf(g->mount, sizeof(g->mount), "%.*s", (int)sizeof(g->mount) - 1, m->v1_cpu);
	} else if (m->v2[0] && (lists_cpu(fs, m->v2) == 1 || !v2_real_root(fs, m->v2))) {
		/* A namespace's view without cpu may still be charged to a group above it. */
		g->hier = RTGROUP_V2;
		snprintf(g->mount, sizeof(g->mount), "%.*s", (int)sizeof(g->mount) - 1, m->v2);
	} else {
		g->hier = RTGROUP_NONE;
	}
}

void probe_rtgroup(const struct rootfs *fs, struct rtgroup_facts *g)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));

	memset(g, 0, sizeof(*g));
	g->self_runtime_us = -1;
	if (!m) {
		g->err = -ENOMEM;
		self_unknown(g, -ENOMEM, "/proc/self/cgroup");
		return;
	}
	g->err = cgroup_read_mounts(fs, m);
	if (g->err) {
		self_unknown(g, g->err, "/proc/self/mountinfo");
		free(m);
		return;
	}
	find_hierarchy(fs, g, m);
	if (g->hier == RTGROUP_NONE) {
		g->err = -ENOENT;
	} else {
		struct walk w = { fs, g, 0, g->hier == RTGROUP_V2 };

		walk_group(&w, g->mount, 0, NULL);
	}
	probe_self(fs, g, m);
	knob_sanitize(g->mount);
	knob_sanitize(g->zero_example);
	free(m);
}
