// SPDX-License-Identifier: MIT
/*
 * rtready snapshot DIR: capture exactly the files `check` reads, so that
 * `rtready check --root DIR` on another machine audits this one. The facts
 * are gathered once with a recorder on the root (every successful read
 * reports its path and bytes); the recorded files are then written under
 * DIR with their own paths, plus DIR/rtready-snapshot.json describing the
 * capture. Writing never leaves DIR: each path is checked, directories are
 * walked with O_NOFOLLOW, and files are created without following links.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "cli/cli.h"
#include "cli/cmd_snapshot.h"
#include "probe/facts.h"
#include "render/json.h"

#define META_NAME "rtready-snapshot.json"
#define PATH_MAX_LEN 1024
#define DEPTH_MAX 32

static const char usage_text[] =
	"Usage: rtready snapshot [OPTIONS] DIR\n"
	"\n"
	"Copy every file that 'rtready check' reads (under /proc, /sys, /etc, /boot)\n"
	"into DIR, keeping their paths, so that 'rtready check --root DIR' audits this\n"
	"machine from anywhere. DIR/" META_NAME " records the host, date, version\n"
	"and file count.\n"
	"\n"
	"  -r, --root SRC   capture the tree under SRC instead of the live system\n"
	"  -f, --force      write into DIR even when it is not empty\n"
	"  -h, --help       show this help\n"
	"  -V, --version    show the version\n"
	"\n"
	"Exit status: 0 written, 2 usage error or the snapshot could not be written.\n";

int snapshot_opts_parse(int argc, char **argv, struct snapshot_opts *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->root = "/";
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:fhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (cli_parse_root(optarg, &o->root, err, errlen))
				return -EINVAL;
			break;
		case 'f':
			o->force = true;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (o->help || o->version)
		return 0;
	if (optind >= argc) {
		snprintf(err, errlen, "missing the directory to write (rtready snapshot DIR)");
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind + 1]);
		return -EINVAL;
	}
	o->dir = argv[optind];
	if (!*o->dir) {
		snprintf(err, errlen, "the directory name is empty");
		return -EINVAL;
	}
	return 0;
}

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
	return strcmp(path, "/" META_NAME) != 0;
}

/* ---- recording ------------------------------------------------------- */

struct entry {
	char *path;
	char *data;	/* file content, or NULL for a link */
	size_t len;
	char *target;	/* link target, or NULL for a file */
};

struct recording {
	struct entry *e;
	size_t n, cap;
	size_t *slot;	/* open-addressing hash: index + 1, 0 free */
	size_t nslots;
	size_t refused;	/* paths that cannot be written safely */
	struct left_out {
		char *path;
		int err;	/* -EFBIG too large, -EINVAL not a regular file */
	} *left;	/* files that exist but were not captured, in order */
	size_t n_left;
	int err;	/* sticky -ENOMEM */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int rehash(struct recording *r)
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
static struct entry *lookup(struct recording *r, const char *path)
{
	size_t h;

	if ((r->n + 1) * 2 > r->nslots && rehash(r))
		return NULL;
	h = hash(path) & (r->nslots - 1);
	while (r->slot[h]) {
		struct entry *e = &r->e[r->slot[h] - 1];

		if (strcmp(e->path, path) == 0)
			return e;
		h = (h + 1) & (r->nslots - 1);
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct entry *ne = realloc(r->e, cap * sizeof(*ne));

		if (!ne)
			return NULL;
		r->e = ne;
		r->cap = cap;
	}
	memset(&r->e[r->n], 0, sizeof(r->e[r->n]));
	r->e[r->n].path = strdup(path);
	if (!r->e[r->n].path)
		return NULL;
	r->slot[h] = ++r->n;
	return &r->e[r->n - 1];
}

static void on_file(void *ctx, const char *path, const char *data, size_t len)
{
	struct recording *r = ctx;
	struct entry *e;
	char *copy;

	if (r->err)
		return;
	if (!snapshot_path_ok(path)) {
		r->refused++;
		return;
	}
	e = lookup(r, path);
	if (!e) {
		r->err = -ENOMEM;
		return;
	}
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
	struct recording *r = ctx;
	struct entry *e;

	if (r->err)
		return;
	if (!snapshot_path_ok(path)) {
		r->refused++;
		return;
	}
	e = lookup(r, path);
	if (!e) {
		r->err = -ENOMEM;
		return;
	}
	if (e->data || e->target)
		return;
	e->target = strdup(target);
	if (!e->target)
		r->err = -ENOMEM;
}

/* A file check tried to read but rootfs refused: say so, never drop it silently. */
static void on_refused(void *ctx, const char *path, int err)
{
	struct recording *r = ctx;
	struct left_out *nl;

	if (r->err)
		return;
	for (size_t i = 0; i < r->n_left; i++)
		if (strcmp(r->left[i].path, path) == 0)
			return;
	nl = realloc(r->left, (r->n_left + 1) * sizeof(*nl));
	if (!nl) {
		r->err = -ENOMEM;
		return;
	}
	r->left = nl;
	nl[r->n_left].path = strdup(path);
	nl[r->n_left].err = err;
	if (!nl[r->n_left].path) {
		r->err = -ENOMEM;
		return;
	}
	r->n_left++;
}

static const char *left_reason(int err)
{
	return err == -EFBIG ? "larger than the size cap" : "not a regular file (FIFO, device "
								 "or socket)";
}

static void recording_free(struct recording *r)
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

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_entry(int top, const struct entry *e, struct dircache *dc)
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
	err = fchmod(fd, 0644) < 0 ? -errno : write_all(fd, e->data, e->len);
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

/* Create DIR (one level) or accept it empty, or non-empty with --force. */
static int open_target(const struct snapshot_opts *o)
{
	struct dirent *de;
	bool empty = true;
	DIR *d;
	int fd;

	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		cli_error("snapshot", "cannot create %s: %s", o->dir, strerror(errno));
		return -errno;
	}
	fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		cli_error("snapshot", "cannot open %s: %s", o->dir, strerror(-err));
		return err;
	}
	d = fdopendir(dup(fd));
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!empty && !o->force) {
		cli_error("snapshot", "%s is not empty (use --force to write into it)", o->dir);
		close(fd);
		return -EEXIST;
	}
	return fd;
}

