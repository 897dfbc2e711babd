// SPDX-License-Identifier: MIT
/*
 * The target context on fixture trees, one case per kind of RT request:
 * none (what the kernel isolates, at boot or by a cgroup v2 isolated
 * partition), a list, auto and auto:N (the planner),
 * and a plan that cannot be made. Also the parser of the request.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "target/target.h"
#include "unit.h"

static char *fixture(const char *name)
{
	static char path[4096];
	const char *src = getenv("SRCDIR");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : "..", name);
	return path;
}

static struct target *open_ok(const char *tree, const struct rt_request *rt, unsigned int want)
{
	struct target *t = malloc(sizeof(*t));
	char err[1024] = "";

	assert_non_null(t);
	if (target_open(t, fixture(tree), rt, want, err, sizeof(err)))
		fail_msg("target_open(%s): %s", tree, err);
	return t;
}

static void done(struct target *t)
{
	target_close(t);
	free(t);
}

static void test_parse(void **state)
{
	struct rt_request r = RT_REQUEST_INIT;
	char err[256];

	(void)state;
	assert_int_equal(rt_request_parse("--rt-cpus", "auto", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RT_REQUEST_AUTO);
	assert_int_equal(r.count, 0);
	assert_string_equal(r.opt, "--rt-cpus");
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:3", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RT_REQUEST_AUTO);
	assert_int_equal(r.count, 3);
	assert_int_equal(rt_request_parse("--rt-cpus", "2-3", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RT_REQUEST_LIST);
	assert_int_equal(rtr_cpuset_count(&r.cpus), 2);
	/* A later value replaces the earlier one, whatever its kind. */
	assert_int_equal(rt_request_parse("--rt-cpus", "auto", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RT_REQUEST_AUTO);
	assert_true(rtr_cpuset_is_empty(&r.cpus));
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:0", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "auto:N"));
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rt_request_parse("--rt-cpus", "autox", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is not a CPU list"));
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:2x", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rt_request_parse("--rt-cpus", "99999", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too large"));
	assert_int_equal(rt_request_parse("--affinity", "", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--affinity"));
	rt_request_free(&r);
}

/* Not given: the isolated CPUs of the tree, and the rest is housekeeping. */
static void test_none_isolated(void **state)
{
	struct target *t = open_ok("kernel-x86_64-rt", NULL, TARGET_HOST);
	char list[64];

	(void)state;
	assert_int_equal(t->rt.source, RTCPUS_ISOLATED);
	assert_string_equal(t->rt_list, "2-3");
	assert_string_equal(t->online_list, "0-3");
	rtr_cpuset_format_list(&t->housekeeping, list, sizeof(list));
	assert_string_equal(list, "0-1");
	assert_int_equal(target_need_online(t, list, sizeof(list)), 0);
	/* The host facts only: no task or IRQ was read. */
	assert_int_equal(t->facts.tasks.n, 0);
	done(t);
}

/* Not given, nothing isolated: no RT CPUs, every online CPU is housekeeping. */
static void test_none_nothing(void **state)
{
	struct target *t = open_ok("vm", NULL, TARGET_FACTS);
	char list[64];

	(void)state;
	assert_int_equal(t->rt.source, RTCPUS_NONE);
	assert_string_equal(t->rt_list, "");
	rtr_cpuset_format_list(&t->housekeeping, list, sizeof(list));
	assert_string_equal(list, t->online_list);
	done(t);
}

/*
 * Not given, isolated only by a cgroup v2 partition (no isolcpus=, an empty
 * sysfs isolated file): the partition's CPUs, with the host facts alone and
 * with every fact (read once there, by the partition probe); --rt-cpus wins.
 */
static void test_none_partition(void **state)
{
	static const unsigned int wants[] = { TARGET_HOST, TARGET_FACTS };
	struct rt_request r = RT_REQUEST_INIT;
	struct target *t;
	char list[64], err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		t = open_ok("partition/v2-isolated", NULL, wants[i]);
		assert_int_equal(t->rt.source, RTCPUS_PARTITION);
		assert_string_equal(rtcpus_source_name(t->rt.source), "isolated partition");
		assert_string_equal(t->rt_list, "2-3");
		rtr_cpuset_format_list(&t->housekeeping, list, sizeof(list));
		assert_string_equal(list, "0-1");
		done(t);
	}
	assert_int_equal(rt_request_parse("--rt-cpus", "1", &r, err, sizeof(err)), 0);
	t = open_ok("partition/v2-isolated", &r, TARGET_HOST);
	assert_int_equal(t->rt.source, RTCPUS_GIVEN);
	assert_string_equal(t->rt_list, "1");
	done(t);
	rt_request_free(&r);
	/* No partition (v2-none), cpuset on v1 (hybrid-v1), no cpuset.cpus.isolated (5.15). */
	static const char *const none[] = { "partition/v2-none", "partition/hybrid-v1",
					    "partition/old-kernel" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		t = open_ok(none[i], NULL, TARGET_HOST);
		assert_int_equal(t->rt.source, RTCPUS_NONE);
		assert_string_equal(t->rt_list, "");
		done(t);
	}
}

