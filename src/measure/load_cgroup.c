// SPDX-License-Identifier: MIT
/*
 * The memory cgroup that confines the OOM load's victims. This is the one
 * module of the load that acts on the live system's /proc/self and cgroup
 * files: it finds the cgroup hierarchy that has the memory controller,
 * makes a child cgroup with a small limit and no swap, moves a victim in,
 * reads the kernel's OOM-kill count and removes the cgroup at the end.
 *
 * v2 (unified) is used when its root lists the memory controller; else the
 * v1 memory hierarchy (hybrid systems mount both, with memory on v1). The
 * new cgroup goes below our own cgroup where that can work (always in v1;
 * in v2 only where our cgroup delegates the memory controller, which the
 * "no internal processes" rule allows only at the root), else at the root
 * of the hierarchy. Our own process never joins it; only victims do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "measure/load_internal.h"
#include "probe/rootfs.h"

#define CGROUP_FILE_CAP 4096
#define MOUNTINFO_CAP (8u << 20)
/* rmdir() of a cgroup whose last task just died may see EBUSY for a moment. */
#define RMDIR_TRIES 200
#define RMDIR_PAUSE_NS (10 * 1000000)

/* ---- pure parsers ---------------------------------------------------------- */

/* Copy the next space-separated field of *s into @out, decoding \ooo escapes. */
static int next_field(const char **s, char *out, size_t len)
{
	const char *p = *s;
	size_t n = 0;

	while (*p == ' ')
		p++;
	if (!*p || *p == '\n')
		return -EINVAL;
	while (*p && *p != ' ' && *p != '\n') {
		char ch = *p;

		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			ch = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		}
		if (n + 1 >= len)
			return -EINVAL;
		out[n++] = ch;
		p++;
	}
	out[n] = '\0';
	*s = p;
	return 0;
}

int load_cgroup_parse_mountinfo(const char *line, char *root, size_t rootlen, char *mnt,
				size_t mntlen, char *fstype, size_t fstypelen, char *opts,
				size_t optslen)
{
	char skip[64];
	const char *p = line, *sep;

	/* mount id, parent id, major:minor */
	for (int i = 0; i < 3; i++)
		if (next_field(&p, skip, sizeof(skip)))
			return -EINVAL;
	if (next_field(&p, root, rootlen) || next_field(&p, mnt, mntlen))
		return -EINVAL;
	/* Optional fields end at a lone "-". */
	sep = strstr(p, " - ");
	if (!sep)
		return -EINVAL;
	p = sep + 3;
	if (next_field(&p, fstype, fstypelen) || next_field(&p, skip, sizeof(skip)) ||
	    next_field(&p, opts, optslen))
		return -EINVAL;
	return 0;
}

/* Whether @list (separated by any of @seps) holds @word exactly. */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, seps);

		if (n == wl && strncmp(p, word, wl) == 0)
			return true;
		p += n;
		p += strspn(p, seps);
	}
	return false;
}

int load_cgroup_parse_self(const char *text, const char *controller, char *path, size_t len)
{
	const char *line = text;

	/* Lines are "hierarchy-id:controller,list:/path"; v2 is "0::/path". */
	for (int guard = 0; line && *line && guard < 4096; guard++) {
		const char *c1 = strchr(line, ':'), *c2, *eol = strchr(line, '\n');
		size_t n;

		if (!eol)
			eol = line + strlen(line);
		if (c1 && c1 < eol && (c2 = strchr(c1 + 1, ':')) && c2 < eol) {
			char ctl[256];
			size_t cl = (size_t)(c2 - c1 - 1);
			bool match;

			if (cl >= sizeof(ctl))
				return -EINVAL;
			memcpy(ctl, c1 + 1, cl);
			ctl[cl] = '\0';
			match = controller ? has_word(ctl, controller, ",")
					   : (cl == 0 && c1 - line == 1 && line[0] == '0');
			if (match) {
				n = (size_t)(eol - c2 - 1);
				if (n == 0 || n >= len || c2[1] != '/')
					return -EINVAL;
				memcpy(path, c2 + 1, n);
				path[n] = '\0';
				return 0;
			}
		}
		line = *eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

int load_cgroup_parse_key(const char *text, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;
		unsigned long long x;

		if (strncmp(p, key, kl) != 0 || p[kl] != ' ')
			continue;
		errno = 0;
		x = strtoull(p + kl + 1, &end, 10);
		if (end == p + kl + 1 || errno || (*end && *end != '\n'))
			return -EINVAL;
		*v = x;
		return 0;
	}
	return -ENOENT;
}

/* ---- live files -------------------------------------------------------------- */

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		err = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return err;
}

