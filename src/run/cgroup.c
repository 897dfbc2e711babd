// SPDX-License-Identifier: MIT
/*
 * CPU and memory budget cgroups for `rtready run`; see cgroup.h.
 *
 * Placement: the new group goes under rtready's own cgroup, so that a
 * delegated subtree (systemd user session, container) is respected. On
 * cgroup v2 the parent must have the controllers in cgroup.subtree_control,
 * which the kernel refuses while the parent itself holds processes (the
 * "no internal processes" rule); in that case the group is made under the
 * root of the mounted hierarchy instead, where the rule does not apply.
 * On a hybrid system (v2 mounted without the cpu or memory controller, as
 * systemd's "unified" mount is), the v1 hierarchies are used.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/cgroupfs.h"
#include "probe/rootfs.h"
#include "run/cgroup.h"
#include "util/parse.h"
#include "util/pid.h"

#define CPU_PERIOD_US 100000u
/* memory.events and memory.oom_control are a few hundred bytes. */
#define KEYED_FILE_CAP 4096
/* Entries looked at per directory when searching for leftovers. */
#define STALE_SCAN_MAX 65536

static int write_attr(const struct rootfs *fs, const char *dir, const char *attr,
		      const char *text, char *err, size_t errlen)
{
	int rc = cgroupfs_write(fs, dir, attr, text);

	if (rc)
		snprintf(err, errlen, "cannot write '%s' to %s/%s: %s", text, dir, attr,
			 strerror(-rc));
	return rc;
}

static int make_dir(struct run_cgroup *cg, const struct rootfs *fs, const char *parent,
		    const char *name, char *err, size_t errlen)
{
	char *dir = cg->dirs[cg->n_dirs];
	int n = snprintf(dir, PATH_MAX, "%s/%s", parent, name), rc;

	if (n < 0 || n >= PATH_MAX) {
		snprintf(err, errlen, "cgroup path too long under %s", parent);
		return -ENAMETOOLONG;
	}
	rc = cgroupfs_mkdir_fresh(fs, dir);
	if (rc) {
		snprintf(err, errlen, "cannot create cgroup %s: %s", dir, strerror(-rc));
		return rc;
	}
	memcpy(cg->procs[cg->n_procs], dir, (size_t)n);
	memcpy(cg->procs[cg->n_procs] + n, "/cgroup.procs", sizeof("/cgroup.procs"));
	cg->n_procs++;
	cg->n_dirs++;
	return 0;
}

/* Whether @dir/@file lists the controllers asked for (an unreadable file: no). */
static bool has_controllers(const struct rootfs *fs, const char *dir, const char *file, bool cpu,
			    bool mem)
{
	const char *names[3] = { NULL, NULL, NULL };
	size_t n = 0;

	if (cpu)
		names[n++] = "cpu";
	if (mem)
		names[n++] = "memory";
	return cgroupfs_lists(fs, dir, file, names) == 1;
}

/* Let children of @dir use the controllers. Return: 0 or -errno. */
static int v2_enable(const struct rootfs *fs, const char *dir, bool cpu, bool mem)
{
	int rc = 0;

	if (has_controllers(fs, dir, "cgroup.subtree_control", cpu, mem))
		return 0;
	if (cpu)
		rc = cgroupfs_write(fs, dir, "cgroup.subtree_control", "+cpu");
	if (!rc && mem)
		rc = cgroupfs_write(fs, dir, "cgroup.subtree_control", "+memory");
	return rc;
}

static int write_limits(const struct run_cgroup *cg, const struct rootfs *fs, int version,
			const struct cgroup_limits *lim, char *err, size_t errlen)
{
	char val[64];
	size_t i = 0;
	int rc = 0;

	if (lim->cpu_pct) {
		unsigned long long quota = (unsigned long long)lim->cpu_pct * (CPU_PERIOD_US / 100);

		if (version == 2) {
			snprintf(val, sizeof(val), "%llu %u", quota, CPU_PERIOD_US);
			rc = write_attr(fs, cg->dirs[0], "cpu.max", val, err, errlen);
		} else {
			snprintf(val, sizeof(val), "%u", CPU_PERIOD_US);
			rc = write_attr(fs, cg->dirs[i], "cpu.cfs_period_us", val, err, errlen);
			snprintf(val, sizeof(val), "%llu", quota);
			rc = rc ? rc : write_attr(fs, cg->dirs[i], "cpu.cfs_quota_us", val, err, errlen);
			i++;
		}
	}
	if (!rc && lim->memory_bytes) {
		snprintf(val, sizeof(val), "%llu", (unsigned long long)lim->memory_bytes);
		if (version == 2)
			rc = write_attr(fs, cg->dirs[0], "memory.max", val, err, errlen);
		else
			rc = write_attr(fs, cg->dirs[i], "memory.limit_in_bytes", val, err, errlen);
	}
	return rc;
}

