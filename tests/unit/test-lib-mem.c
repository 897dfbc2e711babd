// SPDX-License-Identifier: MIT
/*
 * Unit tests of the memory recipes: mallopt recorded, mlockall visible in
 * VmLck, prefaulted heap and stack that fault no more once touched, the
 * bounds of the stack prefault, and a refused mlockall that names
 * RLIMIT_MEMLOCK and CAP_IPC_LOCK.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "rtready/error.h"
#include "rtready/mem.h"
#include "lib-test-priv.h"

static uint64_t thread_faults(void)
{
	uint64_t minor = 0, major = 0;

	assert_int_equal(rtr_mem_thread_faults(&minor, &major), 0);
	return minor + major;
}

/* The heap stays only where glibc's malloc runs with the tunables. */
static bool heap_is_kept(void)
{
	return rtr_mem_mallopt_supported() && !UNDER_ASAN;
}

static void test_mallopt(void **state)
{
	struct rtr_mem_status st;
	int err = rtr_mem_mallopt();

	(void)state;
	if (rtr_mem_mallopt_supported() && !UNDER_ASAN) {
		assert_int_equal(err, 0);
	} else if (UNDER_ASAN) {
		assert_int_equal(err, -ENOTSUP);
		assert_non_null(strstr(rtr_last_error(), "sanitizer"));
	} else {
		assert_int_equal(err, -ENOTSUP);
		assert_non_null(strstr(rtr_last_error(), "M_MMAP_MAX"));
	}
	assert_int_equal(rtr_mem_status(&st), 0);
	assert_int_equal(st.mallopt_done, err == 0);
	assert_true(st.resident_bytes > 0);
}

/* With mallopt in force, a prefaulted heap stays mapped after free(). */
static void test_prefault_heap(void **state)
{
	const size_t bytes = 4u << 20;
	volatile unsigned char *p;
	uint64_t before, after;

	(void)state;
	assert_int_equal(rtr_mem_prefault_heap(0), 0);
	before = thread_faults();
	assert_int_equal(rtr_mem_prefault_heap(bytes), 0);
	after = thread_faults();
	/* The first touch of 1024 fresh pages faults (most of) them in. */
	if (!UNDER_ASAN)
		assert_true(after - before >= 512);
	if (!heap_is_kept())
		return;
	/* Same size again: served from the kept heap, no new faults. */
	p = malloc(bytes);
	assert_non_null(p);
	before = thread_faults();
	for (size_t off = 0; off < bytes; off += 4096)
		p[off] = 2;
	after = thread_faults();
	free((void *)p);
	assert_true(after - before < 8);
}

struct stack_result {
	int err_big, err_ok, err_again, err_all;
	uint64_t first, second;
};

static void *stack_thread(void *arg)
{
	struct stack_result *r = arg;
	uint64_t a, b, c;

	r->err_big = rtr_mem_prefault_stack(200u << 10);
	a = thread_faults();
	r->err_ok = rtr_mem_prefault_stack(96u << 10);
	b = thread_faults();
	r->err_again = rtr_mem_prefault_stack(96u << 10);
	c = thread_faults();
	r->err_all = rtr_mem_prefault_stack_all();
	r->first = b - a;
	r->second = c - b;
	return NULL;
}

static void test_prefault_stack(void **state)
{
	struct stack_result r;
	pthread_attr_t attr;
	pthread_t t;

	(void)state;
	assert_int_equal(rtr_mem_prefault_stack(0), 0);
	assert_int_equal(rtr_mem_prefault_stack((64u << 20) + 1), -EINVAL);
	assert_non_null(strstr(rtr_last_error(), "64 MiB"));
	assert_int_equal(rtr_mem_prefault_stack(64u << 10), 0);

	/* A 160 KiB thread stack, not locked: faults are visible. */
	assert_int_equal(rtr_mem_unlock(), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 160u << 10), 0);
	assert_int_equal(pthread_create(&t, &attr, stack_thread, &r), 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	assert_int_equal(r.err_big, -EINVAL);
	assert_int_equal(r.err_ok, 0);
	assert_int_equal(r.err_again, 0);
	assert_int_equal(r.err_all, 0);
	/* 24 fresh pages the first time (some may be touched already) ... */
	assert_true(r.first >= 12);
	/*
	 * ... none the second time: the pages are there. Under ASan its own
	 * bookkeeping around the calls takes a few faults of its own (4 seen
	 * here every time, against 27 for the first touch).
	 */
	assert_true(r.second <= (UNDER_ASAN ? 8u : 2u));
	assert_true(r.second < r.first / 2);
}

static void test_lock_and_status(void **state)
{
	struct rtr_mem_status st;

	(void)state;
	if (geteuid() != 0)
		skip();
	if (UNDER_ASAN) {
		/* ASan's mlockall is a no-op: we must not claim a lock. */
		assert_int_equal(rtr_mem_lock(), -ENOTSUP);
		assert_non_null(strstr(rtr_last_error(), "VmLck is 0"));
		assert_int_equal(rtr_mem_status(&st), 0);
		assert_false(st.lock_future);
		return;
	}
	assert_int_equal(rtr_mem_lock(), 0);
	assert_int_equal(rtr_mem_status(&st), 0);
	assert_true(st.locked_bytes > 0);
	assert_true(st.lock_future);
	/* Locked at allocation (MCL_FUTURE): touching new memory does not fault. */
	assert_int_equal(rtr_mem_unlock(), 0);
	assert_int_equal(rtr_mem_status(&st), 0);
	assert_int_equal(st.locked_bytes, 0);
	assert_false(st.lock_future);
}

static void test_setup(void **state)
{
	struct rtr_mem_setup s = { .mallopt = true, .lock = true, .heap_bytes = 1u << 20,
				   .stack_bytes = 64u << 10 };
	struct rtr_mem_status st;

	(void)state;
	if (geteuid() != 0 || UNDER_ASAN)
		skip();
	assert_int_equal(rtr_mem_setup(&s), 0);
	assert_int_equal(rtr_mem_status(&st), 0);
	assert_true(st.locked_bytes >= st.resident_bytes / 2);
	assert_true(st.lock_future);
	s.stack_bytes = 128u << 20;
	assert_int_equal(rtr_mem_setup(&s), -EINVAL);
	assert_non_null(strstr(rtr_last_error(), "stack"));
	assert_int_equal(rtr_mem_unlock(), 0);
}

/* As nobody with RLIMIT_MEMLOCK 0: refused, and the message says why. */
static int child_lock_refused(void)
{
	struct rtr_mem_setup s = { .lock = true };
	int err = rtr_mem_lock();

	CHILD_EXPECT(err == -ENOMEM || err == -EPERM, 1);
	CHILD_EXPECT(strstr(rtr_last_error(), "RLIMIT_MEMLOCK is 0 KiB"), 2);
	CHILD_EXPECT(strstr(rtr_last_error(), "CAP_IPC_LOCK is missing"), 3);
	CHILD_EXPECT(rtr_mem_setup(&s) == err, 4);
	CHILD_EXPECT(strstr(rtr_last_error(), "mlockall"), 5);
	return 0;
}

static void test_lock_refused(void **state)
{
	(void)state;
	if (geteuid() != 0 || UNDER_ASAN)
		skip();
	assert_int_equal(test_run_unprivileged(RLIMIT_MEMLOCK, 0, child_lock_refused), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mallopt),
		cmocka_unit_test(test_prefault_heap),
		cmocka_unit_test(test_prefault_stack),
		cmocka_unit_test(test_lock_and_status),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_lock_refused),
	};

	return unit_run(tests, NULL, NULL);
}
