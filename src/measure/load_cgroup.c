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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/load_internal.h"
#include "probe/cgroupfs.h"
#include "probe/rootfs.h"

#define CGROUP_FILE_CAP 4096
/* rmdir() of a cgroup whose last task just died may see EBUSY for a moment. */
#define RMDIR_TRIES 200
#define RMDIR_PAUSE_NS (10 * 1000000)

/* ---- pure parsers ---------------------------------------------------------- */

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

/* ---- live files (through rootfs, on the live root) ---------------------------- */

/* Run @op on a rootfs of "/" opened for it. */
#define WITH_ROOT(rc, fs, op)                                  \
	do {                                                   \
		struct rootfs fs;                              \
		rc = rootfs_open(&fs, "/");                    \
		if (!rc) {                                     \
			rc = (op);                             \
			rootfs_close(&fs);                     \
		}                                              \
	} while (0)

static int write_str(const char *dir, const char *file, const char *val)
{
	int rc;

	WITH_ROOT(rc, fs, cgroupfs_write(&fs, dir, file, val));
	return rc;
}

static bool file_has_word(const struct rootfs *fs, const char *dir, const char *file,
			  const char *word)
{
	char buf[CGROUP_FILE_CAP];

	return cgroupfs_read(fs, dir, file, buf, sizeof(buf)) == 0 && has_word(buf, word, " \n");
}

/* Choose the parent directory of our cgroup. */
static int find_parent(char *parent, size_t len, int *version, char *err, size_t errlen)
{
	/* On the heap: the caller's stack may be small. */
	struct scratch {
		struct cgroup_mounts m;
		struct cgroup_self self;
	} *sc = calloc(1, sizeof(*sc));
	struct rootfs fs;
	int rc;

	if (!sc) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = rootfs_open(&fs, "/");
	if (rc) {
		snprintf(err, errlen, "cannot open /: %s", strerror(-rc));
		free(sc);
		return rc;
	}
	rc = cgroup_read_mounts(&fs, &sc->m);
	if (rc) {
		snprintf(err, errlen, "cannot read the mounts (/proc/self/mountinfo): %s",
			 strerror(-rc));
	} else {
		rc = cgroup_read_self(&fs, &sc->self);
		if (rc)
			snprintf(err, errlen, "cannot read /proc/self/cgroup: %s", strerror(-rc));
	}
	if (rc)
		goto out;
	if (sc->m.v2[0] && file_has_word(&fs, sc->m.v2, "cgroup.controllers", "memory")) {
		*version = 2;
		rc = sc->self.v2[0] ? cgroupfs_dir(parent, len, sc->m.v2, sc->m.v2_root, sc->self.v2)
				    : -ENOENT;
		if (rc || !file_has_word(&fs, parent, "cgroup.subtree_control", "memory"))
			rc = snprintf(parent, len, "%s", sc->m.v2) >= (int)len ? -ENAMETOOLONG : 0;
		if (!rc && !file_has_word(&fs, parent, "cgroup.subtree_control", "memory")) {
			snprintf(err, errlen,
				 "the memory controller is not enabled in %s/cgroup.subtree_control",
				 parent);
			rc = -ENOTSUP;
		}
	} else if (sc->m.v1_memory[0]) {
		*version = 1;
		rc = sc->self.v1_memory[0] ? cgroupfs_dir(parent, len, sc->m.v1_memory,
							  sc->m.v1_memory_root, sc->self.v1_memory)
					   : -ENOENT;
		if (rc || rootfs_access(&fs, parent, W_OK) < 0)
			rc = snprintf(parent, len, "%s", sc->m.v1_memory) >= (int)len ? -ENAMETOOLONG
											 : 0;
		if (rc)
			snprintf(err, errlen, "cgroup path too long");
	} else {
		snprintf(err, errlen, "no cgroup hierarchy with the memory controller is mounted");
		rc = -ENOENT;
	}
out:
	rootfs_close(&fs);
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
	WITH_ROOT(rc, fs, cgroupfs_mkdir_fresh(&fs, cg->dir));
	if (rc) {
		snprintf(err, errlen, "cannot create %s: %s%s", cg->dir, strerror(-rc),
			 rc == -EACCES || rc == -EPERM || rc == -EROFS ? " (needs root)" : "");
		cg->dir[0] = '\0';
		return rc;
	}
	rc = set_limits(cg, limit_bytes, err, errlen);
	if (rc) {
		int r;

		WITH_ROOT(r, fs, rootfs_rmdir(&fs, cg->dir));
		(void)r;
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
	char buf[CGROUP_FILE_CAP];
	const char *file = cg->version == 2 ? "memory.events" : "memory.oom_control";
	int rc;

	WITH_ROOT(rc, fs, cgroupfs_read(&fs, cg->dir, file, buf, sizeof(buf)));
	return rc ? rc : cgroupfs_parse_key(buf, "oom_kill", kills);
}

int load_cgroup_remove(struct load_cgroup *cg)
{
	int rc;

	if (!cg->dir[0])
		return 0;
	WITH_ROOT(rc, fs, cgroupfs_rmdir_wait(&fs, cg->dir, RMDIR_TRIES, RMDIR_PAUSE_NS));
	if (rc == 0)
		cg->dir[0] = '\0';
	return rc;
}

void load_oom_prefer_self(void)
{
	int rc;

	/* Best effort: the cgroup limit is what confines the OOM. */
	WITH_ROOT(rc, fs, rootfs_write(&fs, "/proc/self/oom_score_adj", "1000", 4));
	(void)rc;
}
