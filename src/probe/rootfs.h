/* SPDX-License-Identifier: MIT */
/*
 * Every read of system state goes through here. A root directory stands for
 * "/" (the real one, or a snapshot from another machine under --root), and
 * no path may escape it: openat2(RESOLVE_IN_ROOT) resolves ".." and
 * symlinks inside the root, and where openat2 is missing a component walk
 * refuses symlinks instead. Reads are bounded by a size cap, opened with
 * O_NONBLOCK, and anything but a regular file or directory is refused, so a
 * hostile snapshot (FIFOs, devices, huge files) can neither hang nor flood
 * the tool. Every file of the machine being checked is opened here, for
 * reading and for writing; docs/ARCHITECTURE.md lists the few modules that
 * open files by name elsewhere, and why.
 */
#ifndef RTR_PROBE_ROOTFS_H
#define RTR_PROBE_ROOTFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Default cap on one file's size: kernel attribute files are tiny. */
#define ROOTFS_CAP_DEFAULT (1u << 20)
/* /proc/interrupts on a 512-CPU machine with thousands of IRQs is tens of MiB. */
#define ROOTFS_CAP_LARGE (64u << 20)

/*
 * Optional observer of every successful read (rootfs_read, rootfs_read_str,
 * rootfs_readlink): `rtready snapshot` records exactly what the probes read,
 * so a snapshot holds all that `check --root` needs and nothing else.
 */
struct rootfs_recorder {
	void (*on_file)(void *ctx, const char *path, const char *data, size_t len);
	void (*on_link)(void *ctx, const char *path, const char *target);
	/* A file that was there but refused: -EFBIG past the cap, -EINVAL not regular. */
	void (*on_refused)(void *ctx, const char *path, int err);
	void *ctx;
};

struct rootfs {
	int dirfd;		/* the root directory */
	bool host;		/* the root is "/": live /proc, pids are real */
	char path[4096];	/* as given, for messages */
	const struct rootfs_recorder *rec;	/* NULL: not recording */
};

/*
 * Open @root ("/" or a snapshot directory).
 * Return: 0, or -errno (-ENOTDIR when it is not a directory).
 */
int rootfs_open(struct rootfs *fs, const char *root) __attribute__((warn_unused_result));
void rootfs_close(struct rootfs *fs);

/*
 * Open @path (absolute, as on the target: "/proc/cmdline") for reading
 * inside the root. Only regular files (and procfs/sysfs attributes) are
 * accepted. Return: a file descriptor or -errno (-EINVAL for a FIFO,
 * socket or device, -ELOOP/-EXDEV for an escape).
 */
int rootfs_open_file(const struct rootfs *fs, const char *path);

/*
 * Read the whole of @path into a new NUL-terminated buffer (free() it).
 * @cap: the largest size accepted; a longer file gives -EFBIG.
 * Return: 0 or -errno; *len is the length without the NUL.
 */
int rootfs_read(const struct rootfs *fs, const char *path, size_t cap, char **buf, size_t *len)
	__attribute__((warn_unused_result));

/*
 * As rootfs_read(), into a buffer the caller keeps across calls: *@buf of
 * *@size bytes (NULL and 0 at first) grows as needed; free() it at the end,
 * also after an error. Walks over thousands of files save an allocation
 * per file.
 */
int rootfs_read_reuse(const struct rootfs *fs, const char *path, size_t cap, unsigned flags,
		      char **buf, size_t *size, size_t *len) __attribute__((warn_unused_result));

/*
 * Flag of rootfs_read_reuse(): the file is one record that the kernel
 * writes whole (procfs single-record files such as /proc/PID/stat and
 * status, or any regular file), so a read that does not fill the buffer
 * returns all of it and no second read is needed to see the end. Not for
 * multi-record seq files such as /proc/interrupts, which come a page at a
 * time.
 */
#define ROOTFS_ONE_RECORD 1u

/*
 * Read a small file into @buf (at most @len - 1 bytes, more is -EFBIG),
 * with trailing white space removed. Text followed by NUL padding is cut at
 * the first NUL; any other NUL (at the start, or with text after it) is
 * binary content: -EINVAL.
 */