static int create_v2(struct run_cgroup *cg, const struct rootfs *fs,
		     const struct cgroup_mounts *m, const struct cgroup_self *self,
		     const struct cgroup_limits *lim, const char *name, char *err, size_t errlen)
{
	bool cpu = lim->cpu_pct != 0, mem = lim->memory_bytes != 0;
	char own[PATH_MAX], parent[PATH_MAX];
	int rc = cgroupfs_dir(own, sizeof(own), m->v2, m->v2_root, self->v2);

	if (rc) {
		snprintf(err, errlen, "cgroup path too long");
		return rc;
	}
	snprintf(parent, sizeof(parent), "%s", own);
	if (v2_enable(fs, parent, cpu, mem) != 0) {
		/* Our cgroup holds processes (ours): use the hierarchy's top. */
		snprintf(parent, sizeof(parent), "%s", m->v2);
		rc = v2_enable(fs, parent, cpu, mem);
		if (rc) {
			snprintf(err, errlen,
				 "cannot enable the cpu/memory controllers in %s or %s: %s", own,
				 parent, strerror(-rc));
			return rc;
		}
	}
	cg->version = 2;
	rc = make_dir(cg, fs, parent, name, err, errlen);
	if (!rc && mem)
		cg->memory_dir = 0;
	return rc;
}

/*
 * With RT group scheduling a new v1 group has no RT budget (cpu.rt_runtime_us
 * = 0), and SCHED_FIFO/RR in it fail with EPERM: give it its parent's budget,
 * so the program gets what it would have had outside. A kernel without the
 * file has no group budgets. Failing matters only for an RT program (@rt).
 */
static int v1_rt_budget(const struct rootfs *fs, const char *parent, const char *dir, bool rt,
			char *err, size_t errlen)
{
	char val[32];
	int64_t mine, theirs;
	int rc;

	if (cgroupfs_read(fs, dir, "cpu.rt_runtime_us", val, sizeof(val)) ||
	    parse_int64(val, -1, INT64_MAX, &mine) || mine != 0)
		return 0;
	if (cgroupfs_read(fs, parent, "cpu.rt_runtime_us", val, sizeof(val)) ||
	    parse_int64(val, -1, INT64_MAX, &theirs) || theirs == 0) {
		if (!rt)
			return 0;
		snprintf(err, errlen, "the program's cgroup %s would have no RT budget and its "
			 "parent %s has none to give (cpu.rt_runtime_us = 0): SCHED_FIFO/RR would "
			 "fail with EPERM (see `rtready check --only sched.rt_group`)", dir, parent);
		return -EPERM;
	}
	rc = cgroupfs_write(fs, dir, "cpu.rt_runtime_us", val);
	if (rc && rt)
		snprintf(err, errlen, "cannot give the program's cgroup %s the RT budget of its "
			 "parent (echo %s > cpu.rt_runtime_us): %s%s", dir, val, strerror(-rc),
			 rc == -EBUSY || rc == -EINVAL ? " (the parent's budget is given to its other "
			 "groups already)" : "");
	return rt ? rc : 0;
}

static int create_v1(struct run_cgroup *cg, const struct rootfs *fs, const struct cgroup_mounts *m,
		     const struct cgroup_self *self, const struct cgroup_limits *lim,
		     const char *name, char *err, size_t errlen)
{
	char parent[PATH_MAX];
	int rc = 0;

	cg->version = 1;
	if (lim->cpu_pct) {
		if (!m->v1_cpu[0]) {
			snprintf(err, errlen, "no cgroup hierarchy has the cpu controller");
			return -ENOENT;
		}
		rc = cgroupfs_dir(parent, sizeof(parent), m->v1_cpu, m->v1_cpu_root, self->v1_cpu);
		rc = rc ? rc : make_dir(cg, fs, parent, name, err, errlen);
		rc = rc ? rc : v1_rt_budget(fs, parent, cg->dirs[cg->n_dirs - 1], lim->rt, err, errlen);
	}
	if (!rc && lim->memory_bytes) {
		if (!m->v1_memory[0]) {
			snprintf(err, errlen, "no cgroup hierarchy has the memory controller");
			return -ENOENT;
		}
		rc = cgroupfs_dir(parent, sizeof(parent), m->v1_memory, m->v1_memory_root,
			      self->v1_memory);
		rc = rc ? rc : make_dir(cg, fs, parent, name, err, errlen);
		if (!rc)
			cg->memory_dir = (int)cg->n_dirs - 1;
	}
	return rc;
}

