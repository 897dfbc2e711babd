// SPDX-License-Identifier: MIT
/* Helpers shared by the subcommands; see cli.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_plan.h"
#include "util/fileio.h"
#include "util/parse.h"

__attribute__((format(printf, 3, 0)))
static void vmsg(const char *kind, const char *cmd, const char *fmt, va_list ap)
{
	fputs("rtready: ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, cmd, fmt, ap);
	va_end(ap);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", cmd, fmt, ap);
	va_end(ap);
}

void cli_version(void)
{
	printf("rtready %s\n", RTR_VERSION);
}

int cli_parsed(const char *cmd, int parse_rc, const char *err, bool help, bool version,
	       const char *usage)
{
	if (parse_rc) {
		cli_error(cmd, "%s", err);
		fprintf(stderr, "Try 'rtready %s --help'.\n", cmd);
		return EXIT_USAGE;
	}
	if (help) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (version) {
		cli_version();
		return EXIT_OK;
	}
	return -1;
}

int cli_parse_format(const char *arg, enum output_format *out, char *err, size_t errlen)
{
	if (strcmp(arg, "text") == 0)
		*out = FORMAT_TEXT;
	else if (strcmp(arg, "json") == 0)
		*out = FORMAT_JSON;
	else {
		snprintf(err, errlen, "--format: '%s' is not one of text, json", arg);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_root(const char *arg, const char **out, char *err, size_t errlen)
{
	/* An empty name would resolve to the working directory or, worse, to "/". */
	if (!*arg) {
		snprintf(err, errlen, "--root: empty directory name (use --root / for this machine)");
		return -EINVAL;
	}
	*out = arg;
	return 0;
}

int cli_parse_cpulist(const char *opt, const char *arg, struct rtr_cpuset *out, char *err,
		      size_t errlen)
{
	int rc = rtr_cpuset_parse_list(out, arg);

	if (rc == -ERANGE) {
		snprintf(err, errlen, "%s: '%s': CPU number too large", opt, arg);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, errlen, "%s: '%s' is not a CPU list (like 0-3,8,10-11)", opt, arg);
		return -EINVAL;
	}
	if (rtr_cpuset_is_empty(out)) {
		snprintf(err, errlen, "%s: empty CPU list", opt);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_rt_cpus(const char *opt, const char *arg, struct rtr_cpuset *out, size_t *auto_n,
		      char *err, size_t errlen)
{
	int64_t n;

	*auto_n = 0;
	if (strcmp(arg, "auto") == 0) {
		*auto_n = 1;
		return 0;
	}
	if (strncmp(arg, "auto:", 5) == 0) {
		if (parse_int64(arg + 5, 1, RTR_CPUSET_MAX_CPUS, &n)) {
			snprintf(err, errlen, "%s: '%s': auto:N needs a CPU count of 1 or more", opt,
				 arg);
			return -EINVAL;
		}
		*auto_n = (size_t)n + 1;
		return 0;
	}
	return cli_parse_cpulist(opt, arg, out, err, errlen);
}

int cli_resolve_rt_cpus(const char *cmd, const char *opt, const char *root, size_t auto_n,
			struct rtr_cpuset *cpus)
{
	char err[768];
	int rc;

	if (!auto_n)
		return 0;
	rc = plan_auto_rt_cpus(root, auto_n - 1, cpus, err, sizeof(err));
	if (rc)
		cli_error(cmd, "%s auto: %s", opt, err);
	return rc;
}

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

int cli_output_open(struct cli_output *o, const char *path)
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

int cli_output_reserve(struct cli_output *o, const char *path)
{
	struct out_target t;
	int err;

	memset(o, 0, sizeof(*o));
	err = out_resolve(path, &t);
	if (err)
		return err;
	free(t.final);
	if (t.kind == OUT_STDOUT || t.kind == OUT_IN_PLACE)
		return cli_output_open(o, path);
	err = cli_output_check(path);
	if (err)
		return err;
	o->pending = strdup(path);
	return o->pending ? 0 : -ENOMEM;
}

int cli_output_ready(struct cli_output *o)
{
	char *path = o->pending;
	int err;

	if (!path)
		return o->fp ? 0 : -EBADF;
	err = cli_output_open(o, path);
	free(path);
	return err;
}

int cli_output_check(const char *path)
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

int cli_output_is_input(const char *out, const char *in)
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

int cli_check_collisions(const char *cmd, const struct cli_file *outs, size_t n_outs,
			 const struct cli_file *ins, size_t n_ins)
{
	for (size_t a = 0; a < n_outs; a++) {
		if (is_stdout_name(outs[a].path))
			continue;
		for (size_t i = 0; i < n_ins; i++) {
			if (!ins[i].path || strcmp(ins[i].path, "-") == 0 ||
			    !same_regular(outs[a].path, ins[i].path))
				continue;
			cli_error(cmd, "%s '%s' is %s '%s': writing it would replace it; name "
				  "another file", outs[a].what, outs[a].path, ins[i].what,
				  ins[i].path);
			return -EINVAL;
		}
		for (size_t b = a + 1; b < n_outs; b++) {
			if (is_stdout_name(outs[b].path) || !same_regular(outs[a].path, outs[b].path))
				continue;
			cli_error(cmd, "%s '%s' and %s '%s' name the same file: one output would "
				  "replace the other; name two files", outs[a].what, outs[a].path,
				  outs[b].what, outs[b].path);
			return -EINVAL;
		}
	}
	return 0;
}

int cli_output_close(struct cli_output *o, bool ok)
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

int cli_host_info(const struct host_facts *h, const char *root, struct host_info *out)
{
	int err = report_set_host(&out->kernel, h->release);

	err = err ?: report_set_host(&out->cpus_online, h->online_list);
	err = err ?: report_set_host(&out->rt_cpus, h->rt_list);
	return err ?: report_set_host(&out->root, root);
}

int cli_host_live(struct host_info *out)
{
	struct host_facts h;
	struct rootfs fs;
	int err = rootfs_open(&fs, "/");

	if (err)
		return report_set_host(&out->root, "/");
	err = probe_host(&fs, NULL, &h);
	/* What could not be read stays empty; only memory failures stop. */
	err = err == -ENOMEM ? err : cli_host_info(&h, "/", out);
	probe_host_free(&h);
	rootfs_close(&fs);
	return err;
}

bool cli_use_color(FILE *fp)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if (nc && *nc)
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(fp));
}

/*
 * The only mutable state at file scope in src/cli (docs/ARCHITECTURE.md):
 * a signal handler is called with no context, so the flag it sets cannot be
 * handed to it, and each command runs once per process.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

const volatile sig_atomic_t *cli_stop_catch(struct cli_stop *saved)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, saved ? &saved->old_int : NULL);
	sigaction(SIGTERM, &sa, saved ? &saved->old_term : NULL);
	return &stop_signal;
}

void cli_stop_release(const struct cli_stop *saved)
{
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
}