static int write_str(const char *dir, const char *file, const char *val)
{
	char path[4200];
	int fd, err = 0;
	size_t len = strlen(val);

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

static bool file_has_word(const char *dir, const char *file, const char *word)
{
	char path[4200], buf[CGROUP_FILE_CAP];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return false;
	return read_small(path, buf, sizeof(buf)) == 0 && has_word(buf, word, " \n");
}

/* Where a mount's hierarchy path @cgpath lives: @mnt plus @cgpath below @mroot. */
static int join_cgroup_dir(char *out, size_t len, const char *mnt, const char *mroot,
			   const char *cgpath)
{
	size_t rl = strlen(mroot);
	const char *rel = "";

	if (strcmp(mroot, "/") == 0)
		rel = cgpath;
	else if (strncmp(cgpath, mroot, rl) == 0 && (cgpath[rl] == '/' || !cgpath[rl]))
		rel = cgpath + rl;
	if (strcmp(rel, "/") == 0)
		rel = "";
	if (snprintf(out, len, "%s%s", mnt, rel) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

struct hierarchy {
	char mnt[4096], root[4096];
	bool found;
};

/* Scratch of one mountinfo line, on the heap: the caller's stack may be small. */
struct mount_line {
	char buf[8192], root[4096], mnt[4096], fstype[64], opts[1024];
};

/* Find the v2 mount and the v1 memory mount in /proc/self/mountinfo. */
static void scan_mounts(const char *text, struct mount_line *m, struct hierarchy *v2,
			struct hierarchy *v1)
{
	const char *line = text;

	for (int guard = 0; line && *line && guard < 100000; guard++) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		char *root = m->root, *mnt = m->mnt, *fstype = m->fstype, *opts = m->opts;

		if (n < sizeof(m->buf)) {
			memcpy(m->buf, line, n);
			m->buf[n] = '\0';
			if (load_cgroup_parse_mountinfo(m->buf, root, sizeof(m->root), mnt,
							sizeof(m->mnt), fstype, sizeof(m->fstype),
							opts, sizeof(m->opts)) == 0) {
				struct hierarchy *h = NULL;

				if (strcmp(fstype, "cgroup2") == 0)
					h = v2;
				else if (strcmp(fstype, "cgroup") == 0 && has_word(opts, "memory", ","))
					h = v1;
				if (h && !h->found) {
					snprintf(h->mnt, sizeof(h->mnt), "%s", mnt);
					snprintf(h->root, sizeof(h->root), "%s", root);
					h->found = true;
				}
			}
		}
		line = eol ? eol + 1 : NULL;
	}
}

/* Choose the parent directory of our cgroup. */
static int find_parent(char *parent, size_t len, int *version, char *err, size_t errlen)
{
	struct scratch {
		struct hierarchy v2, v1;
		struct mount_line line;
		char cgpath[4096];
	} *sc = calloc(1, sizeof(*sc));
	char *mounts = NULL, *self = NULL, *cgpath;
	struct hierarchy *v2, *v1;
	struct rootfs fs;
	size_t n;
	int rc;

	if (!sc) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	v2 = &sc->v2;
	v1 = &sc->v1;
	cgpath = sc->cgpath;
	rc = rootfs_open(&fs, "/");
	if (rc) {
		snprintf(err, errlen, "cannot open /: %s", strerror(-rc));
		free(sc);
		return rc;
	}
	rc = rootfs_read(&fs, "/proc/self/mountinfo", MOUNTINFO_CAP, &mounts, &n);
	if (!rc)
		rc = rootfs_read(&fs, "/proc/self/cgroup", 1u << 20, &self, &n);
	rootfs_close(&fs);
	if (rc) {
		snprintf(err, errlen, "cannot read /proc/self: %s", strerror(-rc));
		goto out;
	}
	scan_mounts(mounts, &sc->line, v2, v1);
	if (v2->found && file_has_word(v2->mnt, "cgroup.controllers", "memory")) {
		*version = 2;
		rc = load_cgroup_parse_self(self, NULL, cgpath, sizeof(sc->cgpath));
		if (!rc)
			rc = join_cgroup_dir(parent, len, v2->mnt, v2->root, cgpath);
		if (rc || !file_has_word(parent, "cgroup.subtree_control", "memory"))
			rc = snprintf(parent, len, "%s", v2->mnt) >= (int)len ? -ENAMETOOLONG : 0;
		if (!rc && !file_has_word(parent, "cgroup.subtree_control", "memory")) {
			snprintf(err, errlen,
				 "the memory controller is not enabled in %s/cgroup.subtree_control",
				 parent);
			rc = -ENOTSUP;
		}
	} else if (v1->found) {
		*version = 1;
		rc = load_cgroup_parse_self(self, "memory", cgpath, sizeof(sc->cgpath));
		if (!rc)
			rc = join_cgroup_dir(parent, len, v1->mnt, v1->root, cgpath);
		if (rc || access(parent, W_OK) < 0)
			rc = snprintf(parent, len, "%s", v1->mnt) >= (int)len ? -ENAMETOOLONG : 0;
		if (rc)
			snprintf(err, errlen, "cgroup path too long");
	} else {
		snprintf(err, errlen, "no cgroup hierarchy with the memory controller is mounted");
		rc = -ENOENT;
	}
out:
	free(mounts);
	free(self);
	free(sc);
	return rc;
}

static int set_limits(const struct load_cgroup *cg, uint64_t limit, char *err, size_t errlen)
{
	char val[32];
	int rc;

	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	if (cg->version == 2) {
		rc = write_str(cg->dir, "memory.max", val);
		if (rc) {
			snprintf(err, errlen, "cannot set %s/memory.max: %s", cg->dir, strerror(-rc));
			return rc;
		}
		/* No swap, so the limit is hit at once; absent without swap accounting. */
		rc = write_str(cg->dir, "memory.swap.max", "0");
		if (rc && rc != -ENOENT) {
			snprintf(err, errlen, "cannot set memory.swap.max: %s", strerror(-rc));
			return rc;
		}
		/* Kill the whole group, so no half-killed victim lingers. */
		rc = write_str(cg->dir, "memory.oom.group", "1");
		return rc == -ENOENT ? 0 : rc;
	}
	rc = write_str(cg->dir, "memory.limit_in_bytes", val);
	if (rc) {
		snprintf(err, errlen, "cannot set %s/memory.limit_in_bytes: %s", cg->dir,
			 strerror(-rc));
		return rc;
	}
	rc = write_str(cg->dir, "memory.memsw.limit_in_bytes", val);
	if (rc && rc != -ENOENT) {
		snprintf(err, errlen, "cannot set memory.memsw.limit_in_bytes: %s", strerror(-rc));
		return rc;
	}
	/* v1 copies oom_kill_disable from the parent: a victim would hang, not die. */
	rc = write_str(cg->dir, "memory.oom_control", "0");
	if (rc)
		snprintf(err, errlen, "cannot enable the OOM killer in %s: %s", cg->dir,
			 strerror(-rc));
	return rc;
}

int load_cgroup_create(struct load_cgroup *cg, uint64_t limit_bytes, char *err, size_t errlen)
{
	char parent[4096];
	int rc;

	memset(cg, 0, sizeof(*cg));
	rc = find_parent(parent, sizeof(parent), &cg->version, err, errlen);
	if (rc)
		return rc;
	if (snprintf(cg->dir, sizeof(cg->dir), "%s/rtready-load-%d", parent, (int)getpid()) >=
	    (int)sizeof(cg->dir)) {
		snprintf(err, errlen, "cgroup path too long");
		cg->dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	/* A leftover of a crashed run that had our pid: reuse its name. */
	if (mkdir(cg->dir, 0755) < 0 && (errno != EEXIST || rmdir(cg->dir) < 0 ||
					 mkdir(cg->dir, 0755) < 0)) {
		rc = -errno;
		snprintf(err, errlen, "cannot create %s: %s%s", cg->dir, strerror(-rc),
			 rc == -EACCES || rc == -EPERM || rc == -EROFS ? " (needs root)" : "");
		cg->dir[0] = '\0';
		return rc;
	}
	rc = set_limits(cg, limit_bytes, err, errlen);
	if (rc) {
		rmdir(cg->dir);
		cg->dir[0] = '\0';
	}
	return rc;
}

int load_cgroup_enter(const struct load_cgroup *cg)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_str(cg->dir, "cgroup.procs", pid);
}

int load_cgroup_oom_kills(const struct load_cgroup *cg, uint64_t *kills)
{
	char path[4200], buf[CGROUP_FILE_CAP];
	const char *file = cg->version == 2 ? "memory.events" : "memory.oom_control";
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", cg->dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	rc = read_small(path, buf, sizeof(buf));
	return rc ? rc : load_cgroup_parse_key(buf, "oom_kill", kills);
}

int load_cgroup_remove(struct load_cgroup *cg)
{
	const struct timespec pause = { 0, RMDIR_PAUSE_NS };
	int rc = 0;

	if (!cg->dir[0])
		return 0;
	for (int i = 0; i < RMDIR_TRIES; i++) {
		rc = rmdir(cg->dir) < 0 ? -errno : 0;
		if (rc != -EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	if (rc == 0 || rc == -ENOENT) {
		cg->dir[0] = '\0';
		rc = 0;
	}
	return rc;
}

void load_oom_prefer_self(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, "1000", 4) != 4) {
		/* Best effort: the cgroup limit is what confines the OOM. */
	}
	close(fd);
}