/* The order: the boot's isolated CPUs, then a partition's, then nohz_full. */
static void test_partition_order(void **state)
{
	struct rtcpus rt = RTCPUS_INIT;
	struct cpu_facts c;
	char buf[64];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.isolated_err = c.nohz_full_err = -ENOENT;
	assert_int_equal(rtr_cpuset_parse_list(&c.partitioned, "4-5"), 0);
	assert_int_equal(rtr_cpuset_parse_list(&c.nohz_full, "1-5"), 0);
	c.nohz_full_err = 0;
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_PARTITION);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "4-5");
	/* An empty cpuset.cpus.isolated (no partition): nohz_full. */
	rtr_cpuset_clear(&c.partitioned);
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_NOHZ_FULL);
	/* A partition's file that could not be read counts for nothing, whatever it held. */
	assert_int_equal(rtr_cpuset_parse_list(&c.partitioned, "4-5"), 0);
	c.partitioned_err = -EACCES;
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_NOHZ_FULL);
	/* The boot's domain isolation comes first. */
	c.partitioned_err = 0;
	c.isolated_err = 0;
	assert_int_equal(rtr_cpuset_parse_list(&c.isolated, "2-3"), 0);
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_ISOLATED);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "2-3");
	rtcpus_free(&rt);
	rtr_cpuset_free(&c.isolated);
	rtr_cpuset_free(&c.nohz_full);
	rtr_cpuset_free(&c.partitioned);
}

/*
 * The boot parameters count only where their sysfs file is missing, and
 * --rt-cpus wins over everything, empty or not.
 */
static void test_boot_param_order(void **state)
{
	struct rtcpus rt = RTCPUS_INIT;
	struct rtr_cpuset given = RTR_CPUSET_INIT;
	struct cpu_facts c;
	char buf[64];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.isolated_err = c.nohz_full_err = c.partitioned_err = -ENOENT;
	c.isolcpus.given = c.nohz_full_param.given = true;
	assert_int_equal(rtr_cpuset_parse_list(&c.isolcpus.cpus, "2"), 0);
	assert_int_equal(rtr_cpuset_parse_list(&c.nohz_full_param.cpus, "3"), 0);
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_ISOLCPUS);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "2");
	/* A garbled isolcpus=: the next source, nohz_full=. */
	c.isolcpus.err = -EINVAL;
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_NOHZ_FULL_PARAM);
	rtr_cpuset_format_list(&rt.cpus, buf, sizeof(buf));
	assert_string_equal(buf, "3");
	/* The nohz_full file read (empty): the parameter no longer counts. */
	c.nohz_full_err = 0;
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_NONE);
	assert_true(rtr_cpuset_is_empty(&rt.cpus));
	/* Likewise the isolated file read and empty: isolcpus= no longer counts. */
	c.isolcpus.err = 0;
	c.isolated_err = 0;
	assert_int_equal(rtcpus_resolve(&c, NULL, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_NONE);
	/* --rt-cpus, even empty, is what the user declared. */
	assert_int_equal(rtcpus_resolve(&c, &given, &rt), 0);
	assert_int_equal(rt.source, RTCPUS_GIVEN);
	assert_true(rtr_cpuset_is_empty(&rt.cpus));
	rtcpus_free(&rt);
	rtr_cpuset_free(&c.isolcpus.cpus);
	rtr_cpuset_free(&c.nohz_full_param.cpus);
}