int rootfs_read_str(const struct rootfs *fs, const char *path, char *buf, size_t len)
	__attribute__((warn_unused_result));

/*
 * As rootfs_read_str(), for a file under /sys/kernel/debug. On the live
 * root, as root, when debugfs is not mounted there, it is read in a child
 * that mounts debugfs in a private mount namespace of its own, so nothing
 * stays mounted; *@privately says so. Return: 0 or -errno (-EPERM: kernel
 * lockdown refuses debugfs reads).
 */
int rootfs_read_debugfs(const struct rootfs *fs, const char *path, char *buf, size_t len,
			bool *privately) __attribute__((warn_unused_result));

/*
 * As rootfs_read_str(), for files the kernel never leaves empty (a release,
 * a DMI string, a cpu list of online CPUs): nothing but white space in it is
 * -ENODATA, so an emptied snapshot file reads as "no data", never as a value.
 */
int rootfs_read_text(const struct rootfs *fs, const char *path, char *buf, size_t len)
	__attribute__((warn_unused_result));

/* Read a file holding one decimal integer. Return: 0, -errno, -EINVAL. */
int rootfs_read_int64(const struct rootfs *fs, const char *path, int64_t *v)
	__attribute__((warn_unused_result));

/*
 * The kernel log: on the live root /dev/kmsg, read record by record without
 * blocking until its end (EAGAIN) or @cap bytes; in a snapshot tree the
 * regular file DIR/dev/kmsg that a snapshot wrote. Records in /dev/kmsg's
 * format, one per line. Recorded like a file read (a snapshot keeps it).
 * Return: 0 with *@buf (free it), or -errno (-EPERM under dmesg_restrict).
 */
int rootfs_read_kmsg(const struct rootfs *fs, size_t cap, char **buf, size_t *len)
	__attribute__((warn_unused_result));

/* Whether @path exists inside the root (any type). */
bool rootfs_exists(const struct rootfs *fs, const char *path);

/*
 * Open a directory inside the root for listing. Return: a DIR (closedir()
 * it) or NULL with errno set.
 */
DIR *rootfs_opendir(const struct rootfs *fs, const char *path);

/*
 * Read the target of a symlink inside the root (e.g. /proc/PID/exe); no
 * resolution happens. Return: 0 or -errno.
 */
int rootfs_readlink(const struct rootfs *fs, const char *path, char *buf, size_t len);

/*
 * Writes, for tune and the cgroups of run and load: the same confinement,
 * and no symlink is followed at all.
 *
 * rootfs_write() - write @len bytes into the existing regular file @path
 * (procfs, sysfs and cgroupfs files are regular) in one write(), with
 * O_TRUNC as a shell redirection has it (the kernel's files ignore it). A
 * short write is -EIO, never retried: a kernel attribute takes its value
 * whole or not at all. Return: 0 or -errno.
 */
int rootfs_write(const struct rootfs *fs, const char *path, const void *data, size_t len)
	__attribute__((warn_unused_result));

/*
 * Replace the regular file @path (a configuration file) with @len bytes of
 * @data, atomically: a new file beside it with the same owner and mode,
 * fsync'd, renamed over it, the directory fsync'd. A crash leaves the old
 * file or the new one, never a torn one. Return: 0 or -errno.
 */
int rootfs_replace(const struct rootfs *fs, const char *path, const void *data, size_t len)
	__attribute__((warn_unused_result));

/*
 * Whether the caller may access @path inside the root as access(2) @mode
 * (R_OK, W_OK, X_OK) says, on the real ids; no link is followed. Return: 0
 * or -errno.
 */
int rootfs_access(const struct rootfs *fs, const char *path, int mode);

/* mkdir and rmdir of @path (a cgroup) inside the root. Return: 0 or -errno. */
int rootfs_mkdir(const struct rootfs *fs, const char *path, mode_t mode)
	__attribute__((warn_unused_result));
int rootfs_rmdir(const struct rootfs *fs, const char *path) __attribute__((warn_unused_result));

/* Format a path into @buf like snprintf; -ENAMETOOLONG if it does not fit. */
int rootfs_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
