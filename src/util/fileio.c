// SPDX-License-Identifier: MIT
/* Write-all, capped whole-file reads and atomic, durable replaces; see fileio.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fileio.h"

/* The first buffer of a read: most files the tool reads are a page or less. */
#define FIRST_BUF 4096

int fileio_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int grow(char **bufp, size_t *sizep, size_t size)
{
	char *nbuf = realloc(*bufp, size);

	if (!nbuf)
		return -ENOMEM;
	*bufp = nbuf;
	*sizep = size;
	return 0;
}

int fileio_read_fd(int fd, size_t cap, size_t expect, unsigned flags, char **bufp, size_t *sizep,
		   size_t *lenp)
{
	size_t len = 0, size = *sizep, need = (flags & FILEIO_RECORDS) ? FILEIO_RECORD_MAX + 1 : 1;
	int err = 0;

	if (!*bufp || size < FIRST_BUF)
		size = FIRST_BUF;
	if (expect && expect < cap && expect + 1 > size)
		size = expect + 1;
	if ((size != *sizep || !*bufp) && grow(bufp, sizep, size))
		return -ENOMEM;
	for (;;) {
		size_t room;
		ssize_t n;

		if (len + need >= *sizep) {
			/* At the cap: the whole records so far (at least one, whatever the cap). */
			if ((flags & FILEIO_RECORDS) && *sizep >= cap && len)
				break;
			if (*sizep > ((size_t)-1) / 2) {
				err = -EFBIG;
				break;
			}
			err = grow(bufp, sizep, *sizep * 2);
			if (err)
				break;
			continue;
		}
		/* A record leaves a byte for its newline, and every read one for the NUL. */
		room = *sizep - len - ((flags & FILEIO_RECORDS) ? 2 : 1);
		if ((flags & FILEIO_HEAD) && room > cap - len)
			room = cap - len;
		n = read(fd, *bufp + len, room);
		if (n < 0 && (errno == EINTR || ((flags & FILEIO_RECORDS) && errno == EPIPE)))
			continue;
		if (n < 0 && (flags & FILEIO_RECORDS) && errno == EAGAIN)
			break;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if ((flags & FILEIO_RECORDS) && (*bufp)[len - 1] != '\n')
			(*bufp)[len++] = '\n';
		if (len > cap && !(flags & FILEIO_RECORDS)) {
			err = -EFBIG;
			break;
		}
		if ((flags & FILEIO_HEAD) && len == cap)
			break;
		/* A file with a size is whole once that much was read. */
		if (expect && len >= expect)
			break;
		if ((flags & FILEIO_ONE_RECORD) && len + 1 < *sizep)
			break;
	}
	if (err)
		return err;
	(*bufp)[len] = '\0';
	if (lenp)
		*lenp = len;
	return 0;
}

int fileio_read_all(int fd, size_t cap, unsigned flags, char **bufp, size_t *lenp)
{
	char *buf = NULL;
	size_t size = 0;
	int err = fileio_read_fd(fd, cap, 0, flags, &buf, &size, lenp);

	if (err) {
		free(buf);
		return err;
	}
	*bufp = buf;
	return 0;
}

/* fsync the directory that holds @name (in @dirfd, or a path when AT_FDCWD). */
static int sync_dir(int dirfd, const char *name)
{
	const char *slash;
	char *parent;
	int fd, err = 0;

	if (dirfd != AT_FDCWD)
		return fsync(dirfd) < 0 && errno != EINVAL ? -errno : 0;
	slash = strrchr(name, '/');
	if (!slash)
		parent = strdup(".");
	else if (slash == name)
		parent = strdup("/");
	else
		parent = strndup(name, (size_t)(slash - name));
	if (!parent)
		return -ENOMEM;
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	if (fd < 0)
		return -errno;
	/* EINVAL: a file system that cannot sync a directory (it keeps no such state). */
	if (fsync(fd) < 0 && errno != EINVAL)
		err = -errno;
	close(fd);
	return err;
}

int fileio_commit_at(int dirfd, const char *tmp, const char *name, int fd, int err)
{
	if (fd >= 0) {
		if (!err && fsync(fd) < 0)
			err = -errno;
		if (close(fd) < 0 && !err)
			err = -errno;
	}
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = -errno;
	if (err) {
		(void)unlinkat(dirfd, tmp, 0);
		return err;
	}
	/* The rename is durable only once the directory that records it is. */
	return sync_dir(dirfd, name);
}

int fileio_replace_at(int dirfd, const char *name, const char *tmp, mode_t mode,
		      const void *data, size_t len)
{
	int fd;

	(void)unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	return fileio_commit_at(dirfd, tmp, name, fd, fileio_write_all(fd, data, len));
}