static void test_list(void **state)
{
	struct rt_request r = RT_REQUEST_INIT;
	struct target *t;
	char err[256], list[64];
	struct host_info h = { 0 };

	(void)state;
	assert_int_equal(rt_request_parse("--rt-cpus", "1,3", &r, err, sizeof(err)), 0);
	t = open_ok("kernel-x86_64-rt", &r, TARGET_FACTS);
	assert_int_equal(t->rt.source, RTCPUS_GIVEN);
	assert_string_equal(t->rt_list, "1,3");
	rtr_cpuset_format_list(&t->housekeeping, list, sizeof(list));
	assert_string_equal(list, "0,2");
	assert_int_equal(target_check_online(t, "--rt-cpus", &r.cpus, err, sizeof(err)), 0);
	/* The whole facts were read, once. */
	assert_true(t->facts.tasks.n > 0 || t->facts.tasks.err);
	assert_int_equal(target_host_info(t, &h), 0);
	assert_string_equal(h.rt_cpus, "1,3");
	assert_string_equal(h.cpus_online, "0-3");
	assert_non_null(strstr(h.root, "kernel-x86_64-rt"));
	host_info_free(&h);
	rt_request_free(&r);
	done(t);
}

static void test_list_offline(void **state)
{
	struct rt_request r = RT_REQUEST_INIT;
	struct target *t;
	char err[256];

	(void)state;
	assert_int_equal(rt_request_parse("--rt-cpus", "3-5", &r, err, sizeof(err)), 0);
	t = open_ok("kernel-x86_64-rt", &r, TARGET_HOST);
	assert_int_equal(target_check_online(t, "--rt-cpus", &r.cpus, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "--rt-cpus: CPU 4 is not online (online: 0-3)");
	rt_request_free(&r);
	done(t);
}

/* auto and auto:N: the planner's choice, marked as planned. */
static void test_auto(void **state)
{
	struct rt_request r = RT_REQUEST_INIT;
	struct target *t;
	char err[256];

	(void)state;
	assert_int_equal(rt_request_parse("--rt-cpus", "auto", &r, err, sizeof(err)), 0);
	t = open_ok("topo/biglittle", &r, TARGET_HOST);
	assert_int_equal(t->rt.source, RTCPUS_PLANNED);
	assert_string_equal(t->rt_list, "4-5 (planned)");
	done(t);
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:1", &r, err, sizeof(err)), 0);
	t = open_ok("topo/biglittle", &r, TARGET_FACTS);
	assert_string_equal(t->rt_list, "5 (planned)");
	done(t);
	rt_request_free(&r);
}

static void test_auto_refused(void **state)
{
	struct rt_request r = RT_REQUEST_INIT;
	struct target t;
	char err[1024];

	(void)state;
	assert_int_equal(rt_request_parse("--rt-cpus", "auto:6", &r, err, sizeof(err)), 0);
	assert_int_equal(target_open(&t, fixture("topo/biglittle"), &r, TARGET_HOST, err,
				     sizeof(err)), -EDOM);
	assert_non_null(strstr(err, "--rt-cpus auto: no plan: "));
	assert_non_null(strstr(err, "(rule housekeeping)"));
	rt_request_free(&r);
}

static void test_bad_root(void **state)
{
	struct target t;
	char err[1024];

	(void)state;
	assert_int_equal(target_open(&t, "/nonexistent/rtready", NULL, TARGET_HOST, err,
				     sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot open root directory /nonexistent/rtready: "
				 "No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_none_isolated),
		cmocka_unit_test(test_none_nothing),
		cmocka_unit_test(test_none_partition),
		cmocka_unit_test(test_partition_order),
		cmocka_unit_test(test_boot_param_order),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_offline),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_auto_refused),
		cmocka_unit_test(test_bad_root),
	};

	return unit_run(tests, NULL, NULL);
}
