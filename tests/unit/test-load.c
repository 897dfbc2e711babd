// SPDX-License-Identifier: MIT
/*
 * Unit tests of the load generator: its configuration checks, the option
 * parser of `rtready load`, the cgroup file parsers, and short real runs of
 * the library API (start, wait, stop, stats) that prove every task is
 * reaped.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "unit.h"

#include "cli/opt.h"
#include "cli/cmd_load.h"
#include "measure/load.h"
#include "measure/load_internal.h"
#include "probe/cgroupfs.h"

static int parse(struct load_opts *o, char *err, size_t errlen, int argc, ...)
{
	char *argv[32];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse_cmd(&load_cmd, argc, argv, o, err, errlen);
}

static void test_defaults(void **state)
{
	struct load_config c;

	(void)state;
	load_config_init(&c);
	assert_int_equal(c.groups, 10);
	assert_int_equal(c.fds, 20);
	assert_int_equal(c.loops, 100);
	assert_int_equal(c.datasize, 100);
	assert_int_equal(c.runs, 1);
	assert_false(c.pipes);
	assert_false(c.threads);
	assert_int_equal(load_messages_per_run(&c), 10 * 20 * 20 * 100);
	load_config_free(&c);
}

static void test_config_check(void **state)
{
	struct load_config c;
	char err[200];

	(void)state;
	load_config_init(&c);
	assert_int_equal(load_config_check(&c, err, sizeof(err)), 0);
	c.groups = LOAD_MAX_GROUPS + 1;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	load_config_init(&c);
	c.fds = 0;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	load_config_init(&c);
	c.datasize = 0;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	/* Long runs are fine; a run whose byte count would overflow is not. */
	load_config_init(&c);
	c.loops = 3000000;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), 0);
	c.loops = UINT64_MAX / 1000;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	load_config_init(&c);
	c.nice = 20;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	load_config_init(&c);
	c.groups = 0;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no load"));
	c.memory_bytes = UINT64_MAX / 2;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	c.memory_bytes = 0;
	c.oom = true;
	c.oom_limit_bytes = 1000;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), -EINVAL);
	c.oom_limit_bytes = LOAD_DEFAULT_OOM_LIMIT;
	assert_int_equal(load_config_check(&c, err, sizeof(err)), 0);
	load_config_free(&c);
}

static void test_opts_messaging(void **state)
{
	struct load_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 1, "load"), 0);
	assert_int_equal(o.cfg.groups, 10);
	assert_int_equal(o.cfg.runs, 1);
	load_opts_free(&o);

	assert_int_equal(parse(&o, err, sizeof(err), 10, "load", "-g", "2", "-f", "3", "-l", "4",
			       "-s", "50", "-p"), 0);
	assert_int_equal(o.cfg.groups, 2);
	assert_int_equal(o.cfg.fds, 3);
	assert_int_equal(o.cfg.loops, 4);
	assert_int_equal(o.cfg.datasize, 50);
	assert_true(o.cfg.pipes);
	assert_false(o.cfg.threads);
	assert_int_equal(load_messages_per_run(&o.cfg), 2 * 3 * 3 * 4);
	load_opts_free(&o);

	/* The last of -T and -P wins, as in hackbench. */
	assert_int_equal(parse(&o, err, sizeof(err), 3, "load", "-P", "--threads"), 0);
	assert_true(o.cfg.threads);
	load_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 3, "load", "-T", "--process"), 0);
	assert_false(o.cfg.threads);
	load_opts_free(&o);
}

static void test_opts_mix(void **state)
{
	struct load_opts o;
	char err[256] = "";

	(void)state;
	/* Another load alone turns messaging off... */
	assert_int_equal(parse(&o, err, sizeof(err), 5, "load", "--cpu", "2", "-D", "1.5s"), 0);
	assert_int_equal(o.cfg.groups, 0);
	assert_int_equal(o.cfg.cpu_hogs, 2);
	assert_int_equal(o.cfg.duration_ns, 1500000000LL);
	assert_int_equal(o.cfg.runs, 0);
	load_opts_free(&o);
	/* ...unless a messaging option asks for it too. */
	assert_int_equal(parse(&o, err, sizeof(err), 7, "load", "--memory", "8M", "-g", "1",
			       "--oom", "--nice=5"), 0);
	assert_int_equal(o.cfg.groups, 1);
	assert_int_equal(o.cfg.memory_bytes, 8u << 20);
	assert_true(o.cfg.oom);
	assert_int_equal(o.cfg.nice, 5);
	assert_int_equal(o.cfg.runs, 1);
	load_opts_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 6, "load", "-a", "0", "--format", "json",
			       "-q"), 0);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_true(o.quiet);
	assert_true(rtr_cpuset_test(&o.cfg.cpus, 0));
	load_opts_free(&o);
}

