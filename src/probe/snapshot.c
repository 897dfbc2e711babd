// SPDX-License-Identifier: MIT
/* The snapshot engine: record what the probes read, write it under a directory; see snapshot.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/placement.h"
#include "probe/snapshot.h"
#include "util/fileio.h"
#include "util/grow.h"

#define PATH_MAX_LEN 1024
#define DEPTH_MAX 32

bool snapshot_path_ok(const char *path)
{
	size_t len = strlen(path), depth = 0;
	const char *p = path;

	if (path[0] != '/' || len >= PATH_MAX_LEN)
		return false;
	while (*p) {
		const char *start = ++p, *end = strchr(start, '/');
		size_t n = end ? (size_t)(end - start) : strlen(start);

		if (n == 0 || (n == 1 && start[0] == '.') ||
		    (n == 2 && start[0] == '.' && start[1] == '.') || ++depth > DEPTH_MAX)
			return false;
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)start[i] < 0x20 || start[i] == 0x7f)
				return false;
		p = start + n;
	}
	/* The metadata file's name at the top is ours. */
	return strcmp(path, "/" SNAPSHOT_META_NAME) != 0;
}

/* ---- recording ------------------------------------------------------- */

struct snapshot_entry {
	char *path;
	char *data;	/* file content, or NULL for a link */
	size_t len;
	char *target;	/* link target, or NULL for a file */
};


static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int rehash(struct snapshot *r)
{
	size_t n = r->nslots ? r->nslots * 2 : 1024;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		size_t h = hash(r->e[i].path) & (n - 1);

		while (slot[h])
			h = (h + 1) & (n - 1);
		slot[h] = i + 1;
	}
	free(r->slot);
	r->slot = slot;
	r->nslots = n;
	return 0;
}

/* The entry for @path, created empty when new; NULL on ENOMEM. */
static struct snapshot_entry *lookup(struct snapshot *r, const char *path)
{
	size_t h;

	if ((r->n + 1) * 2 > r->nslots && rehash(r))
		return NULL;
	h = hash(path) & (r->nslots - 1);
	while (r->slot[h]) {
		struct snapshot_entry *e = &r->e[r->slot[h] - 1];

		if (strcmp(e->path, path) == 0)
			return e;
		h = (h + 1) & (r->nslots - 1);
	}
	if (grow_array((void **)&r->e, &r->cap, r->n, sizeof(*r->e), SIZE_MAX / sizeof(*r->e)))
		return NULL;
	memset(&r->e[r->n], 0, sizeof(r->e[r->n]));
	r->e[r->n].path = strdup(path);
	if (!r->e[r->n].path)
		return NULL;
	r->slot[h] = ++r->n;
	return &r->e[r->n - 1];
}

/*
 * The entry a read of @path goes to, or NULL when the snapshot takes
 * nothing more: an earlier error, an unsafe path (counted), or no memory
 * (r->err set).
 */
static struct snapshot_entry *entry_for(struct snapshot *r, const char *path)
{
	struct snapshot_entry *e;

	if (r->err)
		return NULL;
	if (!snapshot_path_ok(path)) {
		r->unsafe++;
		return NULL;
	}
	e = lookup(r, path);
	if (!e)
		r->err = -ENOMEM;
	return e;
}

static void on_file(void *ctx, const char *path, const char *data, size_t len)
{
	struct snapshot *r = ctx;
	struct snapshot_entry *e = entry_for(r, path);
	char *copy;

	if (!e)
		return;
	/* Read twice (whole, then trimmed): keep the longer, it holds the other. */
	if (e->data && e->len >= len)
		return;
	copy = malloc(len ? len : 1);
	if (!copy) {
		r->err = -ENOMEM;
		return;
	}
	memcpy(copy, data, len);
	free(e->data);
	free(e->target);
	e->target = NULL;
	e->data = copy;
	e->len = len;
}

static void on_link(void *ctx, const char *path, const char *target)
{
	struct snapshot *r = ctx;
	struct snapshot_entry *e = entry_for(r, path);

	if (!e || e->data || e->target)
		return;
	e->target = strdup(target);
	if (!e->target)
		r->err = -ENOMEM;
}

/* A file check tried to read but rootfs refused: say so, never drop it silently. */
static void on_refused(void *ctx, const char *path, int err)
{
	struct snapshot *r = ctx;
	struct snapshot_left *nl;

	if (r->err)
		return;
	for (size_t i = 0; i < r->n_left; i++)
		if (strcmp(r->left[i].path, path) == 0)
			return;
	if (grow_array((void **)&r->left, &r->cap_left, r->n_left, sizeof(*r->left),
		       SIZE_MAX / sizeof(*r->left))) {
		r->err = -ENOMEM;
		return;
	}
	nl = r->left;
	nl[r->n_left].path = strdup(path);
	nl[r->n_left].err = err;
	if (!nl[r->n_left].path) {
		r->err = -ENOMEM;
		return;
	}
	r->n_left++;
}

const char *snapshot_left_reason(int err)
{
	return err == -EFBIG ? "larger than the size cap" : "not a regular file (FIFO, device "
								 "or socket)";
}

