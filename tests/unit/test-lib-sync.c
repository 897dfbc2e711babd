// SPDX-License-Identifier: MIT
/*
 * Unit tests of the synchronisation helpers: a PI mutex really boosts its
 * holder (seen in the kernel's effective priority of the holding thread),
 * a plain one does not claim to be PI, and monotonic condvar waits time
 * out after the deadline and wake when signalled.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/sync.h"
#include "rtready/thread.h"
#include "rtready/timespec.h"
#include "procself.h"

static struct timespec now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

static void test_attr(void **state)
{
	pthread_mutexattr_t attr;

	(void)state;
	assert_int_equal(rtr_mutexattr_init_pi(&attr), 0);
	assert_int_equal(rtr_mutex_is_pi(&attr), 1);
	pthread_mutexattr_destroy(&attr);
	assert_int_equal(pthread_mutexattr_init(&attr), 0);
	assert_int_equal(rtr_mutex_is_pi(&attr), 0);
	pthread_mutexattr_destroy(&attr);
}

struct pi_ctx {
	pthread_mutex_t m;
	int locked;
};

static void *waiter(void *arg)
{
	struct pi_ctx *c = arg;

	pthread_mutex_lock(&c->m);
	c->locked = 1;
	pthread_mutex_unlock(&c->m);
	return NULL;
}

/*
 * Field 18 of /proc/self/task/TID/stat: 20 for an OTHER thread at nice 0,
 * -1 - prio for a boosted one (-51 for FIFO 50).
 */
static int effective_prio(void)
{
	struct rtr__procself_task t;

	assert_int_equal(rtr__procself_task((int)syscall(SYS_gettid), &t), 0);
	return t.prio;
}

static void test_pi_boosts_holder(void **state)
{
	struct rtr_thread_attr a = { .policy = RTR_SCHED_FIFO, .priority = 50 };
	struct pi_ctx c = { .locked = 0 };
	int prio = 0;
	pthread_t t;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(rtr_mutex_init_pi(&c.m), 0);
	assert_int_equal(effective_prio(), 20);
	pthread_mutex_lock(&c.m);
	assert_int_equal(rtr_thread_create(&t, &a, waiter, &c), 0);
	/* Bounded: 2 s for the waiter to block on the lock. */
	for (int i = 0; i < 2000; i++) {
		prio = effective_prio();
		if (prio == -51)
			break;
		usleep(1000);
	}
	assert_int_equal(prio, -51);
	pthread_mutex_unlock(&c.m);
	pthread_join(t, NULL);
	assert_int_equal(c.locked, 1);
	assert_int_equal(effective_prio(), 20);
	pthread_mutex_destroy(&c.m);
}

static void test_plain_mutex_no_boost(void **state)
{
	struct rtr_thread_attr a = { .policy = RTR_SCHED_FIFO, .priority = 50 };
	struct pi_ctx c = { .locked = 0 };
	pthread_t t;

	(void)state;
	if (geteuid() != 0)
		skip();
	pthread_mutex_init(&c.m, NULL);
	pthread_mutex_lock(&c.m);
	assert_int_equal(rtr_thread_create(&t, &a, waiter, &c), 0);
	usleep(50000);
	assert_int_equal(effective_prio(), 20);
	pthread_mutex_unlock(&c.m);
	pthread_join(t, NULL);
	pthread_mutex_destroy(&c.m);
}

static void test_cond_timeout(void **state)
{
	pthread_mutex_t m;
	pthread_cond_t c;
	struct timespec start = now(), deadline = rtr_ts_add_ns(start, 20 * RTR_NSEC_PER_MSEC);
	struct timespec bad = { 0, 1000000000L };
	int64_t waited;

	(void)state;
	assert_int_equal(rtr_mutex_init_pi(&m), 0);
	assert_int_equal(rtr_cond_init_monotonic(&c), 0);
	pthread_mutex_lock(&m);
	assert_int_equal(rtr_cond_wait_until(&c, &m, &deadline), -ETIMEDOUT);
	waited = rtr_ts_diff_ns(now(), start);
	assert_true(waited >= 20 * RTR_NSEC_PER_MSEC);
	assert_true(waited < 2 * RTR_NSEC_PER_SEC);
	/* A deadline in the past returns at once. */
	assert_int_equal(rtr_cond_wait_until(&c, &m, &start), -ETIMEDOUT);
	assert_int_equal(rtr_cond_wait_until(&c, &m, &bad), -EINVAL);
	pthread_mutex_unlock(&m);
	pthread_cond_destroy(&c);
	pthread_mutex_destroy(&m);
}

struct handoff {
	pthread_mutex_t m;
	pthread_cond_t c;
	int ready;
};

static void *signaller(void *arg)
{
	struct handoff *h = arg;

	usleep(10000);
	pthread_mutex_lock(&h->m);
	h->ready = 1;
	pthread_cond_signal(&h->c);
	pthread_mutex_unlock(&h->m);
	return NULL;
}

static void test_cond_signalled(void **state)
{
	struct handoff h = { .ready = 0 };
	struct timespec deadline = rtr_ts_add_ns(now(), 5 * RTR_NSEC_PER_SEC);
	pthread_t t;
	int err = 0;

	(void)state;
	assert_int_equal(rtr_mutex_init_pi(&h.m), 0);
	assert_int_equal(rtr_cond_init_monotonic(&h.c), 0);
	pthread_mutex_lock(&h.m);
	assert_int_equal(pthread_create(&t, NULL, signaller, &h), 0);
	while (!h.ready && err == 0)
		err = rtr_cond_wait_until(&h.c, &h.m, &deadline);
	assert_int_equal(err, 0);
	assert_int_equal(h.ready, 1);
	pthread_mutex_unlock(&h.m);
	pthread_join(t, NULL);
	assert_true(rtr_ts_cmp(now(), deadline) < 0);
	pthread_cond_destroy(&h.c);
	pthread_mutex_destroy(&h.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_pi_boosts_holder),
		cmocka_unit_test(test_plain_mutex_no_boost),
		cmocka_unit_test(test_cond_timeout),
		cmocka_unit_test(test_cond_signalled),
	};

	return unit_run(tests, NULL, NULL);
}