static void expect_bad(const char *what, int argc, char **argv)
{
	struct load_opts o;
	char err[256] = "";

	assert_int_equal(cli_parse_cmd(&load_cmd, argc, argv, &o, err, sizeof(err)), -EINVAL);
	if (!strstr(err, what))
		fail_msg("message '%s' does not mention '%s'", err, what);
	load_opts_free(&o);
}

static void test_opts_bad(void **state)
{
	(void)state;
	expect_bad("--groups", 3, (char *[]){ "load", "-g", "0", NULL });
	expect_bad("not a number", 3, (char *[]){ "load", "-g", "x", NULL });
	expect_bad("--fds", 3, (char *[]){ "load", "-f", "100000", NULL });
	expect_bad("--datasize", 3, (char *[]){ "load", "-s", "0", NULL });
	expect_bad("--loops", 3, (char *[]){ "load", "-l", "-1", NULL });
	expect_bad("--nice", 3, (char *[]){ "load", "--nice", "30", NULL });
	expect_bad("--cpus", 3, (char *[]){ "load", "--cpus", "5-2", NULL });
	expect_bad("--duration", 3, (char *[]){ "load", "-D", "0", NULL });
	expect_bad("--duration", 3, (char *[]){ "load", "-D", "soon", NULL });
	expect_bad("--memory", 3, (char *[]){ "load", "--memory", "1x", NULL });
	expect_bad("--format", 3, (char *[]){ "load", "--format", "xml", NULL });
	expect_bad("unknown option", 2, (char *[]){ "load", "--bogus", NULL });
	expect_bad("needs a value", 2, (char *[]){ "load", "-g", NULL });
	expect_bad("unexpected argument", 2, (char *[]){ "load", "10", NULL });
	expect_bad("no load", 3, (char *[]){ "load", "--cpu", "0", NULL });
}

static void test_parse_key(void **state)
{
	uint64_t v = 0;

	(void)state;
	/* memory.events (v2) and memory.oom_control (v1). */
	assert_int_equal(cgroupfs_parse_key("low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\n"
					       "oom_group_kill 1\n", "oom_kill", &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(cgroupfs_parse_key("oom_kill_disable 0\nunder_oom 0\noom_kill 7",
					       "oom_kill", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(cgroupfs_parse_key("oom_kill_disable 0\n", "oom_kill", &v), -ENOENT);
	assert_int_equal(cgroupfs_parse_key("oom_kill x\n", "oom_kill", &v), -EINVAL);
	assert_int_equal(cgroupfs_parse_key("", "oom_kill", &v), -ENOENT);
}

/* No child of ours may be left once a load is freed. */
static void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void run_messaging(bool threads, bool pipes)
{
	struct load_config c;
	struct load_stats st;
	struct load *l;

	load_config_init(&c);
	c.groups = 2;
	c.fds = 3;
	c.loops = 10;
	c.datasize = 64;
	c.threads = threads;
	c.pipes = pipes;
	assert_int_equal(load_start(&c, &l), 0);
	assert_int_equal(load_wait(l, 30LL * 1000000000), 1);
	assert_int_equal(load_stop(l), 0);
	load_stats(l, &st);
	assert_false(st.running);
	assert_int_equal(st.error, 0);
	assert_int_equal(st.runs, 1);
	assert_int_equal(st.messages, 2 * 3 * 3 * 10);
	assert_true(st.run_ns > 0);
	assert_true(st.elapsed_ns >= st.run_ns);
	load_free(l);
	load_config_free(&c);
	assert_no_children();
}

static void test_run_messaging(void **state)
{
	(void)state;
	run_messaging(false, false);
	run_messaging(true, true);
}

static void test_stop_cpu(void **state)
{
	struct load_config c;
	struct load_stats st;
	struct load *l;

	(void)state;
	load_config_init(&c);
	c.groups = 0;
	c.cpu_hogs = 1;
	c.memory_bytes = 1u << 20;
	assert_int_equal(load_start(&c, &l), 0);
	/* No duration: it runs until stopped. */
	assert_int_equal(load_wait(l, 200 * 1000000LL), 0);
	load_stats(l, &st);
	assert_true(st.running);
	assert_int_equal(load_stop(l), 0);
	load_stats(l, &st);
	assert_false(st.running);
	assert_int_equal(st.error, 0);
	assert_int_equal(load_wait(l, 0), 1);
	load_free(l);
	load_config_free(&c);
	assert_no_children();
}

static void test_bad_config_start(void **state)
{
	struct load_config c;
	struct load *l = (struct load *)&c;

	(void)state;
	load_config_init(&c);
	c.fds = 0;
	assert_int_equal(load_start(&c, &l), -EINVAL);
	assert_null(l);
	load_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_opts_messaging),
		cmocka_unit_test(test_opts_mix),
		cmocka_unit_test(test_opts_bad),
		cmocka_unit_test(test_parse_key),
		cmocka_unit_test(test_run_messaging),
		cmocka_unit_test(test_stop_cpu),
		cmocka_unit_test(test_bad_config_start),
	};

	return unit_run(tests, NULL, NULL);
}