void snapshot_free(struct snapshot *r)
{
	for (size_t i = 0; i < r->n_left; i++)
		free(r->left[i].path);
	free(r->left);
	for (size_t i = 0; i < r->n; i++) {
		free(r->e[i].path);
		free(r->e[i].data);
		free(r->e[i].target);
	}
	free(r->e);
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

/* ---- writing ----------------------------------------------------------- */

/*
 * Open (creating) directory @name under @dirfd, never through a symlink:
 * with --force over an old tree, a link where a directory belongs (DIR/proc
 * -> /proc) is removed and replaced by a real directory.
 */
static int open_subdir(int dirfd, const char *name)
{
	struct stat st;
	int fd;

	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if ((errno != ENOTDIR && errno != ELOOP) ||
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode))
		return -errno;
	if (unlinkat(dirfd, name, 0) < 0 || mkdirat(dirfd, name, 0755) < 0)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * The directory that holds @path under @top, created as needed; @cache
 * keeps the last one, since sorted paths share parents.
 */
struct dircache {
	char parent[PATH_MAX_LEN];
	int fd;
};

static int parent_dir(int top, const char *path, struct dircache *dc, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t plen = (size_t)(slash - path);
	char buf[PATH_MAX_LEN], *save = NULL;
	int fd;

	*base = slash + 1;
	if (dc->fd >= 0 && strlen(dc->parent) == plen && memcmp(dc->parent, path, plen) == 0)
		return dc->fd;
	if (dc->fd >= 0 && dc->fd != top)
		close(dc->fd);
	dc->fd = -1;
	memcpy(buf, path, plen);
	buf[plen] = '\0';
	fd = dup(top);
	if (fd < 0)
		return -errno;
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		int sub = open_subdir(fd, c);

		close(fd);
		if (sub < 0)
			return sub;
		fd = sub;
	}
	memcpy(dc->parent, path, plen);
	dc->parent[plen] = '\0';
	dc->fd = fd;
	return fd;
}

static int write_entry(int top, const struct snapshot_entry *e, struct dircache *dc)
{
	const char *base;
	int dir = parent_dir(top, e->path, dc, &base), fd, err;

	if (dir < 0)
		return dir;
	if (e->target) {
		/* A link is recorded for its text only (check reads it with readlink). */
		unlinkat(dir, base, 0);
		return symlinkat(e->target, dir, base) < 0 ? -errno : 0;
	}
	fd = openat(dir, base, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ELOOP) {
		/* --force over an old snapshot: replace a link, never write through it. */
		if (unlinkat(dir, base, 0) < 0)
			return -errno;
		fd = openat(dir, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		return -errno;
	err = fchmod(fd, 0644) < 0 ? -errno : fileio_write_all(fd, e->data, e->len);
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct snapshot_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

int snapshot_record(struct rootfs *fs, struct snapshot *s, struct facts *f)
{
	struct rootfs_recorder hook = { on_file, on_link, on_refused, s };
	const struct rootfs_recorder *old = fs->rec;
	int err;

	memset(s, 0, sizeof(*s));
	fs->rec = &hook;
	err = facts_gather(fs, f);
	if (!err) {
		/* What `plan --root` reads beyond the facts: the interfaces' nodes (--near IFACE). */
		struct net_node *nets;
		size_t n_nets;

		if (probe_net_nodes(fs, &nets, &n_nets) == -ENOMEM)
			err = -ENOMEM;
		else
			free(nets);
	}
	fs->rec = old;
	return err ? err : s->err;
}

int snapshot_write(int top, struct snapshot *s, const char **failed)
{
	struct dircache dc = { "", -1 };
	int err = 0;

	*failed = NULL;
	s->files = s->links = 0;
	qsort(s->e, s->n, sizeof(*s->e), cmp_entry);
	for (size_t i = 0; i < s->n && !err; i++) {
		err = write_entry(top, &s->e[i], &dc);
		if (err)
			*failed = s->e[i].path;
		else if (s->e[i].target)
			s->links++;
		else
			s->files++;
	}
	if (dc.fd >= 0)
		close(dc.fd);
	return err;
}

int snapshot_write_file(int top, const char *path, const char *data, size_t len)
{
	struct snapshot_entry e = { (char *)path, (char *)data, len, NULL };
	struct dircache dc = { "", -1 };
	int err = write_entry(top, &e, &dc);

	if (dc.fd >= 0)
		close(dc.fd);
	return err;
}

int snapshot_dir_open(const char *dir, bool force, char *err, size_t errlen)
{
	struct dirent *de;
	bool empty = true;
	DIR *d;
	int fd;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fd = -errno;
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(-fd));
		return fd;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(-fd));
		return fd;
	}
	d = fdopendir(dup(fd));
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!empty && !force) {
		snprintf(err, errlen, "%s is not empty (use --force to write into it)", dir);
		close(fd);
		return -EEXIST;
	}
	return fd;
}

void snapshot_meta_read(const struct rootfs *fs, const struct facts *f, const char *root,
			struct snapshot_meta *m)
{
	time_t now = time(NULL);
	struct tm tm;

	if (rootfs_read_str(fs, "/proc/sys/kernel/hostname", m->hostname, sizeof(m->hostname)))
		m->hostname[0] = '\0';
	gmtime_r(&now, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rtr_cpuset_format_list(&f->cpu.online, m->online, sizeof(m->online));
	m->kernel = f->kernel.release;
	m->root = root;
}
