// SPDX-License-Identifier: MIT
/*
 * snapshot_record() on a hand-built root: hundreds of files read are all
 * recorded once, and files rootfs refuses (FIFOs) are listed once each
 * with the reason, never dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdbool.h>
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

#include "probe/facts.h"
#include "probe/rootfs.h"
#include "probe/snapshot.h"

#define TASKS 300

static char dir[64];

static void mkparents(char *p)
{
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

static void put(const char *rel, const char *text)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	mkparents(p);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void fifo(const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	mkparents(p);
	assert_int_equal(mkfifo(p, 0644), 0);
}

static int rm(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* Whether @rel exists under directory @top. */
static bool written(const char *top, const char *rel)
{
	char p[1024];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	return lstat(p, &st) == 0;
}

static void test_record(void **state)
{
	struct snapshot s;
	struct facts f;
	struct rootfs fs;
	char rel[128], line[512], out[64];
	const char *failed;
	size_t refused = 0;
	int top;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rtr-snapshot-XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (int pid = 1; pid <= TASKS; pid++) {
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, pid);
		snprintf(line, sizeof(line),
			 "%d (t%d) S 1 %d %d 0 -1 0 10 0 2 0 5 6 0 0 20 0 1 0 100 0 0 0 0 0 0 0 0 "
			 "0 0 0 0 0 0 0 17 1 0 0 0 0 0\n", pid, pid, pid, pid);
		put(rel, line);
		snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, pid);
		snprintf(line, sizeof(line), "Name:\tt%d\nCpus_allowed_list:\t0-1\n", pid);
		put(rel, line);
	}
	fifo("proc/cmdline");
	fifo("proc/swaps");
	assert_int_equal(rootfs_open(&fs, dir), 0);
	assert_int_equal(snapshot_record(&fs, &s, &f), 0);
	rootfs_close(&fs);
	facts_free(&f);
	nftw(dir, rm, 16, FTW_DEPTH | FTW_PHYS);

	/* Every entry once: each is one file or link written. */
	assert_true(s.n > TASKS);
	snprintf(out, sizeof(out), "/tmp/rtr-snapshot-out-XXXXXX");
	assert_non_null(mkdtemp(out));
	top = open(out, O_RDONLY | O_DIRECTORY);
	assert_true(top >= 0);
	assert_int_equal(snapshot_write(top, &s, &failed), 0);
	close(top);
	assert_int_equal(s.files + s.links, s.n);
	assert_true(written(out, "proc/1/task/1/stat"));
	assert_true(written(out, "proc/300/task/300/stat"));
	assert_false(written(out, "proc/cmdline"));
	nftw(out, rm, 16, FTW_DEPTH | FTW_PHYS);
	for (size_t i = 0; i < s.n_left; i++) {
		for (size_t k = i + 1; k < s.n_left; k++)
			assert_string_not_equal(s.left[i].path, s.left[k].path);
		if (strcmp(s.left[i].path, "/proc/cmdline") == 0 ||
		    strcmp(s.left[i].path, "/proc/swaps") == 0) {
			assert_string_equal(snapshot_left_reason(s.left[i].err),
					    "not a regular file (FIFO, device or socket)");
			refused++;
		}
	}
	assert_int_equal(refused, 2);
	snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
	};

	return unit_run(tests, NULL, NULL);
}
