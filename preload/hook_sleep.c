// SPDX-License-Identifier: MIT
/*
 * Sleep hooks. A realtime thread's periodic work begins at its first sleep;
 * from then on it must wake on absolute CLOCK_MONOTONIC deadlines
 * (clock_nanosleep with TIMER_ABSTIME): a relative sleep adds the work's
 * own duration to every period and drifts (app.relative_sleep), and
 * CLOCK_REALTIME jumps when the wall clock is set (app.realtime_clock).
 *
 * Each sleep of a realtime thread, and each other wait that paces a loop
 * (pl_wait(): timed condvar and semaphore waits, timerfd reads, the poll
 * family, mq_timedreceive; see hook_wait.c and hook_timer.c), also samples
 * the thread's page-fault counters (getrusage(RUSAGE_THREAD)); growth
 * between two waits means the periodic work itself faulted
 * (app.page_fault_in_rt). Faults the checker causes while recording are
 * subtracted. The first wait checks, once per process, that memory was
 * locked and malloc tuned before realtime work began (app.no_mlockall,
 * app.no_mallopt).
 */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static int (*real_nanosleep)(const struct timespec *, struct timespec *);
static int (*real_clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);
static int (*real_usleep)(useconds_t);
static unsigned (*real_sleep)(unsigned);

static _Atomic bool work_checked;
_Atomic bool pl_exiting;

static void at_exit(void)
{
	atomic_store_explicit(&pl_exiting, true, memory_order_relaxed);
}

void pl_rt_work_started(struct pl_thread *t, void *caller)
{
	int flags;

	if (atomic_exchange(&work_checked, true))
		return;
	/*
	 * Exit handlers run in the reverse order of registration: one
	 * registered now runs before those the program registered at start
	 * (coreutils' close_stdout, for one), so their frees and flushes are
	 * not taken for periodic work. Our own allocation here is not the app's.
	 */
	t->busy++;
	(void)atexit(at_exit);
	t->busy--;
	flags = atomic_load(&pl_mlock_flags);
	if ((flags & (MCL_CURRENT | MCL_FUTURE)) != (MCL_CURRENT | MCL_FUTURE))
		pl_note(t, PL_NO_MLOCKALL, flags ? "mlockall without both flags" : "no mlockall",
			flags, 1, caller);
#ifdef __GLIBC__
	/* musl's mallopt does nothing, so asking for it there would be noise. */
	if (!atomic_load(&pl_mmap_max_zero) || !atomic_load(&pl_trim_off)) {
		long missing = (atomic_load(&pl_mmap_max_zero) ? 0 : 1) |
			       (atomic_load(&pl_trim_off) ? 0 : 2);

		pl_note(t, PL_NO_MALLOPT, "mallopt settings missing", missing, 1, caller);
	}
#endif
}

/*
 * A fault sample is one getrusage() system call: 0.2 to 2 us, against a
 * few ns for the rest of a wait's check. Waits that come closer together
 * than this share one sample (faults are never lost, only counted over a
 * longer stretch), so a loop that polls without blocking does not pay a
 * system call per poll. Loops of 10 kHz and slower get one sample per
 * period; faster ones one every few periods.
 */
#define SAMPLE_EVERY_NS 100000

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void pl_sleep_after_fork(void)
{
	struct pl_thread *t = &pl_self;

	atomic_store(&pl_mlock_flags, 0);
	pl_mlock_by_rtready = false;
	atomic_store(&work_checked, false);
	atomic_store(&pl_exiting, false);
	t->periodic = false;
	t->faults = t->own_faults = 0;
	t->sampled_ns = 0;
}

