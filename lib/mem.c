// SPDX-License-Identifier: MIT
/*
 * Memory recipes of the checklist: heap-only, never-trimmed allocation
 * (mallopt), mlockall, and prefaulting of heap and stack, plus the status
 * an application uses to see that they worked. Page faults are what these
 * avoid: a first touch of a page, or a page reclaimed and read back, costs
 * a realtime thread far more than its latency budget.
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rtready/mem.h"
#include "internal.h"
#include "priv.h"
#include "procself.h"

/* Set by meson: whether malloc.h has glibc's M_MMAP_MAX/M_TRIM_THRESHOLD. */
#ifndef RTR_HAVE_MALLOPT_TUNABLES
#define RTR_HAVE_MALLOPT_TUNABLES 0
#endif

#define STACK_PREFAULT_MAX (64u << 20)
/* Room left below a prefaulted stack for the calls the prefault makes. */
#define STACK_MARGIN (16u << 10)

/*
 * What this process asked for: the kernel cannot be asked whether
 * MCL_FUTURE is in force or which malloc tunables are set, so the library
 * remembers its own successful calls.
 */
static atomic_bool mallopt_done;
static atomic_bool lock_future;

static size_t page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

RTR_EXPORT int rtr_mem_mallopt(void)
{
#if RTR_HAVE_MALLOPT_TUNABLES
	/*
	 * mallopt() returns 1 on success and 0 (without errno) when the
	 * allocator in use ignores the request: glibc's never does for these,
	 * so a 0 means another malloc (a sanitizer's, jemalloc, ...) replaced it.
	 */
	if (mallopt(M_MMAP_MAX, 0) != 1 || mallopt(M_TRIM_THRESHOLD, -1) != 1)
		return rtr__fail(-ENOTSUP, "mallopt(M_MMAP_MAX / M_TRIM_THRESHOLD) was ignored: the "
				"malloc in use is not the C library's (sanitizer or replacement "
				"allocator?)");
	atomic_store(&mallopt_done, true);
	return 0;
#else
	return rtr__fail(-ENOTSUP,
			"mallopt: this C library has no M_MMAP_MAX/M_TRIM_THRESHOLD (musl); "
			"freed memory may return to the kernel, so allocate what the realtime "
			"path needs up front and keep it");
#endif
}

RTR_EXPORT int rtr_mem_lock(void)
{
	char why[256];
	int err;

	if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
		struct rtr_mem_status st;

		/*
		 * Trust, but verify: AddressSanitizer replaces mlockall() with a
		 * no-op that reports success. After a real MCL_CURRENT something
		 * is always locked.
		 */
		if (rtr_mem_status(&st) == 0 && st.locked_bytes == 0)
			return rtr__fail(-ENOTSUP, "mlockall reported success but VmLck is 0 kB: "
					"it is intercepted (AddressSanitizer?) and locks nothing");
		atomic_store(&lock_future, true);
		return 0;
	}
	err = -errno;
	if (err == -ENOMEM || err == -EPERM) {
		rtr__priv_explain_memlock(why, sizeof(why));
		return rtr__fail(err, "mlockall: %s (%s)", strerror(-err), why);
	}
	return rtr__fail(err, "mlockall: %s", strerror(-err));
}

RTR_EXPORT int rtr_mem_unlock(void)
{
	if (munlockall() != 0) {
		int err = -errno;

		return rtr__fail(err, "munlockall: %s", strerror(-err));
	}
	atomic_store(&lock_future, false);
	return 0;
}

RTR_EXPORT int rtr_mem_prefault_heap(size_t bytes)
{
	size_t ps = page_size();
	volatile unsigned char *p;

	if (bytes == 0)
		return 0;
	p = malloc(bytes);
	if (!p) {
		char why[256];

		/* Under MCL_FUTURE every new page is charged to RLIMIT_MEMLOCK. */
		if (!atomic_load(&lock_future))
			return rtr__fail(-ENOMEM, "prefault: cannot allocate %zu bytes of heap", bytes);
		rtr__priv_explain_memlock(why, sizeof(why));
		return rtr__fail(-ENOMEM, "prefault: cannot allocate %zu bytes of heap while "
				"mlockall(MCL_FUTURE) is in force (%s)", bytes, why);
	}
	/*
	 * A non-zero write per page: reading, or writing zero to a fresh
	 * anonymous page, could be satisfied by the shared zero page or be
	 * optimised away; volatile keeps every store.
	 */
	for (size_t off = 0; off < bytes; off += ps)
		p[off] = 1;
	p[bytes - 1] = 1;
	/* With rtr_mem_mallopt() in force the pages stay in the heap. */
	free((void *)p);
	return 0;
}

/*
 * Bytes of stack below the caller's frame, from the thread's stack bounds
 * (pthread_getattr_np: glibc and musl, main thread included).
 */
