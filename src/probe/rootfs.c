// SPDX-License-Identifier: MIT
/* Bounded, root-confined reads of system files; see rootfs.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "probe/rootfs.h"
#include "util/fileio.h"

/* At most this many path components in a fallback walk. */
#define MAX_COMPONENTS 64

int rootfs_open(struct rootfs *fs, const char *root)
{
	struct stat st;
	int fd;

	fs->dirfd = -1;
	fs->rec = NULL;
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= sizeof(fs->path))
		return -ENAMETOOLONG;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	fs->dirfd = fd;
	snprintf(fs->path, sizeof(fs->path), "%s", root);
	{
		struct stat rst;

		fs->host = stat("/", &rst) == 0 && rst.st_dev == st.st_dev &&
			   rst.st_ino == st.st_ino;
	}
	return 0;
}

void rootfs_close(struct rootfs *fs)
{
	if (fs && fs->dirfd >= 0) {
		close(fs->dirfd);
		fs->dirfd = -1;
	}
}

int rootfs_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The path relative to the root: strip leading slashes ("" means the root). */
static const char *relative(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/*
 * /proc/self and /proc/thread-self are links, which neither the fallback
 * walk (it refuses links) nor a write (it follows none) can pass: on the
 * live root they are spelt out with our own ids (those of the calling
 * process, also in a child after fork()). Return: @path itself, @buf with
 * the spelt-out path, or NULL when it does not fit.
 */
static const char *spell_self(const struct rootfs *fs, const char *path, char *buf, size_t len)
{
	int n;

	if (!fs->host)
		return path;
	if (strncmp(path, "/proc/self/", 11) == 0)
		n = snprintf(buf, len, "/proc/%ld/%s", (long)getpid(), path + 11);
	else if (strncmp(path, "/proc/thread-self/", 18) == 0)
		n = snprintf(buf, len, "/proc/%ld/task/%ld/%s", (long)getpid(),
			     (long)syscall(SYS_gettid), path + 18);
	else
		return path;
	return n < 0 || (size_t)n >= len ? NULL : buf;
}

/*
 * Fallback for kernels without openat2 (before 5.6): walk component by
 * component with O_NOFOLLOW, refusing "..", so that nothing can leave the
 * root; symlinks are refused rather than resolved.
 */
static int walk_open(const struct rootfs *fs, const char *path, int flags)
{
	char copy[4096], own[4096], *save = NULL, *part, *next;
	int dir, fd, n = 0;

	path = spell_self(fs, path, own, sizeof(own));
	if (!path || strlen(path) >= sizeof(copy))
		return -ENAMETOOLONG;
	strcpy(copy, relative(path));
	dir = dup(fs->dirfd);
	if (dir < 0)
		return -errno;
	part = strtok_r(copy, "/", &save);
	while (part) {
		next = strtok_r(NULL, "/", &save);
		if (strcmp(part, "..") == 0 || ++n > MAX_COMPONENTS) {
			close(dir);
			return -EXDEV;
		}
		fd = openat(dir, part, (next ? O_RDONLY | O_DIRECTORY : flags) | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			int err = -errno;

			close(dir);
			return err;
		}
		close(dir);
		dir = fd;
		part = next;
	}
	return dir;
}

/* @resolve: more RESOLVE_* flags (RESOLVE_NO_SYMLINKS for writes). */
static int open_in_root_how(const struct rootfs *fs, const char *path, int flags,
			    uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | resolve,
	};
	long fd;

	if (fs->dirfd < 0)
		return -EBADF;
	fd = syscall(SYS_openat2, fs->dirfd, relative(path), &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == ENOSYS)
		return walk_open(fs, path, flags);
	return -errno;
}

static int open_in_root(const struct rootfs *fs, const char *path, int flags)
{
	return open_in_root_how(fs, path, flags, 0);
}