void pl_wait(struct pl_thread *t, void *caller)
{
	int saved = errno;
	struct rusage ru;
	int64_t now = mono_ns();

	/* What the thread did since its last wait was realtime work. */
	if (t->npend)
		pl_commit(t);
	pl_rt_thread_waited(t);

	if (t->periodic && now - t->sampled_ns < SAMPLE_EVERY_NS) {
		errno = saved;
		return;
	}
	t->sampled_ns = now;
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		long app = ru.ru_minflt + ru.ru_majflt - t->faults - t->own_faults;

		t->faults = ru.ru_minflt + ru.ru_majflt;
		t->own_faults = 0;
		if (t->periodic && app > 0)
			pl_note(t, PL_PAGE_FAULT_IN_RT, "faults between two waits", ru.ru_majflt,
				app, caller);
	}
	if (!t->periodic) {
		t->periodic = true;
		pl_rt_work_started(t, caller);
		/*
		 * Faults before the first wait are set-up, not periodic work;
		 * later, pl_note() keeps its own faults in own_faults for the
		 * next sample.
		 */
		if (getrusage(RUSAGE_THREAD, &ru) == 0) {
			t->faults = ru.ru_minflt + ru.ru_majflt;
			t->own_faults = 0;
		}
	}
	errno = saved;
}

static void on_sleep(const char *fn, clockid_t clk, bool absolute, void *caller)
{
	struct pl_thread *t = pl_rt_thread();
	int saved;

	if (!t)
		return;
	pl_wait(t, caller);
	saved = errno;
	if (!absolute)
		pl_note(t, PL_RELATIVE_SLEEP, fn, 0, 1, caller);
	if (pl_wall_clock(clk))
		pl_note(t, PL_REALTIME_CLOCK, fn, clk, 1, caller);
	errno = saved;
}

PL_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	PL_REAL(real_nanosleep, "nanosleep");
	if (!real_nanosleep) {
		errno = ENOSYS;
		return -1;
	}
	on_sleep("nanosleep", CLOCK_MONOTONIC, false, __builtin_return_address(0));
	return real_nanosleep(req, rem);
}

PL_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
			      struct timespec *rem)
{
	PL_REAL(real_clock_nanosleep, "clock_nanosleep");
	if (!real_clock_nanosleep)
		return ENOSYS;
	on_sleep("clock_nanosleep", clk, (flags & TIMER_ABSTIME) != 0,
		 __builtin_return_address(0));
	return real_clock_nanosleep(clk, flags, req, rem);
}

#if defined(__GLIBC__) && defined(__TIMESIZE) && __TIMESIZE == 32
/*
 * A 32-bit program built with a 64-bit time_t (_TIME_BITS=64: Debian's t64
 * armhf, Yocto) calls glibc's time64 entry points, not the names above, so
 * without these its sleeps pass unseen. The timespec is glibc's
 * struct __timespec64, only passed through here: the judgement needs the
 * clock and the flags, never the time.
 */
static int (*real_clock_nanosleep64)(clockid_t, int, const void *, void *);
static int (*real_nanosleep64)(const void *, void *);

PL_EXPORT int __clock_nanosleep_time64(clockid_t clk, int flags, const void *req, void *rem);
PL_EXPORT int __clock_nanosleep_time64(clockid_t clk, int flags, const void *req, void *rem)
{
	PL_REAL(real_clock_nanosleep64, "__clock_nanosleep_time64");
	if (!real_clock_nanosleep64)
		return ENOSYS;
	on_sleep("clock_nanosleep", clk, (flags & TIMER_ABSTIME) != 0,
		 __builtin_return_address(0));
	return real_clock_nanosleep64(clk, flags, req, rem);
}

PL_EXPORT int __nanosleep64(const void *req, void *rem);
PL_EXPORT int __nanosleep64(const void *req, void *rem)
{
	PL_REAL(real_nanosleep64, "__nanosleep64");
	if (!real_nanosleep64) {
		errno = ENOSYS;
		return -1;
	}
	on_sleep("nanosleep", CLOCK_MONOTONIC, false, __builtin_return_address(0));
	return real_nanosleep64(req, rem);
}
#endif

PL_EXPORT int usleep(useconds_t us)
{
	PL_REAL(real_usleep, "usleep");
	if (!real_usleep) {
		errno = ENOSYS;
		return -1;
	}
	on_sleep("usleep", CLOCK_MONOTONIC, false, __builtin_return_address(0));
	return real_usleep(us);
}

PL_EXPORT unsigned sleep(unsigned s)
{
	PL_REAL(real_sleep, "sleep");
	if (!real_sleep)
		return s;
	on_sleep("sleep", CLOCK_MONOTONIC, false, __builtin_return_address(0));
	return real_sleep(s);
}
