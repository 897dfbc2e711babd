// SPDX-License-Identifier: MIT
/*
 * What plan must not overwrite: the files it read under the root, and the
 * root's /proc and /sys (and a snapshot's other top directories). It stats
 * the user's --output and the directories above it; see session.h.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/session.h"

void read_log_add(void *ctx, const char *path, const char *data, size_t len)
{
	struct read_log *l = ctx;
	char **p;

	(void)data;
	(void)len;
	if (l->err || strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0)
		return;
	p = realloc(l->paths, (l->n + 1) * sizeof(*p));
	if (!p || !(p[l->n] = strdup(path))) {
		if (p)
			l->paths = p;
		l->err = -ENOMEM;
		return;
	}
	l->paths = p;
	l->n++;
}

void read_log_free(struct read_log *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
}

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* A new file's @path with its directory resolved; NULL when it cannot be. */
static char *resolve_output(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *dir = NULL, *out = NULL;

	if (d && b && (dir = realpath(dirname(d), NULL)) &&
	    asprintf(&out, "%s/%s", strcmp(dir, "/") ? dir : "", basename(b)) < 0)
		out = NULL;
	free(dir);
	free(d);
	free(b);
	return out;
}

int plan_output_guard(const char *output, const struct rootfs *fs, const struct read_log *log,
		      const struct say *s)
{
	static const char *const whole[] = { "proc", "sys", "etc", "boot", "lib", "dev" };
	size_t n_whole = fs->host ? 2 : sizeof(whole) / sizeof(whole[0]);
	struct stat so, st, top[sizeof(whole) / sizeof(whole[0])];
	bool have[sizeof(whole) / sizeof(whole[0])] = { false };
	bool exists;
	char *real, *cut;
	int err = 0;

	if (!output || strcmp(output, "-") == 0)
		return 0;
	exists = stat(output, &so) == 0;
	if (exists && fstat(STDOUT_FILENO, &st) == 0 && same_inode(&so, &st))
		return 0;
	for (size_t i = 0; i < n_whole; i++)
		have[i] = fstatat(fs->dirfd, whole[i], &top[i], 0) == 0 && S_ISDIR(top[i].st_mode);
	real = exists ? realpath(output, NULL) : resolve_output(output);
	/* The output and each directory above it, up to /. */
	for (cut = real ? real + strlen(real) : NULL; cut && !err;) {
		*cut = '\0';
		if (stat(*real ? real : "/", &st) == 0)
			for (size_t i = 0; i < n_whole && !err; i++)
				if (have[i] && same_inode(&st, &top[i])) {
					say(s, false, "--output %s is inside %s%s%s, which plan "
					    "reads: write the plan outside it", output, fs->path,
					    fs->path[0] && fs->path[strlen(fs->path) - 1] == '/' ?
					    "" : "/", whole[i]);
					err = -EINVAL;
				}
		cut = *real ? strrchr(real, '/') : NULL;
	}
	free(real);
	for (size_t i = 0; exists && log && i < log->n && !err; i++) {
		int fd = rootfs_open_file(fs, log->paths[i]);

		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && same_inode(&st, &so)) {
			say(s, false, "--output %s is %s of the root %s, which plan reads: write "
			    "the plan elsewhere", output, log->paths[i], fs->path);
			err = -EINVAL;
		}
		close(fd);
	}
	return err;
}
