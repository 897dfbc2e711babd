// SPDX-License-Identifier: MIT
/*
 * Unit tests of the periodic loop: deadlines stay on the start + k * period
 * grid (no drift), a late caller gets its missed periods counted and
 * skipped, signals do not cut a wait short, and a wait neither faults nor
 * fails once the loop runs. Timing is asserted as bounds only.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/mem.h"
#include "rtready/period.h"
#include "rtready/timespec.h"

static struct timespec now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

static void test_init_errors(void **state)
{
	struct rtr_period p;

	(void)state;
	assert_int_equal(rtr_period_init(&p, 0), -EINVAL);
	assert_int_equal(rtr_period_init(&p, -5), -EINVAL);
	/* A failed init leaves a period that refuses to wait. */
	assert_int_equal(rtr_period_wait(&p, NULL), -EINVAL);
}

/* The deadline after n waits is start + (cycles + overruns + 1) * period. */
static void assert_on_grid(const struct rtr_period *p, struct timespec first)
{
	int64_t off = rtr_ts_diff_ns(p->next, first);

	assert_int_equal(off % p->period_ns, 0);
	assert_int_equal(off / p->period_ns, (int64_t)(p->cycles + p->overruns));
}

static void test_grid(void **state)
{
	const int64_t period = 2 * RTR_NSEC_PER_MSEC;
	struct timespec start = now(), first;
	struct rtr_period p;
	int64_t lat;

	(void)state;
	assert_int_equal(rtr_period_init(&p, period), 0);
	first = p.next;
	assert_true(rtr_ts_diff_ns(first, start) >= period);
	for (int i = 0; i < 25; i++) {
		assert_int_equal(rtr_period_wait(&p, &lat), 0);
		assert_true(lat >= 0);
		assert_on_grid(&p, first);
	}
	assert_int_equal(p.cycles, 25);
	/* At least 25 periods passed, and not absurdly more. */
	assert_true(rtr_ts_diff_ns(now(), start) >= 25 * period);
	assert_true(rtr_ts_diff_ns(now(), start) < 25 * period + 2 * RTR_NSEC_PER_SEC);
}

static void test_overrun(void **state)
{
	const int64_t period = RTR_NSEC_PER_MSEC;
	struct timespec first, late = { 0, 5500000L }, after;
	struct rtr_period p;
	int64_t lat;

	(void)state;
	assert_int_equal(rtr_period_init(&p, period), 0);
	first = p.next;
	/* Sleep through the first deadline and about five more. */
	while (nanosleep(&late, &late) != 0 && errno == EINTR)
		;
	assert_int_equal(rtr_period_wait(&p, &lat), 0);
	after = now();
	assert_true(lat >= 4 * period);
	assert_true(p.overruns >= 4);
	assert_int_equal(p.overruns, (uint64_t)(lat / period));
	assert_int_equal(p.cycles, 1);
	assert_on_grid(&p, first);
	/* The next deadline is in the future again: no burst of catch-up cycles. */
	assert_true(rtr_ts_cmp(p.next, after) > 0);
	assert_true(rtr_ts_diff_ns(p.next, after) <= period);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void test_eintr(void **state)
{
	struct sigaction sa, old;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct rtr_period p;
	struct timespec start;
	int64_t lat;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the sleep sees EINTR */
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	alarms = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	start = now();
	assert_int_equal(rtr_period_init(&p, 10 * RTR_NSEC_PER_MSEC), 0);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(rtr_period_wait(&p, &lat), 0);
		assert_true(lat >= 0);
	}
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	assert_true(alarms > 5);
	/* Interrupted sleeps were resumed: the full 50 ms went by. */
	assert_true(rtr_ts_diff_ns(now(), start) >= 50 * RTR_NSEC_PER_MSEC);
}

/* The RT path: after the first cycle, waiting takes no page fault. */
static void test_no_faults(void **state)
{
	uint64_t min0, maj0, min1, maj1;
	struct rtr_period p;
	int64_t lat;

	(void)state;
	assert_int_equal(rtr_period_init(&p, 500 * RTR_NSEC_PER_USEC), 0);
	assert_int_equal(rtr_period_wait(&p, &lat), 0);
	assert_int_equal(rtr_mem_thread_faults(&min0, &maj0), 0);
	for (int i = 0; i < 40; i++)
		assert_int_equal(rtr_period_wait(&p, NULL), 0);
	assert_int_equal(rtr_mem_thread_faults(&min1, &maj1), 0);
	assert_int_equal(min1 - min0 + maj1 - maj0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_overrun),
		cmocka_unit_test(test_eintr),
		cmocka_unit_test(test_no_faults),
	};

	return unit_run(tests, NULL, NULL);
}