/* Open a regular file in the root; *size gets its stat size (0 for procfs/sysfs). */
static int open_regular(const struct rootfs *fs, const char *path, off_t *size)
{
	struct stat st;
	int fd = open_in_root(fs, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return fd;
	/*
	 * The live /proc holds only the kernel's own files: no FIFO or device
	 * can be there, and their size is 0. Skipping the fstat saves a system
	 * call per file on walks of every thread (inspect --all, check).
	 */
	if (fs->host && strncmp(path, "/proc/", 6) == 0) {
		*size = 0;
		return fd;
	}
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	*size = st.st_size;
	return fd;
}

/* Tell the recorder about a file that exists but was not read (too big, not regular). */
static int refused(const struct rootfs *fs, const char *path, int err)
{
	if ((err == -EFBIG || err == -EINVAL) && fs->rec && fs->rec->on_refused)
		fs->rec->on_refused(fs->rec->ctx, path, err);
	return err;
}

int rootfs_open_file(const struct rootfs *fs, const char *path)
{
	off_t size = 0;

	return open_regular(fs, path, &size);
}

int rootfs_read_reuse(const struct rootfs *fs, const char *path, size_t cap, unsigned flags,
		      char **bufp, size_t *sizep, size_t *lenp)
{
	size_t len = 0;
	off_t st_size = 0;
	int fd, err;

	fd = open_regular(fs, path, &st_size);
	if (fd < 0)
		return refused(fs, path, fd);
	/*
	 * A snapshot file whose size already says "too big" is not read at all.
	 * (sysfs attributes claim a page whatever they hold: never below that.)
	 */
	if (st_size > 4096 && (uint64_t)st_size > cap) {
		close(fd);
		return refused(fs, path, -EFBIG);
	}
	/* procfs and sysfs report size 0: read until EOF, within the cap. */
	err = fileio_read_fd(fd, cap, st_size > 0 ? (size_t)st_size : 0,
			     flags & ROOTFS_ONE_RECORD ? FILEIO_ONE_RECORD : 0, bufp, sizep, &len);
	/* Nothing to read yet on a non-blocking descriptor: not a file (a FIFO's kin). */
	if (err == -EAGAIN)
		err = -EINVAL;
	close(fd);
	if (err == -EFBIG)
		return refused(fs, path, err);
	if (err)
		return err;
	if (fs->rec && fs->rec->on_file)
		fs->rec->on_file(fs->rec->ctx, path, *bufp, len);
	if (lenp)
		*lenp = len;
	return 0;
}

int rootfs_read(const struct rootfs *fs, const char *path, size_t cap, char **bufp, size_t *lenp)
{
	char *buf = NULL;
	size_t size = 0;
	int err = rootfs_read_reuse(fs, path, cap, 0, &buf, &size, lenp);

	if (err) {
		free(buf);
		return err;
	}
	*bufp = buf;
	return 0;
}

int rootfs_read_kmsg(const struct rootfs *fs, size_t cap, char **bufp, size_t *lenp)
{
	size_t len = 0;
	char *buf;
	struct stat st;
	int fd, err;

	if (!fs->host)
		return rootfs_read(fs, "/dev/kmsg", cap, bufp, lenp);
	fd = open_in_root(fs, "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fd;
	/* Only the kernel's log device (char 1:11), nothing else by that name. */
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 1 ||
	    minor(st.st_rdev) != 11) {
		close(fd);
		return -EINVAL;
	}
	err = fileio_read_all(fd, cap, FILEIO_RECORDS, &buf, &len);
	close(fd);
	if (err)
		return err;
	if (fs->rec && fs->rec->on_file)
		fs->rec->on_file(fs->rec->ctx, "/dev/kmsg", buf, len);
	*bufp = buf;
	*lenp = len;
	return 0;
}

/*
 * Text followed by NUL padding (some firmware tables and tools that dump
 * sysfs write fixed-size buffers) keeps its text: cut @buf at the first NUL
 * when only NULs and white space follow it. A file that starts with a NUL,
 * or has text after one, is binary where text was expected: -EINVAL.
 */
static int text_end(char *buf, size_t n)
{
	char *z = memchr(buf, '\0', n);

	if (!z)
		return 0;
	if (z == buf)
		return -EINVAL;
	for (const char *p = z; p < buf + n; p++)
		if (*p && *p != '\n' && *p != ' ' && *p != '\t' && *p != '\r')
			return -EINVAL;
	while (z > buf && (z[-1] == '\n' || z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r'))
		z--;
	*z = '\0';
	return 0;
}

int rootfs_read_str(const struct rootfs *fs, const char *path, char *buf, size_t len)
{
	off_t st_size = 0;
	size_t n = 0;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = open_regular(fs, path, &st_size);
	if (fd < 0)
		return refused(fs, path, fd);
	for (;;) {
		ssize_t r = read(fd, buf + n, len - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno == EAGAIN ? -EINVAL : -errno;

			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* A file with a size (a snapshot's) is whole once that much was read. */
		if (st_size > 0 && n >= (size_t)st_size)
			break;
		if (n == len - 1) {
			char extra;

			r = read(fd, &extra, 1);
			if (r > 0) {
				close(fd);
				return refused(fs, path, -EFBIG);
			}
			break;
		}
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t' ||
			 buf[n - 1] == '\r'))
		n--;
	if (fs->rec && fs->rec->on_file)
		fs->rec->on_file(fs->rec->ctx, path, buf, n);
	buf[n] = '\0';
	return text_end(buf, n);
}

#define DEBUGFS "/sys/kernel/debug"

/*
 * In a child: a mount namespace of its own, private, with debugfs mounted
 * at its usual place; @path read there and sent back through @out as an
 * int (0 or -errno) and the bytes. The namespace ends with the child, so
 * nothing stays mounted on the host.
 */
static void __attribute__((noreturn)) debugfs_child(int out, const char *path, size_t len)
{
	char buf[4096];
	int err = 0, fd;
	ssize_t n = 0;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		err = -errno;
	/*
	 * Under kernel lockdown debugfs refuses these files, and logs each try:
	 * ask securityfs first and leave debugfs alone (and the log quiet).
	 */
	if (!err && mount("securityfs", "/sys/kernel/security", "securityfs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) {
		fd = open("/sys/kernel/security/lockdown", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			buf[n > 0 ? n : 0] = '\0';
			if (n > 0 && !strstr(buf, "[none]"))
				err = -EPERM;
			close(fd);
		}
	}
	if (!err && mount("debugfs", DEBUGFS, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		err = -errno;
	if (!err) {
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			err = -errno;
		else if ((n = read(fd, buf, len < sizeof(buf) ? len : sizeof(buf))) < 0)
			err = -errno;
		if (fd >= 0)
			close(fd);
	}
	if (err)
		n = 0;
	if (write(out, &err, sizeof(err)) == (ssize_t)sizeof(err) && n > 0 &&
	    write(out, buf, (size_t)n) != n)
		_exit(1);
	_exit(0);
}

int rootfs_read_debugfs(const struct rootfs *fs, const char *path, char *buf, size_t len,
			bool *privately)
{
	int err = rootfs_read_str(fs, path, buf, len), pipefd[2], status, child_err = -EIO;
	size_t n = 0;
	pid_t pid;

	*privately = false;
	if (err != -ENOENT || !fs->host || geteuid() != 0 || len == 0 ||
	    strncmp(path, DEBUGFS "/", sizeof(DEBUGFS)) != 0)
		return err;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return err;
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		debugfs_child(pipefd[1], path, len);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return err;
	}
	for (;;) {
		char *dst = n < sizeof(child_err) ? (char *)&child_err + n : buf + n - sizeof(child_err);
		size_t room = n < sizeof(child_err) ? sizeof(child_err) - n :
						      len - 1 - (n - sizeof(child_err));
		ssize_t r;

		if (room == 0)
			break;
		r = read(pipefd[0], dst, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n < sizeof(child_err))
		return err;
	if (child_err)
		return child_err == -ENOENT ? err : child_err;
	n -= sizeof(child_err);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	if (memchr(buf, '\0', n))
		return -EINVAL;
	*privately = true;
	if (fs->rec && fs->rec->on_file)
		fs->rec->on_file(fs->rec->ctx, path, buf, n);
	return 0;
}

int rootfs_read_text(const struct rootfs *fs, const char *path, char *buf, size_t len)
{
	int err = rootfs_read_str(fs, path, buf, len);

	if (!err && buf[strspn(buf, " \t\n\r")] == '\0')
		err = -ENODATA;
	return err;
}

int rootfs_read_int64(const struct rootfs *fs, const char *path, int64_t *v)
{
	char buf[64], *end;
	long long x;
	int err = rootfs_read_str(fs, path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (end == buf || *end != '\0' || errno == ERANGE)
		return -EINVAL;
	*v = x;
	return 0;
}

bool rootfs_exists(const struct rootfs *fs, const char *path)
{
	int fd = open_in_root(fs, path, O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

DIR *rootfs_opendir(const struct rootfs *fs, const char *path)
{
	int fd = open_in_root(fs, path, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

int rootfs_readlink(const struct rootfs *fs, const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	char parent[4096];
	int dir;
	ssize_t n;

	if (!slash || (size_t)(slash - path) >= sizeof(parent) || len == 0)
		return -EINVAL;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	dir = open_in_root(fs, parent[0] ? parent : "/", O_PATH | O_DIRECTORY);
	if (dir < 0)
		return dir;
	n = readlinkat(dir, slash + 1, buf, len - 1);
	if (n < 0) {
		int err = -errno;

		close(dir);
		return err;
	}
	close(dir);
	buf[n] = '\0';
	if (fs->rec && fs->rec->on_link)
		fs->rec->on_link(fs->rec->ctx, path, buf);
	return 0;
}

/* ---- writes (tune, cgroups) ---- */

int rootfs_write(const struct rootfs *fs, const char *path, const void *data, size_t len)
{
	char own[4096];
	const char *p = spell_self(fs, path, own, sizeof(own));
	/* No link is followed (the walk refuses them too): a write lands where its path says. */
	int fd = p ? open_in_root_how(fs, p, O_WRONLY | O_TRUNC | O_NOCTTY | O_NONBLOCK,
				      RESOLVE_NO_SYMLINKS)
		   : -ENAMETOOLONG;
	struct stat st;
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -EINVAL;
	if (err) {
		close(fd);
		return err;
	}
	n = write(fd, data, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

/* Split @path into its parent, opened inside the root, and its last name. */
static int open_parent_flags(const struct rootfs *fs, const char *path, const char **name,
			     int flags)
{
	const char *slash = strrchr(path, '/');
	char parent[4096];

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(parent) ||
	    !strcmp(slash + 1, ".") || !strcmp(slash + 1, ".."))
		return -EINVAL;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	*name = slash + 1;
	return open_in_root_how(fs, parent[0] ? parent : "/", flags | O_DIRECTORY,
				RESOLVE_NO_SYMLINKS);
}

static int open_parent(const struct rootfs *fs, const char *path, const char **name)
{
	return open_parent_flags(fs, path, name, O_PATH);
}

int rootfs_replace(const struct rootfs *fs, const char *path, const void *data, size_t len)
{
	char tmp[NAME_MAX + 1];
	const char *name;
	struct stat st;
	int dir = open_parent_flags(fs, path, &name, O_RDONLY), fd, err = 0;

	if (dir < 0)
		return dir;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.rtready-new", name) >= sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	/* A leftover of a crash between the create and the rename is ours to replace. */
	(void)unlinkat(dir, tmp, 0);
	fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    st.st_mode & 07777);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = fileio_write_all(fd, data, len);
	/* Same owner and mode as the file it replaces (the mode is also umask-free). */
	if (!err && fchown(fd, st.st_uid, st.st_gid) < 0 && errno != EPERM)
		err = -errno;
	if (!err && fchmod(fd, st.st_mode & 07777) < 0)
		err = -errno;
	err = fileio_commit_at(dir, tmp, name, fd, err);
out:
	close(dir);
	return err;
}

enum at_parent_op { AT_PARENT_ACCESS, AT_PARENT_MKDIR, AT_PARENT_RMDIR };

/*
 * One *at() call on the last name of @path, in its parent opened inside the
 * root: faccessat() with @arg as the mode, mkdirat() with @arg as the
 * permissions, or unlinkat() of a directory. Return: 0 or -errno.
 */
static int at_parent(const struct rootfs *fs, const char *path, enum at_parent_op op,
		     unsigned int arg)
{
	const char *name;
	int dir = open_parent(fs, path, &name), rc;

	if (dir < 0)
		return dir;
	if (op == AT_PARENT_ACCESS)
		rc = faccessat(dir, name, (int)arg, AT_SYMLINK_NOFOLLOW);
	else if (op == AT_PARENT_MKDIR)
		rc = mkdirat(dir, name, (mode_t)arg);
	else
		rc = unlinkat(dir, name, AT_REMOVEDIR);
	rc = rc < 0 ? -errno : 0;
	close(dir);
	return rc;
}

int rootfs_access(const struct rootfs *fs, const char *path, int mode)
{
	return at_parent(fs, path, AT_PARENT_ACCESS, (unsigned int)mode);
}

int rootfs_mkdir(const struct rootfs *fs, const char *path, mode_t mode)
{
	return at_parent(fs, path, AT_PARENT_MKDIR, mode);
}

int rootfs_rmdir(const struct rootfs *fs, const char *path)
{
	return at_parent(fs, path, AT_PARENT_RMDIR, 0);
}