static int read_layout(const struct rootfs *fs, struct cgroup_mounts *m, struct cgroup_self *self,
		       char *err, size_t errlen)
{
	int rc = cgroup_read_mounts(fs, m);

	if (rc) {
		snprintf(err, errlen, "cannot read the mounts (/proc/self/mountinfo): %s",
			 strerror(-rc));
		return rc;
	}
	rc = cgroup_read_self(fs, self);
	if (rc)
		snprintf(err, errlen, "cannot read /proc/self/cgroup: %s", strerror(-rc));
	return rc;
}

int run_cgroup_create(struct run_cgroup *cg, const struct cgroup_limits *lim, const char *name,
		      char *err, size_t errlen)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	struct cgroup_self *self = calloc(1, sizeof(*self));
	char tmp[256];
	struct rootfs fs;
	int rc;

	memset(cg, 0, sizeof(*cg));
	cg->memory_dir = -1;
	if (!m || !self) {
		free(m);
		free(self);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = rootfs_open(&fs, "/");
	if (rc) {
		snprintf(err, errlen, "cannot open /: %s", strerror(-rc));
		goto out;
	}
	rc = read_layout(&fs, m, self, err, errlen);
	if (rc)
		goto out_fs;
	if (m->v2[0] &&
	    has_controllers(&fs, m->v2, "cgroup.controllers", lim->cpu_pct != 0, lim->memory_bytes != 0))
		rc = create_v2(cg, &fs, m, self, lim, name, err, errlen);
	else
		rc = create_v1(cg, &fs, m, self, lim, name, err, errlen);
	if (!rc)
		rc = write_limits(cg, &fs, cg->version, lim, err, errlen);
	if (rc)
		(void)run_cgroup_remove(cg, tmp, sizeof(tmp));
out_fs:
	rootfs_close(&fs);
out:
	free(m);
	free(self);
	return rc;
}

/* SCHED_FIFO priority 1 for the caller, by the raw call (musl's wrapper is ENOSYS). */
static int try_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	return syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &sp) == 0 ? 0 : -errno;
}

int run_cgroup_rt_refused(const struct run_cgroup *cg)
{
	int status, rc;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* 0: FIFO allowed in the group; 1: refused there only; 2: refused anyway. */
		if (try_fifo() != 0)
			_exit(2);
		if (run_cgroup_join(cg) != 0)
			_exit(3);
		_exit(try_fifo() == -EPERM ? 1 : 0);
	}
	while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (rc < 0)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
		return -EPERM;
	return WEXITSTATUS(status);
}

int run_cgroup_join(const struct run_cgroup *cg)
{
	struct rootfs fs;
	int rc = rootfs_open(&fs, "/");

	if (rc)
		return rc;
	for (size_t i = 0; !rc && i < cg->n_procs; i++)
		/* "0" is the writing process, in v1 and v2 alike. */
		rc = rootfs_write(&fs, cg->procs[i], "0", 1);
	rootfs_close(&fs);
	return rc;
}

/* Append ", @dir" (or "@dir" first) to @list, marking a cut with "...". */
static void list_add(char *list, size_t len, const char *dir)
{
	size_t used = strlen(list);
	int n;

	if (used + 4 >= len)
		return;
	n = snprintf(list + used, len - used, "%s%s", used ? " and " : "", dir);
	if (n < 0 || (size_t)n >= len - used)
		memcpy(list + len - 4, "...", 4);
}