static void iso_date(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(int top, const struct snapshot_opts *o, const struct rootfs *fs,
		      const struct facts *f, const struct recording *rec, size_t files,
		      size_t links)
{
	char hostname[256] = "", date[32], online[4096];
	struct host_info host = { 0 };
	struct entry meta = { 0 };
	struct dircache dc = { "", -1 };
	json_t *j, *left;
	char *text;
	int err;

	/* Read outside the recording: it describes the capture, check never reads it. */
	if (rootfs_read_str(fs, "/proc/sys/kernel/hostname", hostname, sizeof(hostname)))
		hostname[0] = '\0';
	iso_date(date, sizeof(date));
	rtr_cpuset_format_list(&f->cpu.online, online, sizeof(online));
	host.kernel = (char *)f->kernel.release;
	host.cpus_online = online;
	host.rt_cpus = "";
	host.root = (char *)o->root;
	j = json_envelope("snapshot", &host);
	if (!j)
		return -ENOMEM;
	json_object_set_new(j, "hostname", json_text(hostname));
	json_object_set_new(j, "date", json_text(date));
	json_object_set_new(j, "files", json_integer((json_int_t)files));
	json_object_set_new(j, "links", json_integer((json_int_t)links));
	/* What check would have read but the capture refused, so --root shows why it skips. */
	left = json_array();
	for (size_t i = 0; left && i < rec->n_left; i++)
		json_array_append_new(left, json_pack("{s:o, s:s}", "path",
						      json_text(rec->left[i].path), "reason",
						      left_reason(rec->left[i].err)));
	json_object_set_new(j, "left_out", left);
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	if (!text)
		return -ENOMEM;
	meta.len = strlen(text);
	meta.data = realloc(text, meta.len + 2);
	if (!meta.data) {
		free(text);
		return -ENOMEM;
	}
	text = meta.data;
	text[meta.len++] = '\n';
	meta.path = "/" META_NAME;
	err = write_entry(top, &meta, &dc);
	if (dc.fd >= 0)
		close(dc.fd);
	free(text);
	return err;
}

static int snapshot_run(const struct snapshot_opts *o)
{
	struct recording rec = { 0 };
	struct rootfs_recorder hook = { on_file, on_link, on_refused, &rec };
	struct dircache dc = { "", -1 };
	size_t files = 0, links = 0;
	struct rootfs fs;
	struct facts f;
	int top, err;

	err = rootfs_open(&fs, o->root);
	if (err) {
		cli_error("snapshot", "cannot open root directory %s: %s", o->root, strerror(-err));
		return err;
	}
	top = open_target(o);
	if (top < 0) {
		rootfs_close(&fs);
		return top;
	}
	fs.rec = &hook;
	err = facts_gather(&fs, &f);
	fs.rec = NULL;
	if (err) {
		cli_error("snapshot", "cannot gather facts: %s", strerror(-err));
		goto out;
	}
	err = rec.err;
	if (err)
		cli_error("snapshot", "cannot record the files read: %s", strerror(-err));
	if (!err)
		qsort(rec.e, rec.n, sizeof(*rec.e), cmp_entry);
	for (size_t i = 0; i < rec.n && !err; i++) {
		err = write_entry(top, &rec.e[i], &dc);
		if (err)
			cli_error("snapshot", "cannot write %s%s: %s", o->dir, rec.e[i].path,
				  strerror(-err));
		else if (rec.e[i].target)
			links++;
		else
			files++;
	}
	if (!err) {
		err = write_meta(top, o, &fs, &f, &rec, files, links);
		if (err)
			cli_error("snapshot", "cannot write %s/" META_NAME ": %s", o->dir,
				  strerror(-err));
	}
	if (!err) {
		printf("%zu files and %zu links from %s written to %s\n", files, links, o->root,
		       o->dir);
		if (rec.refused)
			cli_warn("snapshot", "%zu paths with unsafe names were left out",
				 rec.refused);
		for (size_t i = 0; i < rec.n_left; i++)
			cli_warn("snapshot", "not captured: %s%s: %s", strcmp(o->root, "/") ?
				 o->root : "", rec.left[i].path, left_reason(rec.left[i].err));
	}
	facts_free(&f);
out:
	if (dc.fd >= 0)
		close(dc.fd);
	close(top);
	rootfs_close(&fs);
	recording_free(&rec);
	return err;
}

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_opts o;
	char err[512] = "";

	if (snapshot_opts_parse(argc, argv, &o, err, sizeof(err))) {
		cli_error("snapshot", "%s", err);
		fputs("Try 'rtready snapshot --help'.\n", stderr);
		return EXIT_USAGE;
	}
	if (o.help) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (o.version) {
		cli_version();
		return EXIT_OK;
	}
	return snapshot_run(&o) ? EXIT_USAGE : EXIT_OK;
}
