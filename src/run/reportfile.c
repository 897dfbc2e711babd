// SPDX-License-Identifier: MIT
/*
 * The checker's record file of `run --check` (see reportfile.h). The file
 * must have a name: the program's processes open it themselves, after exec
 * and possibly as another user, so an unlinked (O_TMPFILE) or memfd file,
 * reachable only through /proc/PID/fd of rtready, would fail where /proc is
 * not mounted or not readable to them. A name outlives a kill -9 of
 * rtready, hence the owner's PID in it and the lock on it: the next run
 * removes what a dead one left.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/reportfile.h"
#include "util/parse.h"
#include "util/pid.h"

#define PREFIX "rtready-check."
#define STALE_MAX 4096	/* directory entries looked at, at most */

const char *run_report_file_dir(int *from_env)
{
	const char *dir = getenv("TMPDIR");

	*from_env = dir && *dir;
	return *from_env ? dir : "/tmp";
}

int run_report_file_create(const char *dir, char *path, size_t len, int *fd)
{
	int n = snprintf(path, len, "%s/" PREFIX "%ld.XXXXXX", dir, (long)getpid());

	*fd = -1;
	if (n < 0 || (size_t)n >= len) {
		if (len)
			path[0] = '\0';
		return -ENAMETOOLONG;
	}
	*fd = mkostemp(path, O_CLOEXEC);
	if (*fd < 0) {
		int err = -errno;

		path[0] = '\0';
		return err;
	}
	/* A new file nobody else has opened: the lock cannot be refused. */
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		int err = -errno;

		close(*fd);
		unlink(path);
		*fd = -1;
		path[0] = '\0';
		return err;
	}
	return 0;
}

/* The owner's PID from "rtready-check.PID.XXXXXX", or 0 when not that shape. */
static long owner_pid(const char *name)
{
	const char *p, *dot;
	char num[24];
	int64_t pid;

	if (strncmp(name, PREFIX, strlen(PREFIX)) != 0)
		return 0;
	p = name + strlen(PREFIX);
	dot = strchr(p, '.');
	if (!dot || dot == p || (size_t)(dot - p) >= sizeof(num) || strlen(dot + 1) != 6)
		return 0;
	memcpy(num, p, (size_t)(dot - p));
	num[dot - p] = '\0';
	if (parse_int64(num, 1, INT32_MAX, &pid))
		return 0;
	return (long)pid;
}

/*
 * Is the file at @name in @dfd, of an rtready that has ended, stale? Removes
 * it when so. Return: 1, 0 or -errno.
 */
static int clean_one(int dfd, const char *name)
{
	struct stat st;
	int fd, rc = 0;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		goto out;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		goto out;	/* held: an rtready of another PID namespace */
	rc = unlinkat(dfd, name, 0) < 0 ? -errno : 1;
out:
	close(fd);
	return rc;
}

int run_report_file_clean_stale(const char *dir,
				void (*fn)(void *ctx, const char *path, long pid, int err),
				void *ctx)
{
	struct dirent *de;
	int found = 0, dfd;
	size_t seen = 0;
	DIR *d;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((de = readdir(d)) && seen++ < STALE_MAX) {
		long pid = owner_pid(de->d_name);
		char path[4096];
		int rc;

		/* Its rtready (or a process with its PID) lives. */
		if (!pid_ended(pid))
			continue;
		rc = clean_one(dfd, de->d_name);
		if (!rc)
			continue;
		found++;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (fn)
			fn(ctx, path, pid, rc < 0 ? rc : 0);
	}
	closedir(d);
	return found;
}