int run_cgroup_remove(struct run_cgroup *cg, char *err, size_t errlen)
{
	char busy[2 * PATH_MAX + 16] = "";
	size_t n_busy = 0;
	struct rootfs fs;
	int rc = rootfs_open(&fs, "/");

	if (rc) {
		snprintf(err, errlen, "cannot open /: %s", strerror(-rc));
		return rc;
	}
	for (size_t i = cg->n_dirs; i-- > 0;) {
		/*
		 * An exited task leaves its cgroup a moment after it is reaped
		 * (up to 1 s); a second busy directory is not waited for again.
		 */
		int r = cgroupfs_rmdir_wait(&fs, cg->dirs[i], n_busy ? 1 : 200, 5 * 1000 * 1000);

		if (r == -EBUSY) {
			list_add(busy, sizeof(busy), cg->dirs[i]);
			n_busy++;
		} else if (r && !rc) {
			snprintf(err, errlen, "cannot remove cgroup %s: %s", cg->dirs[i],
				 strerror(-r));
		}
		if (r && !rc)
			rc = r;
	}
	/* One line that names every directory left, whatever else failed. */
	if (n_busy) {
		snprintf(err, errlen, "%s %s still hold%s processes the program left behind; "
			 "left in place", n_busy == 1 ? "cgroup" : "cgroups", busy,
			 n_busy == 1 ? "s" : "");
		rc = -EBUSY;
	}
	rootfs_close(&fs);
	cg->n_dirs = cg->n_procs = 0;
	cg->version = 0;
	cg->memory_dir = -1;
	return rc;
}

int run_cgroup_oom_kills(const struct run_cgroup *cg, uint64_t *kills)
{
	char buf[KEYED_FILE_CAP];
	struct rootfs fs;
	int err;

	if (cg->memory_dir < 0 || (size_t)cg->memory_dir >= cg->n_dirs)
		return -ENOENT;
	err = rootfs_open(&fs, "/");
	if (err)
		return err;
	err = cgroupfs_read(&fs, cg->dirs[cg->memory_dir],
			    cg->version == 2 ? "memory.events" : "memory.oom_control", buf,
			    sizeof(buf));
	rootfs_close(&fs);
	/* v1 has the count since Linux 4.13; before, oom_control has no such line. */
	return err ? err : cgroupfs_parse_key(buf, "oom_kill", kills);
}

static int clean_dir(const struct rootfs *fs, const char *parent,
		     void (*fn)(void *, const char *, long, int), void *ctx)
{
	char dir[PATH_MAX];
	struct dirent *d;
	int found = 0, seen = 0;
	DIR *dp = rootfs_opendir(fs, parent);

	if (!dp)
		return 0;
	while ((d = readdir(dp)) != NULL && seen++ < STALE_SCAN_MAX) {
		long pid = parse_pid_suffix(d->d_name, RUN_CGROUP_PREFIX);
		int r = 0;

		/* Alive (or not ours to see): its rtready still owns the group. */
		if (!pid_ended(pid))
			continue;
		if (snprintf(dir, sizeof(dir), "%s/%s", parent, d->d_name) >= (int)sizeof(dir))
			continue;
		/* Only an empty group can go: rmdir says EBUSY while a process is inside. */
		r = rootfs_rmdir(fs, dir);
		if (r == -EACCES || r == -EPERM || r == -ENOENT || r == -ENOTDIR)
			continue;
		fn(ctx, dir, pid, r);
		found++;
	}
	closedir(dp);
	return found;
}

int run_cgroup_clean_stale(void (*fn)(void *ctx, const char *dir, long pid, int err), void *ctx)
{
	struct cgroup_mounts *m = calloc(1, sizeof(*m));
	struct cgroup_self *self = calloc(1, sizeof(*self));
	char (*parents)[PATH_MAX] = calloc(4, PATH_MAX);
	char err[256];
	size_t n = 0;
	struct rootfs fs;
	int found = 0;

	if (!m || !self || !parents || rootfs_open(&fs, "/"))
		goto out;
	if (read_layout(&fs, m, self, err, sizeof(err)) == 0) {
		/* Where run_cgroup_create() may have made one (see create_v2/create_v1). */
		if (m->v2[0] && !cgroupfs_dir(parents[n], PATH_MAX, m->v2, m->v2_root, self->v2))
			n++;
		if (m->v2[0])
			snprintf(parents[n++], PATH_MAX, "%s", m->v2);
		if (m->v1_cpu[0] && !cgroupfs_dir(parents[n], PATH_MAX, m->v1_cpu,
						  m->v1_cpu_root, self->v1_cpu))
			n++;
		if (m->v1_memory[0] && !cgroupfs_dir(parents[n], PATH_MAX, m->v1_memory,
						     m->v1_memory_root, self->v1_memory))
			n++;
	}
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t j = 0; j < i; j++)
			dup = dup || strcmp(parents[i], parents[j]) == 0;
		if (!dup)
			found += clean_dir(&fs, parents[i], fn, ctx);
	}
	rootfs_close(&fs);
out:
	free(parents);
	free(m);
	free(self);
	return found;
}
