// SPDX-License-Identifier: MIT
/*
 * Timers. A timerfd paces a loop when the thread reads it (one read per
 * expiry), so the descriptors timerfd_create() returns are kept in a
 * bitmap and read() on one of them is a wait (pl_wait(), see
 * hook_sleep.c); close() forgets the number.
 *
 * Two mistakes of the checklist show here:
 * - a timer on CLOCK_REALTIME (timerfd or POSIX timer) fires early or late
 *   when the wall clock is set (app.realtime_timer): noted when a realtime
 *   thread creates, arms or reads one;
 * - a timer re-armed with a relative time inside the periodic work
 *   (app.relative_timer) counts each period from the moment of the call,
 *   so the loop drifts by the work's duration and the wake-up latency,
 *   like a relative sleep. Arming it once before the loop, relative or
 *   not, with an interval, is the right way; so is an absolute time
 *   (TFD_TIMER_ABSTIME, TIMER_ABSTIME). Disarming is no re-arming.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

_Atomic unsigned long pl_timerfds[PL_FD_BITS / 64];
static _Atomic unsigned long wall_timerfds[PL_FD_BITS / 64];	/* on a wall clock */

static void fd_mark(_Atomic unsigned long *map, int fd, bool on)
{
	unsigned long bit = 1ul << ((unsigned)fd % 64);

	if ((unsigned)fd >= PL_FD_BITS)
		return;
	if (on)
		atomic_fetch_or_explicit(&map[(unsigned)fd / 64], bit, memory_order_relaxed);
	else
		atomic_fetch_and_explicit(&map[(unsigned)fd / 64], ~bit, memory_order_relaxed);
}

static bool fd_marked(_Atomic unsigned long *map, int fd)
{
	return (unsigned)fd < PL_FD_BITS &&
	       (atomic_load_explicit(&map[(unsigned)fd / 64], memory_order_relaxed) >>
		((unsigned)fd % 64) & 1);
}

/*
 * POSIX timers on a wall clock, by id (a small table: programs have few
 * timers). Kept as id + 1: the kernel numbers timers from 0, and 0 marks a
 * free slot.
 */
#define WALL_TIMERS 64
static _Atomic uintptr_t wall_timers[WALL_TIMERS];

static void wall_timer_add(timer_t id)
{
	for (int i = 0; i < WALL_TIMERS; i++) {
		uintptr_t free_slot = 0;

		if (atomic_compare_exchange_strong(&wall_timers[i], &free_slot, (uintptr_t)id + 1))
			return;
	}
}

static bool wall_timer_take(timer_t id, bool remove)
{
	for (int i = 0; i < WALL_TIMERS; i++)
		if (atomic_load_explicit(&wall_timers[i], memory_order_relaxed) ==
		    (uintptr_t)id + 1) {
			if (remove)
				atomic_store(&wall_timers[i], 0);
			return true;
		}
	return false;
}

static bool its_arms(const struct itimerspec *its)
{
	return its && (its->it_value.tv_sec || its->it_value.tv_nsec);
}

static int (*real_timerfd_create)(int, int);
static int (*real_timerfd_settime)(int, int, const struct itimerspec *, struct itimerspec *);
static int (*real_timer_create)(clockid_t, struct sigevent *, timer_t *);
static int (*real_timer_settime)(timer_t, int, const struct itimerspec *, struct itimerspec *);
static int (*real_timer_delete)(timer_t);
static ssize_t (*real_read)(int, void *, size_t);
static int (*real_close)(int);

PL_EXPORT int timerfd_create(int clk, int flags)
{
	struct pl_thread *t;
	int fd;

	PL_REAL(real_timerfd_create, "timerfd_create");
	if (!real_timerfd_create) {
		errno = ENOSYS;
		return -1;
	}
	fd = real_timerfd_create(clk, flags);
	if (fd < 0 || !pl_enabled)
		return fd;
	fd_mark(wall_timerfds, fd, pl_wall_clock(clk));
	fd_mark(pl_timerfds, fd, true);
	t = pl_rt_thread();
	if (t && pl_wall_clock(clk))
		pl_note(t, PL_REALTIME_TIMER, "timerfd_create", clk, 1,
			__builtin_return_address(0));
	return fd;
}

PL_EXPORT int timerfd_settime(int fd, int flags, const struct itimerspec *its,
			      struct itimerspec *old)
{
	struct pl_thread *t;

