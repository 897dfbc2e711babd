// SPDX-License-Identifier: MIT
/*
 * Unit tests of src/util/fileio.c: write-all, the capped whole-file read
 * (cap, head, expected size, one record, records as /dev/kmsg gives them), and the atomic replace (a failure
 * leaves the old file and no temporary file; success leaves the new one).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "util/fileio.h"

static char dir[] = "/tmp/rtr-fileio.XXXXXX";
static int dirfd_;

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dirfd_ < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	unlinkat(dirfd_, "f", 0);
	unlinkat(dirfd_, ".f.tmp", 0);
	close(dirfd_);
	return rmdir(dir);
}

/* A pipe holding @text, its write end closed: read() gives it, then EOF. */
static int pipe_of(const char *text, size_t len)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(fileio_write_all(p[1], text, len), 0);
	close(p[1]);
	return p[0];
}

static char *slurp(const char *name, size_t *len)
{
	int fd = openat(dirfd_, name, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;

	assert_true(fd >= 0);
	assert_int_equal(fileio_read_all(fd, 1u << 20, 0, &buf, len), 0);
	close(fd);
	return buf;
}

static void test_read_cap(void **state)
{
	char big[10000], *buf = NULL;
	size_t len = 0, size = 0;
	int fd;

	(void)state;
	memset(big, 'x', sizeof(big));
	/* Exactly the cap is accepted, NUL-terminated; one byte more is -EFBIG. */
	fd = pipe_of(big, 5000);
	assert_int_equal(fileio_read_all(fd, 5000, 0, &buf, &len), 0);
	close(fd);
	assert_int_equal(len, 5000);
	assert_int_equal(buf[5000], '\0');
	free(buf);
	buf = NULL;
	fd = pipe_of(big, 5001);
	assert_int_equal(fileio_read_all(fd, 5000, 0, &buf, &len), -EFBIG);
	close(fd);
	assert_null(buf);
	/* FILEIO_HEAD: the first cap bytes, and success. */
	fd = pipe_of(big, sizeof(big));
	assert_int_equal(fileio_read_all(fd, 3000, FILEIO_HEAD, &buf, &len), 0);
	close(fd);
	assert_int_equal(len, 3000);
	free(buf);
	/* Once the expected size was read, no read waits for an EOF (the pipe stays open). */
	buf = NULL;
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		assert_int_equal(fileio_write_all(p[1], "abcdef", 6), 0);
		assert_int_equal(fileio_read_fd(p[0], 100, 6, 0, &buf, &size, &len), 0);
		close(p[0]);
		close(p[1]);
	}
	assert_int_equal(len, 6);
	assert_string_equal(buf, "abcdef");
	assert_true(size >= 4096);
	free(buf);
}

/* A one-record read stops after a read that left room (no second read for EOF). */
static void test_read_one_record(void **state)
{
	char *buf = NULL;
	size_t len = 0, size = 0;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(fileio_write_all(p[1], "1 (x) S", 7), 0);
	/* The write end stays open: without the flag the read would block. */
	assert_int_equal(fileio_read_fd(p[0], 100, 0, FILEIO_ONE_RECORD, &buf, &size, &len), 0);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "1 (x) S");
	close(p[0]);
	close(p[1]);
	free(buf);
}

/*
 * Records as /dev/kmsg gives them, from a non-blocking SOCK_SEQPACKET pair
 * (one record per read, EAGAIN at the end): each ends in a newline, the
 * end of the data is the end, and at the cap only whole records are kept.
 */
static void test_read_records(void **state)
{
	static char rec[8000];
	char *buf = NULL;
	size_t len = 0;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0, sv), 0);
	assert_int_equal(write(sv[1], "6,1,2,-;one", 11), 11);
	assert_int_equal(write(sv[1], "6,2,3,-;two\n", 12), 12);
	assert_int_equal(write(sv[1], "6,3,4,-;three", 13), 13);
	/* The writer stays: without the flag the read would end in -EAGAIN. */
	assert_int_equal(fileio_read_all(sv[0], 1u << 20, FILEIO_RECORDS, &buf, &len), 0);
	assert_string_equal(buf, "6,1,2,-;one\n6,2,3,-;two\n6,3,4,-;three\n");
	assert_int_equal(len, 38);
	free(buf);
	buf = NULL;
	assert_int_equal(fileio_read_all(sv[0], 1u << 20, 0, &buf, &len), -EAGAIN);
	/* Five records of 8000 bytes under a cap of 16 KiB: the first two, whole. */
	memset(rec, 'x', sizeof(rec));
	for (int i = 0; i < 5; i++)
		assert_int_equal(write(sv[1], rec, sizeof(rec)), (ssize_t)sizeof(rec));
	assert_int_equal(fileio_read_all(sv[0], 16384, FILEIO_RECORDS, &buf, &len), 0);
	assert_int_equal(len, 2 * (sizeof(rec) + 1));
	assert_int_equal(buf[sizeof(rec)], '\n');
	assert_int_equal(buf[len - 1], '\n');
	assert_int_equal(buf[len], '\0');
	free(buf);
	buf = NULL;
	/* A cap below one record's room still gives whole records, the first at least. */
	assert_int_equal(fileio_read_all(sv[0], 100, FILEIO_RECORDS, &buf, &len), 0);
	assert_true(len >= sizeof(rec) + 1);
	assert_int_equal(len % (sizeof(rec) + 1), 0);
	free(buf);
	close(sv[0]);
	close(sv[1]);
}

static void test_replace(void **state)
{
	struct stat st;
	size_t len;
	char *text;
	int fd;

	(void)state;
	assert_int_equal(fileio_replace_at(dirfd_, "f", ".f.tmp", 0600, "old\n", 4), 0);
	text = slurp("f", &len);
	assert_string_equal(text, "old\n");
	free(text);
	assert_int_equal(fstatat(dirfd_, "f", &st, 0), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(fstatat(dirfd_, ".f.tmp", &st, 0), -1);
	/* A leftover temporary file of a crash is replaced. */
	fd = openat(dirfd_, ".f.tmp", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fileio_replace_at(dirfd_, "f", ".f.tmp", 0600, "new\n", 4), 0);
	text = slurp("f", &len);
	assert_string_equal(text, "new\n");
	free(text);
	/* A failed step before the commit: nothing renamed, the temporary file gone. */
	fd = openat(dirfd_, ".f.tmp", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fileio_write_all(fd, "torn", 4), 0);
	assert_int_equal(fileio_commit_at(dirfd_, ".f.tmp", "f", fd, -EIO), -EIO);
	text = slurp("f", &len);
	assert_string_equal(text, "new\n");
	free(text);
	assert_int_equal(fstatat(dirfd_, ".f.tmp", &st, 0), -1);
	assert_int_equal(errno, ENOENT);
	/* By path (AT_FDCWD), as the boot files and output files are. */
	{
		char name[sizeof(dir) + 8], tmp[sizeof(dir) + 16];

		snprintf(name, sizeof(name), "%s/f", dir);
		snprintf(tmp, sizeof(tmp), "%s/.f.tmp", dir);
		assert_int_equal(fileio_replace_at(AT_FDCWD, name, tmp, 0644, "path\n", 5), 0);
		text = slurp("f", &len);
		assert_string_equal(text, "path\n");
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_cap),
		cmocka_unit_test(test_read_one_record),
		cmocka_unit_test(test_read_records),
		cmocka_unit_test(test_replace),
	};

	return unit_run(tests, setup, teardown);
}
