// SPDX-License-Identifier: MIT
/*
 * Unit tests of the self-check: its findings follow what the process did
 * (mallopt, mlockall, threads started with rtr_thread_create), a thread at
 * priority 99 is a failure, findings past the caller's array are counted
 * but not written; and the /proc parsers behind it, on sample lines.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/cpuset.h"
#include "rtready/mem.h"
#include "rtready/selfcheck.h"
#include "rtready/thread.h"
#include "lib-test-priv.h"
#include "procself.h"

#define CAP 64

static struct rtr_finding findings[CAP];
static size_t nfindings;

static void run_selfcheck(void)
{
	assert_int_equal(rtr_selfcheck(findings, CAP, &nfindings), 0);
	assert_true(nfindings <= CAP);
}

/* The finding with @id (and @tid when not 0); fails the test if absent. */
static const struct rtr_finding *find(const char *id, int tid)
{
	for (size_t i = 0; i < nfindings; i++)
		if (strcmp(findings[i].id, id) == 0 && (tid == 0 || findings[i].tid == tid))
			return &findings[i];
	fail_msg("no finding %s (tid %d)", id, tid);
	return NULL;
}

static void assert_complete(const struct rtr_finding *f)
{
	assert_true(f->title[0] && f->evidence[0] && f->why[0] && f->fix[0]);
	assert_non_null(rtr_status_name(f->status));
}

static void test_statuses(void **state)
{
	(void)state;
	assert_string_equal(rtr_status_name(RTR_PASS), "pass");
	assert_string_equal(rtr_status_name(RTR_WARN), "warn");
	assert_string_equal(rtr_status_name(RTR_FAIL), "fail");
	assert_string_equal(rtr_status_name(RTR_INFO), "info");
	assert_string_equal(rtr_status_name(RTR_SKIP), "skip");
}

/* Runs first: nothing set up yet. */
static void test_before_setup(void **state)
{
	const struct rtr_finding *f;
	char buf[32];

	(void)state;
	run_selfcheck();
	f = find("self.memory_locked", 0);
	assert_int_equal(f->status, RTR_FAIL);
	assert_non_null(strstr(f->evidence, "VmLck 0 kB"));
	assert_complete(f);
	f = find("self.mallopt", 0);
	assert_int_equal(f->status, rtr_mem_mallopt_supported() ? RTR_WARN : RTR_INFO);
	assert_complete(f);
	f = find("self.thread_policy", (int)syscall(SYS_gettid));
	assert_int_equal(f->status, RTR_INFO);
	assert_non_null(strstr(f->evidence, "SCHED_OTHER nice 0"));
	assert_complete(f);
	f = find("self.prio99", 0);
	assert_int_equal(f->status, RTR_PASS);
	assert_complete(f);
	f = find("self.rt_throttling", 0);
	assert_complete(f);
	if (rtr__procself_read(PROCSELF_RT_RUNTIME, buf, sizeof(buf)) > 0)
		assert_int_equal(f->status, buf[0] == '-' ? RTR_PASS : RTR_WARN);
	else
		assert_int_equal(f->status, RTR_SKIP);
}

static void test_after_setup(void **state)
{
	const struct rtr_finding *f;

	(void)state;
	if (geteuid() != 0 || UNDER_ASAN)
		skip();
	if (rtr_mem_mallopt_supported())
		assert_int_equal(rtr_mem_mallopt(), 0);
	assert_int_equal(rtr_mem_lock(), 0);
	run_selfcheck();
	f = find("self.memory_locked", 0);
	assert_int_equal(f->status, RTR_PASS);
	assert_non_null(strstr(f->evidence, "MCL_FUTURE"));
	f = find("self.mallopt", 0);
	assert_int_equal(f->status, rtr_mem_mallopt_supported() ? RTR_PASS : RTR_INFO);
	assert_int_equal(rtr_mem_unlock(), 0);
	run_selfcheck();
	assert_int_equal(find("self.memory_locked", 0)->status, RTR_FAIL);
}

struct parked {
	sem_t started, release;
	int tid;
};

/* A test thread that only blocks: it costs no CPU at any priority. */
static void *park(void *arg)
{
	struct parked *p = arg;

	p->tid = (int)syscall(SYS_gettid);
	sem_post(&p->started);
	while (sem_wait(&p->release) != 0)
		;
	return NULL;
}

static pthread_t start_parked(struct parked *p, const struct rtr_thread_attr *a)
{
	pthread_t t;

	sem_init(&p->started, 0, 0);
	sem_init(&p->release, 0, 0);
	assert_int_equal(rtr_thread_create(&t, a, park, p), 0);
	while (sem_wait(&p->started) != 0)
		;
	return t;
}

static void stop_parked(struct parked *p, pthread_t t)
{
	sem_post(&p->release);
	pthread_join(t, NULL);
	sem_destroy(&p->started);
	sem_destroy(&p->release);
}

