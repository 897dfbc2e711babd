// SPDX-License-Identifier: MIT
/* The user's output files, written whole or not at all; see output.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/output.h"

/*
 * Where an output goes, decided once from what the path names now:
 * - nothing, "-", or the very file standard output already is (/dev/stdout,
 *   /proc/self/fd/1, or the file it is redirected to): standard output;
 * - a device, a FIFO or a socket (or a link to one): written in place, never
 *   replaced, since renaming over /dev/null or a FIFO destroys the node;
 * - anything reached through /proc (/dev/fd/N and the like): in place,
 *   appended, since the name stands for an open file description;
 * - a regular file or a new name: a temporary file in the directory of the
 *   final file (links resolved, so a link stays a link), renamed over it at
 *   the end with the old file's mode and owner, so a failure half way never
 *   leaves a truncated result and a 0600 file stays 0600.
 */
enum out_kind { OUT_STDOUT, OUT_IN_PLACE, OUT_REPLACE, OUT_NEW };

struct out_target {
	enum out_kind kind;
	char *final;		/* OUT_REPLACE/OUT_NEW: the name to rename over */
	struct stat st;		/* OUT_REPLACE: the file being replaced */
	bool fifo;
};

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool under_proc(const char *real)
{
	return strncmp(real, "/proc/", 6) == 0;
}

static int out_resolve(const char *path, struct out_target *t)
{
	struct stat st, so;
	char *real;

	memset(t, 0, sizeof(*t));
	if (!path || strcmp(path, "-") == 0) {
		t->kind = OUT_STDOUT;
		return 0;
	}
	if (!*path)
		return -ENOENT;
	if (stat(path, &st) < 0) {
		struct stat lst;
		char *slash, *dir;
		int err = -errno;

		if (err != -ENOENT)
			return err;
		/* A dangling link: writing through it would create a file elsewhere. */
		if (lstat(path, &lst) == 0)
			return -ENOENT;
		/* A new file: its directory must exist and be a directory. */
		dir = strdup(path);
		if (!dir)
			return -ENOMEM;
		slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir ? 1 : 0] = '\0';
		err = stat(slash ? dir : ".", &lst) < 0 ? -errno : 0;
		if (!err && !S_ISDIR(lst.st_mode))
			err = -ENOTDIR;
		free(dir);
		if (err)
			return err;
		t->final = strdup(path);
		t->kind = OUT_NEW;
		return t->final ? 0 : -ENOMEM;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (fstat(STDOUT_FILENO, &so) == 0 && same_file(&st, &so)) {
		t->kind = OUT_STDOUT;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		t->kind = OUT_IN_PLACE;
		t->fifo = S_ISFIFO(st.st_mode);
		return 0;
	}
	real = realpath(path, NULL);
	if (!real)
		return -errno;
	if (under_proc(real)) {
		free(real);
		t->kind = OUT_IN_PLACE;
		return 0;
	}
	t->kind = OUT_REPLACE;
	t->final = real;
	t->st = st;
	return 0;
}

/* Open the temporary file beside t->final, with the mode the result will keep. */
static int out_tmp(const struct out_target *t, char **tmp)
{
	mode_t mask;
	int fd;

	if (asprintf(tmp, "%s.tmp.XXXXXX", t->final) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		free(*tmp);
		*tmp = NULL;
		return err;
	}
	if (t->kind == OUT_REPLACE) {
		/* Keep the owner where we may (root writing a user's file). */
		if ((t->st.st_uid != geteuid() || t->st.st_gid != getegid()) &&
		    fchown(fd, t->st.st_uid, t->st.st_gid) < 0 && errno != EPERM)
			goto fail;
		if (fchmod(fd, t->st.st_mode & 07777) < 0)
			goto fail;
	} else {
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) < 0)
			goto fail;
	}
	return fd;
fail:
	{
		int err = -errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return err;
	}
}

int output_open(struct output *o, const char *path)
{
	struct out_target t;
	int fd, err;

	memset(o, 0, sizeof(*o));
	err = out_resolve(path, &t);
	if (err)
		return err;
	switch (t.kind) {
	case OUT_STDOUT:
		o->fp = stdout;
		return 0;
	case OUT_IN_PLACE:
		/* No O_TRUNC: a device or a FIFO has nothing to cut, and a file
		 * reached through /proc is someone's open file we append to. */
		fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		o->in_place = true;
		break;
	default:
		fd = out_tmp(&t, &o->tmp);
		if (fd < 0) {
			free(t.final);
			return fd;
		}
		o->path = t.final;
		break;
	}
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		err = -errno;
		close(fd);
		if (o->tmp)
			unlink(o->tmp);
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return err;
	}
	return 0;
}

int output_reserve(struct output *o, const char *path)
{
	struct out_target t;
	int err;

	memset(o, 0, sizeof(*o));
	err = out_resolve(path, &t);
	if (err)
		return err;
	free(t.final);
	if (t.kind == OUT_STDOUT || t.kind == OUT_IN_PLACE)
		return output_open(o, path);
	err = output_check(path);
	if (err)
		return err;
	o->pending = strdup(path);
	return o->pending ? 0 : -ENOMEM;
}

int output_ready(struct output *o)
{
	char *path = o->pending;
	int err;

	if (!path)
		return o->fp ? 0 : -EBADF;
	err = output_open(o, path);
	free(path);
	return err;
}

