// SPDX-License-Identifier: MIT
/*
 * Outputs that collide (output_collisions: the same file under other
 * names, files not made yet, devices that take many writers), outputs
 * reserved until the result is ready (no temporary file meanwhile), and
 * run's checker record files (stale ones of dead owners removed, live or
 * foreign ones kept).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/cli.h"
#include "run/reportfile.h"

static char dir[] = "/tmp/rtr-outputs.XXXXXX";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir) || chdir(dir) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (chdir("/") < 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static int collide2(const char *a, const char *b)
{
	struct output_file outs[2] = { { "--a", a }, { "--b", b } };

	char err[8400];

	return output_collisions(outs, 2, NULL, 0, err, sizeof(err));
}

static void test_outputs_collide(void **state)
{
	(void)state;
	touch("f.json");
	assert_int_equal(symlink("f.json", "link.json"), 0);
	assert_int_equal(link("f.json", "hard.json"), 0);
	assert_int_equal(mkdir("sub", 0755), 0);

	/* The same existing file under any name. */
	assert_int_equal(collide2("f.json", "f.json"), -EINVAL);
	assert_int_equal(collide2("f.json", "./f.json"), -EINVAL);
	assert_int_equal(collide2("f.json", "link.json"), -EINVAL);
	assert_int_equal(collide2("f.json", "hard.json"), -EINVAL);
	assert_int_equal(collide2("f.json", "sub/../f.json"), -EINVAL);
	/* Files not made yet: the same directory and name. */
	assert_int_equal(collide2("new.json", "./new.json"), -EINVAL);
	assert_int_equal(collide2("sub/new.json", "sub/./new.json"), -EINVAL);
	assert_int_equal(collide2("nodir/a/../x", "nodir/x"), -EINVAL);
	{
		char abs[4200];

		snprintf(abs, sizeof(abs), "%s/new.json", dir);
		assert_int_equal(collide2("new.json", abs), -EINVAL);
	}
	/* Distinct files, standard output and devices are fine. */
	assert_int_equal(collide2("f.json", "new.json"), 0);
	assert_int_equal(collide2("sub/f.json", "f.json"), 0);
	assert_int_equal(collide2("-", "-"), 0);
	assert_int_equal(collide2(NULL, "f.json"), 0);
	assert_int_equal(collide2("/dev/null", "/dev/null"), 0);
	assert_int_equal(unlink("link.json"), 0);
	assert_int_equal(unlink("hard.json"), 0);
}

static void test_output_names_input(void **state)
{
	struct output_file out = { "--report", "./prog" };
	struct output_file ins[2] = { { "the program", "prog" }, { "the library", NULL } };
	char err[8400];

	(void)state;
	touch("prog");
	assert_int_equal(output_collisions(&out, 1, ins, 2, err, sizeof(err)), -EINVAL);
	out.path = "other";
	assert_int_equal(output_collisions(&out, 1, ins, 2, err, sizeof(err)), 0);
	out.path = "-";
	assert_int_equal(output_collisions(&out, 1, ins, 2, err, sizeof(err)), 0);
}

static size_t count_tmp(void)
{
	struct dirent *de;
	DIR *d = opendir(".");
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strstr(de->d_name, ".tmp.") != NULL;
	closedir(d);
	return n;
}

static void test_output_reserve(void **state)
{
	struct output o;
	FILE *f;
	char buf[16] = "";

	(void)state;
	assert_int_equal(output_reserve(&o, "late.txt"), 0);
	assert_null(o.fp);
	assert_int_equal(count_tmp(), 0);
	assert_int_equal(access("late.txt", F_OK), -1);
	assert_int_equal(output_ready(&o), 0);
	assert_non_null(o.fp);
	assert_int_equal(count_tmp(), 1);
	fputs("done\n", o.fp);
	assert_int_equal(output_close(&o, true), 0);
	assert_int_equal(count_tmp(), 0);
	f = fopen("late.txt", "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "done\n");

	/* Never made ready: nothing was made, nothing is left. */
	assert_int_equal(output_reserve(&o, "never.txt"), 0);
	assert_int_equal(output_close(&o, false), 0);
	assert_int_equal(access("never.txt", F_OK), -1);
	assert_int_equal(count_tmp(), 0);
	/* An unwritable place is said at once. */
	assert_int_equal(output_reserve(&o, "nodir/x.txt"), -ENOENT);
	/* Devices are opened at once, as before. */
	assert_int_equal(output_reserve(&o, "/dev/null"), 0);
	assert_non_null(o.fp);
	assert_int_equal(output_close(&o, true), 0);
}

/* A pid that is surely gone: a child that has exited and been reaped. */
static pid_t dead_pid(void)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0)
		_exit(0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	return p;
}

static void test_report_file(void **state)
{
	char path[4200], stale[64], held[4200];
	pid_t gone = dead_pid();
	int fd, fd2;

	(void)state;
	assert_int_equal(mkdir("rf", 0700), 0);
	/* Ours: the name carries our pid, and a later clean keeps it. */
	assert_int_equal(run_report_file_create("rf", path, sizeof(path), &fd), 0);
	snprintf(stale, sizeof(stale), "rf/rtready-check.%ld.", (long)getpid());
	assert_memory_equal(path, stale, strlen(stale));
	/* A dead owner's file, and one whose name is not of that shape. */
	snprintf(stale, sizeof(stale), "rf/rtready-check.%ld.abcdef", (long)gone);
	touch(stale);
	touch("rf/rtready-check.other");
	/* A dead pid whose lock is still held (an owner in another pid namespace). */
	snprintf(held, sizeof(held), "rf/rtready-check.%ld.ghijkl", (long)gone);
	touch(held);
	fd2 = open(held, O_RDONLY);
	assert_true(fd2 >= 0);
	assert_int_equal(flock(fd2, LOCK_EX), 0);

	assert_int_equal(run_report_file_clean_stale("rf", NULL, NULL), 0 + 1);
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(access("rf/rtready-check.other", F_OK), 0);
	assert_int_equal(access(held, F_OK), 0);
	close(fd2);
	unlink(path);
	close(fd);
	/* A missing directory fails with its reason, leaving nothing. */
	assert_int_equal(run_report_file_create("rf/none", path, sizeof(path), &fd), -ENOENT);
	assert_int_equal(fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outputs_collide),
		cmocka_unit_test(test_output_names_input),
		cmocka_unit_test(test_output_reserve),
		cmocka_unit_test(test_report_file),
	};

	return unit_run(tests, setup, teardown);
}