	PL_REAL(real_timerfd_settime, "timerfd_settime");
	if (!real_timerfd_settime) {
		errno = ENOSYS;
		return -1;
	}
	t = pl_rt_thread();
	if (t) {
		void *caller = __builtin_return_address(0);

		if (fd_marked(wall_timerfds, fd))
			pl_note(t, PL_REALTIME_TIMER, "timerfd_settime", 0, 1, caller);
		if (t->periodic && !(flags & TFD_TIMER_ABSTIME) && its_arms(its))
			pl_note(t, PL_RELATIVE_TIMER, "timerfd_settime", 0, 1, caller);
	}
	return real_timerfd_settime(fd, flags, its, old);
}

void pl_timerfd_read(int fd, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (!t)
		return;
	pl_wait(t, caller);
	if (fd_marked(wall_timerfds, fd))
		pl_note(t, PL_REALTIME_TIMER, "read of a timerfd", 0, 1, caller);
}

PL_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	PL_REAL(real_read, "read");
	if (pl_unlikely(pl_is_timerfd(fd)))
		pl_timerfd_read(fd, __builtin_return_address(0));
	else
		pl_fd_read(fd, __builtin_return_address(0));
	return real_read(fd, buf, n);
}

#ifdef __GLIBC__
/* read() of a program built with _FORTIFY_SOURCE, when the buffer size is known. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);

PL_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	static ssize_t (*real_read_chk)(int, void *, size_t, size_t);

	PL_REAL(real_read_chk, "__read_chk");
	if (pl_unlikely(pl_is_timerfd(fd)))
		pl_timerfd_read(fd, __builtin_return_address(0));
	else
		pl_fd_read(fd, __builtin_return_address(0));
	return real_read_chk(fd, buf, n, buflen);
}
#endif

PL_EXPORT int close(int fd)
{
	PL_REAL(real_close, "close");
	pl_fd_forget(fd);
	if (pl_unlikely(pl_is_timerfd(fd))) {
		fd_mark(pl_timerfds, fd, false);
		fd_mark(wall_timerfds, fd, false);
	}
	return real_close(fd);
}

/*
 * glibc keeps the timer functions of before 2.3.3 (another timer_t) under
 * older versions of the names: ask for the current ones.
 */
#define TIMER_VERSION "GLIBC_2.34"

PL_EXPORT int timer_create(clockid_t clk, struct sigevent *sev, timer_t *id)
{
	struct pl_thread *t;
	int rc;

	if (pl_unlikely(!real_timer_create))
		real_timer_create = (__typeof__(real_timer_create))pl_resolve_v("timer_create",
										TIMER_VERSION);
	if (!real_timer_create) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_timer_create(clk, sev, id);
	if (rc != 0 || !pl_enabled || !pl_wall_clock(clk))
		return rc;
	wall_timer_add(*id);
	t = pl_rt_thread();
	if (t)
		pl_note(t, PL_REALTIME_TIMER, "timer_create", clk, 1, __builtin_return_address(0));
	return rc;
}

PL_EXPORT int timer_settime(timer_t id, int flags, const struct itimerspec *its,
			    struct itimerspec *old)
{
	struct pl_thread *t;

	if (pl_unlikely(!real_timer_settime))
		real_timer_settime = (__typeof__(real_timer_settime))pl_resolve_v("timer_settime",
										  TIMER_VERSION);
	if (!real_timer_settime) {
		errno = ENOSYS;
		return -1;
	}
	t = pl_rt_thread();
	if (t) {
		void *caller = __builtin_return_address(0);

		if (wall_timer_take(id, false))
			pl_note(t, PL_REALTIME_TIMER, "timer_settime", 0, 1, caller);
		if (t->periodic && !(flags & TIMER_ABSTIME) && its_arms(its))
			pl_note(t, PL_RELATIVE_TIMER, "timer_settime", 0, 1, caller);
	}
	return real_timer_settime(id, flags, its, old);
}

PL_EXPORT int timer_delete(timer_t id)
{
	if (pl_unlikely(!real_timer_delete))
		real_timer_delete = (__typeof__(real_timer_delete))pl_resolve_v("timer_delete",
										TIMER_VERSION);
	if (!real_timer_delete) {
		errno = ENOSYS;
		return -1;
	}
	if (pl_enabled)
		(void)wall_timer_take(id, true);
	return real_timer_delete(id);
}