int output_check(const char *path)
{
	struct out_target t;
	char *tmp = NULL;
	int fd, err;

	err = out_resolve(path, &t);
	if (err)
		return err;
	switch (t.kind) {
	case OUT_STDOUT:
		return 0;
	case OUT_IN_PLACE:
		/* A FIFO's reader may come later: opening it now could block. */
		if (t.fifo)
			return access(path, W_OK) < 0 ? -errno : 0;
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		close(fd);
		return 0;
	default:
		fd = out_tmp(&t, &tmp);
		free(t.final);
		if (fd < 0)
			return fd;
		close(fd);
		unlink(tmp);
		free(tmp);
		return 0;
	}
}

int output_is_input(const char *out, const char *in)
{
	struct stat so, si;

	if (!out || strcmp(out, "-") == 0 || stat(out, &so) < 0)
		return 0;
	if (strcmp(in, "-") == 0 ? fstat(STDIN_FILENO, &si) < 0 : stat(in, &si) < 0)
		return 0;
	return same_file(&so, &si);
}

/*
 * The name @path will have as a file: the real path of its deepest existing
 * ancestor, then the components that do not exist yet, with "." dropped and
 * ".." taking one back (a name that does not exist holds no link, so this
 * is what the kernel will resolve). NULL when out of memory or too long.
 */
static char *canon_path(const char *path)
{
	char *work = NULL, *real = NULL, *out = NULL;
	size_t cut, len;

	if (path[0] == '/')
		work = strdup(path);
	else {
		char *cwd = getcwd(NULL, 0);

		if (cwd && asprintf(&work, "%s/%s", cwd, path) < 0)
			work = NULL;
		free(cwd);
	}
	if (!work)
		return NULL;
	/* Find the deepest ancestor that exists (the root always does). */
	len = strlen(work);
	for (cut = len;; ) {
		char keep = work[cut];

		work[cut] = '\0';
		real = realpath(cut ? work : "/", NULL);
		work[cut] = keep;
		if (real || cut == 0)
			break;
		while (cut > 0 && work[cut - 1] == '/')
			cut--;
		while (cut > 0 && work[cut - 1] != '/')
			cut--;
	}
	if (!real)
		goto out;
	out = malloc(strlen(real) + len + 2);
	if (!out)
		goto out;
	strcpy(out, strcmp(real, "/") == 0 ? "" : real);
	/* The rest, one component at a time. */
	for (char *p = work + cut; *p; ) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(out, '/');

			if (slash)
				*slash = '\0';
		} else {
			strcat(out, "/");
			strncat(out, p, n);
		}
		p += n;
	}
	if (!out[0])
		strcpy(out, "/");
out:
	free(real);
	free(work);
	return out;
}

/*
 * Two names of one regular file (or of one file not made yet)? Outputs on
 * anything else are written in place and take several writers.
 */
static bool same_regular(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	char *ca, *cb;
	bool same;

	if (ea && eb)
		return S_ISREG(sa.st_mode) && same_file(&sa, &sb);
	if (ea != eb)
		return false;
	ca = canon_path(a);
	cb = canon_path(b);
	same = ca && cb && strcmp(ca, cb) == 0;
	if (!ca || !cb)
		same = strcmp(a, b) == 0;
	free(ca);
	free(cb);
	return same;
}

static bool is_stdout_name(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

int output_collisions(const struct output_file *outs, size_t n_outs,
		      const struct output_file *ins, size_t n_ins, char *err, size_t errlen)
{
	for (size_t a = 0; a < n_outs; a++) {
		if (is_stdout_name(outs[a].path))
			continue;
		for (size_t i = 0; i < n_ins; i++) {
			if (!ins[i].path || strcmp(ins[i].path, "-") == 0 ||
			    !same_regular(outs[a].path, ins[i].path))
				continue;
			snprintf(err, errlen, "%s '%s' is %s '%s': writing it would replace it; "
				 "name another file", outs[a].what, outs[a].path, ins[i].what,
				 ins[i].path);
			return -EINVAL;
		}
		for (size_t b = a + 1; b < n_outs; b++) {
			if (is_stdout_name(outs[b].path) || !same_regular(outs[a].path, outs[b].path))
				continue;
			snprintf(err, errlen, "%s '%s' and %s '%s' name the same file: one output "
				 "would replace the other; name two files", outs[a].what, outs[a].path,
				 outs[b].what, outs[b].path);
			return -EINVAL;
		}
	}
	return 0;
}

int output_close(struct output *o, bool ok)
{
	int err = 0, fd, rc;

	free(o->pending);
	o->pending = NULL;
	if (!o->fp)
		return 0;
	errno = 0;
	if (!o->path) {
		if (fflush(o->fp) == EOF || ferror(o->fp))
			err = errno ? -errno : -EIO;
		if (o->in_place && fclose(o->fp) == EOF && !err)
			err = -errno;
		o->fp = NULL;
		o->in_place = false;
		return err;
	}
	if (fflush(o->fp) == EOF || ferror(o->fp))
		err = errno ? -errno : -EIO;
	/* The stream goes; its file stays open for the fsync of the commit. */
	fd = dup(fileno(o->fp));
	if (fd < 0 && !err)
		err = -errno;
	if (fclose(o->fp) == EOF && !err)
		err = -errno;
	o->fp = NULL;
	/* Not ok: the temporary file is removed and nothing replaced. */
	rc = fileio_commit_at(AT_FDCWD, o->tmp, o->path, fd, ok ? err : -ECANCELED);
	err = ok ? rc : err;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return err;
}

