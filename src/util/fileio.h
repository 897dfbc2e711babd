/* SPDX-License-Identifier: MIT */
/*
 * The file primitives every writer and reader of whole files shares, so
 * that each exists once with one durability: write all of a buffer, read a
 * whole file under a size cap, and replace a file atomically and durably
 * (a temporary file beside it, fsync'd, renamed over it, and the directory
 * fsync'd, so that after a crash or a power cut the name holds the old
 * content or the new, never a torn or empty file, and the rename itself is
 * not lost). Plain libc on descriptors the caller opened: which files may be
 * opened, and how, stays with the caller (src/probe/rootfs.c for the
 * machine's files).
 */
#ifndef RTR_UTIL_FILEIO_H
#define RTR_UTIL_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Write all @len bytes of @data to @fd, through short writes and EINTR.
 * Return: 0 or -errno (-EIO when the file takes no more bytes).
 */
int fileio_write_all(int fd, const void *data, size_t len) __attribute__((warn_unused_result));

/* Flags of fileio_read_fd(). */
/* One record the kernel writes whole: a read that leaves room in the buffer was all of it. */
#define FILEIO_ONE_RECORD 1u
/* Past @cap, keep the first @cap bytes and succeed instead of -EFBIG. */
#define FILEIO_HEAD 2u
/*
 * A device that gives one record per read (/dev/kmsg): every read has room
 * for a whole record (FILEIO_RECORD_MAX bytes), a record that was
 * overwritten before it was read (EPIPE) is skipped, the end of the data
 * of an O_NONBLOCK descriptor (EAGAIN) is the end, each record ends in a
 * newline (one is added where it has none), and once the buffer has grown
 * to @cap the read stops with the whole records it has (the first one
 * always: a @cap below FILEIO_RECORD_MAX is not a reason to read nothing).
 */
#define FILEIO_RECORDS 4u
/* The longest record of FILEIO_RECORDS: the kernel's CONSOLE_EXT_LOG_MAX. */
#define FILEIO_RECORD_MAX 8192

/*
 * Read @fd to its end into *@buf of *@size bytes (NULL and 0 at first; it
 * grows as needed and stays the caller's to free(), also after an error),
 * NUL-terminated; *@len (if not NULL) gets the length without the NUL.
 * @cap: the most bytes accepted; more is -EFBIG (see FILEIO_HEAD).
 * @expect: the file's size when known (a regular file's st_size), else 0:
 * the read stops once that much was read, without waiting for an EOF.
 * A descriptor opened O_NONBLOCK that has no data yet gives -EAGAIN.
 * Return: 0 or -errno.
 */
int fileio_read_fd(int fd, size_t cap, size_t expect, unsigned flags, char **buf, size_t *size,
		   size_t *len) __attribute__((warn_unused_result));

/*
 * As fileio_read_fd() into a new buffer: *@buf is set (free() it) only on
 * success.
 */
int fileio_read_all(int fd, size_t cap, unsigned flags, char **buf, size_t *len)
	__attribute__((warn_unused_result));

/*
 * Finish an atomic replace: @fd holds the complete new content of @tmp (in
 * the directory @dirfd, or relative to the working directory when @dirfd is
 * AT_FDCWD). fsync @fd, close it, rename @tmp over @name, fsync the
 * directory. @err is the error of the caller's own steps so far (0: none):
 * when it or any step here fails, nothing is renamed and @tmp is removed.
 * @fd is closed in every case (a negative @fd is not). Return: 0 or -errno.
 */
int fileio_commit_at(int dirfd, const char *tmp, const char *name, int fd, int err)
	__attribute__((warn_unused_result));

/*
 * Replace @name in @dirfd (or AT_FDCWD) with @len bytes of @data, through a
 * temporary file @tmp of mode @mode, as fileio_commit_at() does. A leftover
 * @tmp (a crash between its creation and the rename) is replaced.
 * Return: 0 or -errno.
 */
int fileio_replace_at(int dirfd, const char *name, const char *tmp, mode_t mode,
		      const void *data, size_t len) __attribute__((warn_unused_result));

#endif
