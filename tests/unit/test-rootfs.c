// SPDX-License-Identifier: MIT
/*
 * The root-confined reader against a hostile tree: symlinks that point out
 * (absolute and relative), "..", FIFOs, devices, oversized files.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "probe/rootfs.h"

static char dir[] = "/tmp/rtr-rootfs-XXXXXX";
static char outside[] = "/tmp/rtr-outside-XXXXXX";

static void put(const char *rel, const char *content)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void put_bytes(const char *rel, const char *data, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static int setup(void **state)
{
	char p[512], q[512];

	(void)state;
	if (!mkdtemp(dir) || !mkdtemp(outside))
		return -1;
	snprintf(p, sizeof(p), "%s/proc", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/proc/sys", dir);
	mkdir(p, 0755);
	put("proc/sys/value", "950000\n");
	put("proc/garbage", "12abc\n");
	snprintf(q, sizeof(q), "%s/secret", outside);
	{
		FILE *f = fopen(q, "w");

		fputs("secret\n", f);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/proc/abs-escape", dir);
	if (symlink(q, p))
		return -1;
	snprintf(p, sizeof(p), "%s/proc/rel-escape", dir);
	snprintf(q, sizeof(q), "../../../../../../..%s/secret", outside);
	if (symlink(q, p))
		return -1;
	snprintf(p, sizeof(p), "%s/proc/inside-link", dir);
	if (symlink("sys/value", p))
		return -1;
	snprintf(p, sizeof(p), "%s/proc/fifo", dir);
	if (mkfifo(p, 0644))
		return -1;
	{
		/* 2 MiB: over the default cap. */
		char *big = malloc(2u << 20);

		memset(big, 'x', 2u << 20);
		big[(2u << 20) - 1] = '\0';
		put("proc/big", big);
		free(big);
	}
	put("proc/nul", "");
	snprintf(p, sizeof(p), "%s/proc/nul", dir);
	{
		int fd = open(p, O_WRONLY);

		assert_int_equal(write(fd, "1\0002", 3), 3);
		close(fd);
	}
	put_bytes("proc/padded", "0-3\n\0\0\0\0", 8);
	put_bytes("proc/padded-space", "f0 \0\0\n\0", 7);
	put_bytes("proc/allnul", "\0\0\0\0", 4);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(outside, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void test_reads(void **state)
{
	struct rootfs fs;
	int64_t v;
	char buf[64];

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	assert_false(fs.host);
	assert_int_equal(rootfs_read_int64(&fs, "/proc/sys/value", &v), 0);
	assert_int_equal(v, 950000);
	assert_int_equal(rootfs_read_int64(&fs, "/proc/inside-link", &v), 0);
	assert_int_equal(v, 950000);
	assert_int_equal(rootfs_read_int64(&fs, "/proc/garbage", &v), -EINVAL);
	assert_int_equal(rootfs_read_int64(&fs, "/proc/missing", &v), -ENOENT);
	assert_int_equal(rootfs_read_str(&fs, "/proc/sys/value", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "950000");
	assert_int_equal(rootfs_read_str(&fs, "/proc/sys/value", buf, 4), -EFBIG);
	/* Text after a NUL is binary; NUL padding after the text is not. */
	assert_int_equal(rootfs_read_str(&fs, "/proc/nul", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(rootfs_read_str(&fs, "/proc/allnul", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(rootfs_read_str(&fs, "/proc/padded", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0-3");
	assert_int_equal(rootfs_read_str(&fs, "/proc/padded-space", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "f0");
	assert_true(rootfs_exists(&fs, "/proc/sys"));
	assert_false(rootfs_exists(&fs, "/nope"));
	rootfs_close(&fs);
}

static void test_escapes_stay_inside(void **state)
{
	struct rootfs fs;
	char buf[64];
	int rc;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	/* Resolved inside the root, where the target does not exist. */
	rc = rootfs_read_str(&fs, "/proc/abs-escape", buf, sizeof(buf));
	assert_true(rc < 0);
	rc = rootfs_read_str(&fs, "/proc/rel-escape", buf, sizeof(buf));
	assert_true(rc < 0);
	rc = rootfs_read_str(&fs, "/../../../../../../etc/hostname", buf, sizeof(buf));
	assert_true(rc < 0);
	rootfs_close(&fs);
}

static void test_hostile_types(void **state)
{
	struct rootfs fs;
	char *b = NULL;
	size_t len;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	/* A FIFO is refused without blocking. */
	assert_int_equal(rootfs_read(&fs, "/proc/fifo", ROOTFS_CAP_DEFAULT, &b, &len), -EINVAL);
	assert_int_equal(rootfs_read(&fs, "/proc/big", ROOTFS_CAP_DEFAULT, &b, &len), -EFBIG);
	assert_int_equal(rootfs_read(&fs, "/proc", ROOTFS_CAP_DEFAULT, &b, &len), -EISDIR);
	assert_int_equal(rootfs_read(&fs, "/proc/big", ROOTFS_CAP_LARGE, &b, &len), 0);
	assert_int_equal(len, (2u << 20) - 1);
	free(b);
	rootfs_close(&fs);
	assert_int_equal(rootfs_open(&fs, "/dev/null"), -ENOTDIR);
	assert_int_equal(rootfs_open(&fs, "/nonexistent-root"), -ENOENT);
}

/*
 * Writes: into the file the path names, whole; never through a link (not
 * even one inside the root), never into a FIFO or a directory, never
 * outside the root; mkdir and rmdir of a directory (a cgroup) likewise.
 */
static void test_writes(void **state)
{
	struct rootfs fs;
	char buf[64], p[512];
	struct stat st;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	put("proc/sys/w", "old\n");
	assert_int_equal(rootfs_write(&fs, "/proc/sys/w", "new\n", 4), 0);
	assert_int_equal(rootfs_read_str(&fs, "/proc/sys/w", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "new");	/* O_TRUNC: nothing of "old" is left */
	assert_int_equal(rootfs_write(&fs, "/proc/inside-link", "1", 1), -ELOOP);
	assert_int_equal(rootfs_write(&fs, "/proc/abs-escape", "1", 1), -ELOOP);
	assert_int_equal(rootfs_write(&fs, "/proc/rel-escape", "1", 1), -ELOOP);
	/* Refused without blocking: ENXIO with no reader, EINVAL (not regular) with one. */
	assert_true(rootfs_write(&fs, "/proc/fifo", "1", 1) < 0);
	assert_int_equal(rootfs_write(&fs, "/proc/sys/missing", "1", 1), -ENOENT);
	assert_true(rootfs_write(&fs, "/proc", "1", 1) < 0);
	assert_true(rootfs_write(&fs, "/../../../../tmp/rtr-escape", "1", 1) < 0);
	assert_int_equal(stat("/tmp/rtr-escape", &st), -1);
	{
		char q[512];

		snprintf(q, sizeof(q), "%s/secret", outside);
		assert_int_equal(stat(q, &st), 0);
		assert_int_equal(st.st_size, 7);	/* "secret\n", untouched */
	}
	/* A directory link is not passed either. */
	snprintf(p, sizeof(p), "%s/proc/dirlink", dir);
	assert_int_equal(symlink("sys", p), 0);
	assert_int_equal(rootfs_write(&fs, "/proc/dirlink/w", "1", 1), -ELOOP);
	assert_int_equal(rootfs_mkdir(&fs, "/proc/dirlink/cg", 0755), -ELOOP);
	/* An atomic replace: the file, never a link to one, never through one. */
	assert_int_equal(rootfs_replace(&fs, "/proc/sys/w", "whole\n", 6), 0);
	assert_int_equal(rootfs_read_str(&fs, "/proc/sys/w", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "whole");
	assert_int_equal(rootfs_replace(&fs, "/proc/inside-link", "1", 1), -EINVAL);
	assert_int_equal(rootfs_replace(&fs, "/proc/dirlink/w", "1", 1), -ELOOP);
	assert_int_equal(rootfs_replace(&fs, "/proc/fifo", "1", 1), -EINVAL);
	assert_int_equal(rootfs_replace(&fs, "/proc/sys/none", "1", 1), -ENOENT);
	snprintf(p, sizeof(p), "%s/proc/sys/.w.rtready-new", dir);
	assert_int_equal(stat(p, &st), -1);	/* no temporary left behind */
	/* mkdir and rmdir. */
	assert_int_equal(rootfs_mkdir(&fs, "/proc/sys/cg", 0755), 0);
	assert_int_equal(rootfs_mkdir(&fs, "/proc/sys/cg", 0755), -EEXIST);
	snprintf(p, sizeof(p), "%s/proc/sys/cg", dir);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rootfs_rmdir(&fs, "/proc/sys/cg"), 0);
	assert_int_equal(rootfs_rmdir(&fs, "/proc/sys/cg"), -ENOENT);
	assert_int_equal(rootfs_rmdir(&fs, "/proc/sys/.."), -EINVAL);
	assert_int_equal(rootfs_rmdir(&fs, "/proc/sys/"), -EINVAL);
	assert_int_equal(rootfs_mkdir(&fs, "/../../../tmp/rtr-escape-dir", 0755) == 0 &&
				 stat("/tmp/rtr-escape-dir", &st) == 0,
			 0);
	rootfs_close(&fs);
}

static void test_live_host(void **state)
{
	struct rootfs fs;
	int64_t v;

	(void)state;
	assert_int_equal(rootfs_open(&fs, "/"), 0);
	assert_true(fs.host);
	assert_int_equal(rootfs_read_int64(&fs, "/proc/sys/kernel/pid_max", &v), 0);
	assert_true(v > 0);
	/* sysfs attributes claim 4096 bytes whatever they hold: still read as text. */
	{
		char online[64];
		char *b = NULL;
		size_t len;

		if (rootfs_exists(&fs, "/sys/devices/system/cpu/online")) {
			assert_int_equal(rootfs_read_str(&fs, "/sys/devices/system/cpu/online", online,
							 sizeof(online)), 0);
			assert_true(online[0] >= '0' && online[0] <= '9');
			assert_int_equal(rootfs_read(&fs, "/sys/devices/system/cpu/online", 64, &b,
						     &len), 0);
			free(b);
		}
	}
	/* Character devices are refused. */
	assert_int_equal(rootfs_open_file(&fs, "/dev/null"), -EINVAL);
	/* A write to /proc/self: spelt out with our pid, not refused as a link. */
	{
		char now[32];

		assert_int_equal(rootfs_read_str(&fs, "/proc/self/comm", now, sizeof(now)), 0);
		assert_int_equal(rootfs_write(&fs, "/proc/self/comm", "rtr-w", 5), 0);
		assert_int_equal(rootfs_read_str(&fs, "/proc/thread-self/comm", now, sizeof(now)),
				 0);
		assert_string_equal(now, "rtr-w");
		assert_int_equal(rootfs_write(&fs, "/proc/thread-self/comm", "test-rootfs", 11),
				 0);
	}
	rootfs_close(&fs);
}

/* rootfs_access: inside the root, on the real ids, no link followed out. */
static void test_access(void **state)
{
	struct rootfs fs;

	(void)state;
	assert_int_equal(rootfs_open(&fs, dir), 0);
	assert_int_equal(rootfs_access(&fs, "/proc/sys/value", R_OK | W_OK), 0);
	assert_int_equal(rootfs_access(&fs, "/proc/sys", W_OK | X_OK), 0);
	assert_int_equal(rootfs_access(&fs, "/proc/sys/none", R_OK), -ENOENT);
	/* A parent that leaves the root is refused, not resolved outside. */
	assert_true(rootfs_access(&fs, "/proc/abs-escape/x", R_OK) < 0);
	rootfs_close(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_access),
		cmocka_unit_test(test_escapes_stay_inside),
		cmocka_unit_test(test_hostile_types),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_live_host),
	};

	return unit_run(tests, setup, teardown);
}