static int stack_room(size_t *room)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;
	uintptr_t here = (uintptr_t)__builtin_frame_address(0), low;

	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return -ENOTSUP;
	if (pthread_attr_getstack(&attr, &addr, &size) != 0)
		size = 0;
	pthread_attr_destroy(&attr);
	low = (uintptr_t)addr;
	if (size == 0 || here <= low || here - low > size)
		return -ENOTSUP;
	*room = here - low;
	/*
	 * The main thread's stack grows on demand up to RLIMIT_STACK. glibc
	 * reports that limit; musl reports only what is mapped so far, so
	 * also allow what the limit leaves (less 64 KiB for the environment
	 * and auxiliary vector above the reported top).
	 */
	if (getpid() == (pid_t)syscall(SYS_gettid)) {
		struct rlimit rl;
		uintptr_t used = low + size - here;

		if (getrlimit(RLIMIT_STACK, &rl) == 0) {
			uint64_t lim = rl.rlim_cur == RLIM_INFINITY ? 2ull * STACK_PREFAULT_MAX :
				       (uint64_t)rl.rlim_cur;

			if (lim > used + (64u << 10) && lim - used - (64u << 10) > *room)
				*room = (size_t)(lim - used - (64u << 10));
		}
	}
	return 0;
}

/*
 * One large frame, written page by page from the top down (the direction
 * the stack grows, so a growing main-thread stack is extended in order).
 * noinline and volatile: the compiler may neither fold the frame into the
 * caller nor drop the stores to memory that is never read.
 */
static __attribute__((noinline)) void touch_stack(size_t bytes, size_t ps)
{
	volatile unsigned char *frame = __builtin_alloca(bytes);

	for (size_t off = bytes; off >= ps; off -= ps)
		frame[off - 1] = 1;
	frame[0] = 1;
}

RTR_EXPORT int rtr_mem_prefault_stack(size_t bytes)
{
	size_t room;

	if (bytes == 0)
		return 0;
	if (bytes > STACK_PREFAULT_MAX)
		return rtr__fail(-EINVAL, "prefault: %zu bytes of stack is more than the %u MiB limit",
				bytes, STACK_PREFAULT_MAX >> 20);
	if (stack_room(&room) == 0 && (room < STACK_MARGIN || bytes > room - STACK_MARGIN))
		return rtr__fail(-EINVAL,
				"prefault: %zu bytes of stack requested, this thread has %zu left",
				bytes, room > STACK_MARGIN ? room - STACK_MARGIN : 0);
	touch_stack(bytes, page_size());
	return 0;
}

RTR_EXPORT int rtr_mem_prefault_stack_all(void)
{
	size_t room;
	int err = stack_room(&room);

	if (err)
		return rtr__fail(err, "prefault: cannot find the bounds of this thread's stack");
	if (room <= 2 * STACK_MARGIN)
		return 0;
	room -= 2 * STACK_MARGIN;
	if (room > STACK_PREFAULT_MAX)
		room = STACK_PREFAULT_MAX;
	touch_stack(room, page_size());
	return 0;
}

RTR_EXPORT int rtr_mem_setup(const struct rtr_mem_setup *setup)
{
	int err;

	rtr__clear_error();
	/* Order matters: tune malloc before anything is locked and touched. */
	if (setup->mallopt) {
		err = rtr_mem_mallopt();
		if (err && err != -ENOTSUP)
			return err;
	}
	if (setup->lock) {
		err = rtr_mem_lock();
		if (err)
			return err;
	}
	err = rtr_mem_prefault_heap(setup->heap_bytes);
	if (err)
		return err;
	return rtr_mem_prefault_stack(setup->stack_bytes);
}

RTR_EXPORT int rtr_mem_status(struct rtr_mem_status *st)
{
	char buf[4096];
	struct rusage ru;
	long len;
	int err;

	memset(st, 0, sizeof(*st));
	/* /proc/self/status is about 1.5 KiB; VmLck and VmRSS are in its first half. */
	len = rtr__procself_read(PROCSELF_STATUS, buf, sizeof(buf));
	if (len < 0)
		return rtr__fail((int)len, "%s: %s", PROCSELF_STATUS, strerror((int)-len));
	err = rtr__procself_status_bytes(buf, "VmLck", &st->locked_bytes);
	if (!err)
		err = rtr__procself_status_bytes(buf, "VmRSS", &st->resident_bytes);
	if (err)
		return rtr__fail(err, "%s: no VmLck/VmRSS line", PROCSELF_STATUS);
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		err = -errno;
		return rtr__fail(err, "getrusage: %s", strerror(-err));
	}
	st->minor_faults = (uint64_t)ru.ru_minflt;
	st->major_faults = (uint64_t)ru.ru_majflt;
	st->mallopt_done = atomic_load(&mallopt_done);
	st->lock_future = atomic_load(&lock_future);
	return 0;
}

RTR_EXPORT int rtr_mem_thread_faults(uint64_t *minor, uint64_t *major)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return -errno;
	*minor = (uint64_t)ru.ru_minflt;
	*major = (uint64_t)ru.ru_majflt;
	return 0;
}

RTR_EXPORT bool rtr_mem_mallopt_supported(void)
{
	return RTR_HAVE_MALLOPT_TUNABLES;
}