static void test_threads(void **state)
{
	struct rtr_cpuset cpu0 = RTR_CPUSET_INIT;
	struct rtr_thread_attr pinned = { .policy = RTR_SCHED_FIFO, .priority = 80, .cpus = &cpu0 };
	struct rtr_thread_attr loose = { .policy = RTR_SCHED_RR, .priority = 10 };
	struct parked a, b;
	const struct rtr_finding *f;
	pthread_t ta, tb;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(rtr_cpuset_set(&cpu0, 0), 0);
	ta = start_parked(&a, &pinned);
	tb = start_parked(&b, &loose);
	run_selfcheck();
	f = find("self.thread_policy", a.tid);
	assert_non_null(strstr(f->evidence, "SCHED_FIFO priority 80, CPUs 0 "));
	assert_int_equal(f->status, online > 1 ? RTR_PASS : RTR_WARN);
	f = find("self.thread_policy", b.tid);
	assert_non_null(strstr(f->evidence, "SCHED_RR priority 10"));
	assert_int_equal(f->status, RTR_WARN);
	assert_non_null(strstr(f->fix, "cpus"));
	assert_int_equal(find("self.prio99", 0)->status, RTR_PASS);
	stop_parked(&a, ta);
	stop_parked(&b, tb);
	rtr_cpuset_free(&cpu0);
}

static void test_prio99(void **state)
{
	/* allow_prio99: the caller insists; the self-check must still flag it. */
	struct rtr_thread_attr top = { .policy = RTR_SCHED_FIFO, .priority = 99,
				       .allow_prio99 = true };
	const struct rtr_finding *f;
	struct parked p;
	pthread_t t;
	char tid[16];

	(void)state;
	if (geteuid() != 0)
		skip();
	t = start_parked(&p, &top);
	run_selfcheck();
	f = find("self.prio99", 0);
	assert_int_equal(f->status, RTR_FAIL);
	assert_int_equal(f->tid, p.tid);
	snprintf(tid, sizeof(tid), "%d", p.tid);
	assert_non_null(strstr(f->evidence, tid));
	stop_parked(&p, t);
	run_selfcheck();
	assert_int_equal(find("self.prio99", 0)->status, RTR_PASS);
}

static void test_capacity(void **state)
{
	struct rtr_finding two[3];
	size_t n = 0, all = 0;

	(void)state;
	memset(two, 0xa5, sizeof(two));
	assert_int_equal(rtr_selfcheck(two, 2, &n), 0);
	assert_true(n >= 5);
	/* The third element was not written. */
	assert_int_equal(((unsigned char *)&two[2])[0], 0xa5);
	assert_string_equal(two[0].id, "self.memory_locked");
	assert_int_equal(rtr_selfcheck(NULL, 0, &all), 0);
	assert_int_equal(all, n);
	assert_int_equal(rtr_selfcheck(two, 2, NULL), -EINVAL);
}

static void test_parse_stat(void **state)
{
	/* A comm with spaces and parentheses; fields as in proc(5). */
	const char *line = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 17 0 3 0 5 6 0 0 -81 0 "
			   "3 0 123 456789 100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 "
			   "-1 1 80 1 0 0 0\n";
	struct rtr__procself_task t;

	(void)state;
	assert_int_equal(rtr__procself_parse_stat(line, &t), 0);
	assert_int_equal(t.tid, 4242);
	assert_string_equal(t.comm, "a (b) c");
	assert_int_equal(t.minor_faults, 17);
	assert_int_equal(t.major_faults, 3);
	assert_int_equal(t.prio, -81);
	assert_int_equal(t.nice, 0);
	assert_int_equal(t.rt_priority, 80);
	assert_int_equal(t.policy, 1);
	assert_int_equal(rtr__procself_parse_stat("4242 (x) S 1 2 3\n", &t), -EINVAL);
	assert_int_equal(rtr__procself_parse_stat("4242 x S 1 2 3\n", &t), -EINVAL);
	assert_int_equal(rtr__procself_parse_stat("(x) S 1 2 3\n", &t), -EINVAL);
	assert_int_equal(rtr__procself_parse_stat("12 (x)", &t), -EINVAL);
	assert_int_equal(rtr__procself_parse_stat("", &t), -EINVAL);
}

static void test_parse_status(void **state)
{
	const char *text = "Name:\tapp\nVmLckX:\t1 kB\nVmLck:\t    1234 kB\nVmRSS:\t9 kB\n"
			   "VmBad:\t kB\n";
	uint64_t v = 0;

	(void)state;
	assert_int_equal(rtr__procself_status_bytes(text, "VmLck", &v), 0);
	assert_int_equal(v, 1234 * 1024);
	assert_int_equal(rtr__procself_status_bytes(text, "VmRSS", &v), 0);
	assert_int_equal(v, 9 * 1024);
	assert_int_equal(rtr__procself_status_bytes(text, "VmSwap", &v), -ENOENT);
	assert_int_equal(rtr__procself_status_bytes(text, "VmBad", &v), -EINVAL);
	assert_int_equal(rtr__procself_status_bytes("VmLck:\t99999999999999999999 kB\n", "VmLck", &v),
			 -EINVAL);
	assert_int_equal(rtr__procself_status_bytes("", "VmLck", &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_before_setup),
		cmocka_unit_test(test_after_setup),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_prio99),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_status),
	};

	return unit_run(tests, NULL, NULL);
}
