// SPDX-License-Identifier: MIT
/*
 * Waits other than sleeps that pace a realtime loop: timed condvar waits,
 * timed semaphore waits, the poll family and epoll with a timeout (or none:
 * blocking until an fd, often a timerfd, is ready), and mq_timedreceive.
 * Each is a period boundary (pl_wait(): page faults of the period that
 * ends, start of the periodic work at the first one), so allocation and
 * faults are judged in loops that never call a sleep function. A call
 * that cannot block (a zero timeout, sem_trywait) is no boundary.
 *
 * Clocks: a condvar waits on the clock of its attribute, CLOCK_REALTIME
 * unless pthread_condattr_setclock() said otherwise, and sem_timedwait()
 * always on CLOCK_REALTIME; both jump with the wall clock
 * (app.cond_realtime_clock, app.sem_timedwait). The clock is read from the
 * condvar itself at wait time, as hook_sync.c reads a mutex's protocol:
 * right for static initialisers and reused memory, and no table of
 * pthread_cond_init() calls to search in the wait path.
 *
 * Semaphores have no owner, so nothing can inherit a waiter's priority. A
 * semaphore that realtime and non-realtime threads both wait on is used
 * as a lock between them (app.sem_shared); one that a non-RT thread only
 * posts is an event, which is fine. Waiters are remembered per semaphore
 * address in a fixed lock-free table; sem_init() and sem_destroy() forget
 * them, and so does a forked child (its threads are not the parent's).
 */
#include <errno.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "internal.h"

/* The C library's private clock of a condvar (see hook_sync.c for the mutex). */
static inline clockid_t cond_clock(const pthread_cond_t *c)
{
#ifdef __GLIBC__
	/* __PTHREAD_COND_CLOCK_MONOTONIC_MASK in __wrefs (glibc 2.25+). */
	return c->__data.__wrefs & 2 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
#else
	/* musl's _c_clock. */
	return (clockid_t)c->__u.__i[4];
#endif
}

/* ---- condition variables ---- */

static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);

PL_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				     const struct timespec *abstime)
{
	struct pl_thread *t;

	/* glibc keeps the pre-2.3.2 condvar under an older version of the name. */
	if (pl_unlikely(!real_cond_timedwait))
		real_cond_timedwait = (__typeof__(real_cond_timedwait))pl_resolve_v(
			"pthread_cond_timedwait", "GLIBC_2.3.2");
	t = pl_rt_thread();
	if (t) {
		void *caller = __builtin_return_address(0);
		clockid_t clk = cond_clock(c);

		pl_wait(t, caller);
		if (pl_wall_clock(clk))
			pl_note(t, PL_COND_REALTIME, "pthread_cond_timedwait", clk, 1, caller);
	}
	return real_cond_timedwait(c, m, abstime);
}

#ifdef __GLIBC__
/* glibc 2.30+ only. */
PL_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *abstime)
{
	static int (*real_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
				     const struct timespec *);
	struct pl_thread *t;

	PL_REAL(real_clockwait, "pthread_cond_clockwait");
	t = pl_rt_thread();
	if (t) {
		void *caller = __builtin_return_address(0);

		pl_wait(t, caller);
		if (pl_wall_clock(clk))
			pl_note(t, PL_REALTIME_CLOCK, "pthread_cond_clockwait", clk, 1, caller);
	}
	return real_clockwait(c, m, clk, abstime);
}
#endif

/* ---- semaphores ---- */

#define SEM_SLOTS 1024u		/* a power of two */
#define SEM_RT 1u		/* waited on by a realtime thread */
#define SEM_OTHER 2u		/* waited on by a non-realtime thread */

struct sem_use {
	_Atomic uintptr_t addr;
	_Atomic unsigned waiters;	/* SEM_RT | SEM_OTHER */
};

static struct sem_use sems[SEM_SLOTS];

/* The slot of @s, taken when @add; NULL when absent (or the table is full). */
static struct sem_use *sem_slot(const sem_t *s, bool add)
{
	uintptr_t a = (uintptr_t)s;
	unsigned h = (unsigned)((a >> 4) * 0x9E3779B97F4A7C15ull >> 40);

	for (unsigned i = 0; i < 32; i++) {
		struct sem_use *u = &sems[(h + i) & (SEM_SLOTS - 1)];
		uintptr_t cur = atomic_load_explicit(&u->addr, memory_order_acquire);

		if (cur == a)
			return u;
		if (cur == 0) {
			if (!add)
				return NULL;
			if (atomic_compare_exchange_strong(&u->addr, &cur, a) || cur == a)
				return u;
		}
	}
	return NULL;
}

/*
 * A wait on @s. Non-RT threads only mark the semaphore (the first time);
 * a realtime thread notes app.sem_shared once a non-RT waiter is known.
 * Returns the calling thread when it is realtime and may record.
 */
static struct pl_thread *sem_waiter(sem_t *s, const char *fn, void *caller)
{
	struct pl_thread *t;
	struct sem_use *u;
	unsigned mark, w;

	if (!pl_enabled)
		return NULL;
	t = pl_rt_thread();
	if (!t && pl_self.busy)
		return NULL;
	mark = t ? SEM_RT : SEM_OTHER;
	u = sem_slot(s, true);
	if (!u)
		return t;
	w = atomic_load_explicit(&u->waiters, memory_order_relaxed);
	if (!(w & mark))
		w = atomic_fetch_or_explicit(&u->waiters, mark, memory_order_relaxed) | mark;
	if (t && (w & SEM_OTHER))
		pl_note(t, PL_SEM_SHARED, fn, (long)(uintptr_t)s, 1, caller);
	return t;
}

void pl_sem_forget_all(void)
{
	for (unsigned i = 0; i < SEM_SLOTS; i++) {
		atomic_store_explicit(&sems[i].addr, 0, memory_order_relaxed);
		atomic_store_explicit(&sems[i].waiters, 0, memory_order_relaxed);
	}
}

/* The memory at @s holds a new semaphore: forget who waited on what was there. */
static void sem_forget(sem_t *s)
{
	struct sem_use *u = pl_enabled ? sem_slot(s, false) : NULL;

	if (u)
		atomic_store_explicit(&u->waiters, 0, memory_order_relaxed);
}

static int (*real_sem_init)(sem_t *, int, unsigned);
static int (*real_sem_wait)(sem_t *);
static int (*real_sem_trywait)(sem_t *);
static int (*real_sem_timedwait)(sem_t *, const struct timespec *);
static int (*real_sem_destroy)(sem_t *);

PL_EXPORT int sem_wait(sem_t *s)
{
	void *caller = __builtin_return_address(0);
	struct pl_thread *t;

	PL_REAL(real_sem_wait, "sem_wait");
	t = sem_waiter(s, "sem_wait", caller);
	if (t)
		pl_wait(t, caller);
	return real_sem_wait(s);
}

PL_EXPORT int sem_trywait(sem_t *s)
{
	PL_REAL(real_sem_trywait, "sem_trywait");
	(void)sem_waiter(s, "sem_trywait", __builtin_return_address(0));
	return real_sem_trywait(s);
}

PL_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	void *caller = __builtin_return_address(0);
	struct pl_thread *t;

	PL_REAL(real_sem_timedwait, "sem_timedwait");
	t = sem_waiter(s, "sem_timedwait", caller);
	if (t) {
		pl_wait(t, caller);
		pl_note(t, PL_SEM_TIMEDWAIT, "sem_timedwait", CLOCK_REALTIME, 1, caller);
	}
	return real_sem_timedwait(s, abstime);
}

#ifdef __GLIBC__
/* glibc 2.30+ only. */
PL_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abstime)
{
	static int (*real_sem_clockwait)(sem_t *, clockid_t, const struct timespec *);
	void *caller = __builtin_return_address(0);
	struct pl_thread *t;

	PL_REAL(real_sem_clockwait, "sem_clockwait");
	t = sem_waiter(s, "sem_clockwait", caller);
	if (t) {
		pl_wait(t, caller);
		if (pl_wall_clock(clk))
			pl_note(t, PL_REALTIME_CLOCK, "sem_clockwait", clk, 1, caller);
	}
	return real_sem_clockwait(s, clk, abstime);
}
#endif

PL_EXPORT int sem_init(sem_t *s, int pshared, unsigned value)
{
	PL_REAL(real_sem_init, "sem_init");
	sem_forget(s);
	return real_sem_init(s, pshared, value);
}

PL_EXPORT int sem_destroy(sem_t *s)
{
	PL_REAL(real_sem_destroy, "sem_destroy");
	sem_forget(s);
	return real_sem_destroy(s);
}

/* ---- the poll family, epoll, message queues ---- */

#define maybe_wait pl_maybe_wait

static inline bool ts_blocks(const struct timespec *ts)
{
	return !ts || ts->tv_sec || ts->tv_nsec;
}

static inline bool tv_blocks(const struct timeval *tv)
{
	return !tv || tv->tv_sec || tv->tv_usec;
}

static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
static int (*real_select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
static int (*real_pselect)(int, fd_set *, fd_set *, fd_set *, const struct timespec *,
			   const sigset_t *);
static int (*real_epoll_wait)(int, struct epoll_event *, int, int);
static int (*real_epoll_pwait)(int, struct epoll_event *, int, int, const sigset_t *);
static ssize_t (*real_mq_timedreceive)(mqd_t, char *, size_t, unsigned *,
				       const struct timespec *);

/*
 * The poll family, select and epoll take a relative timeout. When the
 * same timeout expires twice in a row on a realtime thread, it paces the
 * loop like a relative sleep, with the same drift (app.relative_sleep).
 * An event loop that computes each timeout from an absolute deadline
 * passes a different value each time, and one woken by its events (a
 * timerfd, a socket) before the timeout is not flagged. @ns: the timeout
 * as passed (select() overwrites its own), <= 0 for none or no wait.
 */
static void relative_timeout(int rc, int64_t ns, const char *fn, void *caller)
{
	struct pl_thread *t;
	int saved = errno;

	if (rc != 0 || ns <= 0)
		return;
	t = pl_rt_thread();
	if (!t)
		return;
	if (ns == t->last_timeout_ns)
		pl_note(t, PL_RELATIVE_SLEEP, fn, 0, 1, caller);
	t->last_timeout_ns = ns;
	errno = saved;
}

static inline int64_t ts_ns(const struct timespec *ts)
{
	return ts ? (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec : -1;
}

static inline int64_t ms_ns(int ms)
{
	return ms < 0 ? -1 : (int64_t)ms * 1000000;
}

PL_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_poll, "poll");
	maybe_wait(timeout_ms != 0, caller);
	rc = real_poll(fds, n, timeout_ms);
	relative_timeout(rc, ms_ns(timeout_ms), "poll", caller);
	return rc;
}

PL_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_ppoll, "ppoll");
	maybe_wait(ts_blocks(ts), caller);
	rc = real_ppoll(fds, n, ts, mask);
	relative_timeout(rc, ts_ns(ts), "ppoll", caller);
	return rc;
}

PL_EXPORT int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	void *caller = __builtin_return_address(0);
	/* Linux writes the time left into *tv: keep the timeout as passed. */
	int64_t ns = tv ? (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000 : -1;
	int rc;

	PL_REAL(real_select, "select");
	maybe_wait(tv_blocks(tv), caller);
	rc = real_select(n, r, w, e, tv);
	relative_timeout(rc, ns, "select", caller);
	return rc;
}

PL_EXPORT int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *ts,
		      const sigset_t *mask)
{
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_pselect, "pselect");
	maybe_wait(ts_blocks(ts), caller);
	rc = real_pselect(n, r, w, e, ts, mask);
	relative_timeout(rc, ts_ns(ts), "pselect", caller);
	return rc;
}

PL_EXPORT int epoll_wait(int ep, struct epoll_event *ev, int max, int timeout_ms)
{
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_epoll_wait, "epoll_wait");
	maybe_wait(timeout_ms != 0, caller);
	rc = real_epoll_wait(ep, ev, max, timeout_ms);
	relative_timeout(rc, ms_ns(timeout_ms), "epoll_wait", caller);
	return rc;
}

PL_EXPORT int epoll_pwait(int ep, struct epoll_event *ev, int max, int timeout_ms,
			  const sigset_t *mask)
{
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_epoll_pwait, "epoll_pwait");
	maybe_wait(timeout_ms != 0, caller);
	rc = real_epoll_pwait(ep, ev, max, timeout_ms, mask);
	relative_timeout(rc, ms_ns(timeout_ms), "epoll_pwait", caller);
	return rc;
}

#ifdef __GLIBC__
/* glibc 2.35+ only; the C name differs so that no header's prototype can clash. */
PL_EXPORT int pl_epoll_pwait2(int ep, struct epoll_event *ev, int max, const struct timespec *ts,
			      const sigset_t *mask) __asm__("epoll_pwait2");
PL_EXPORT int pl_epoll_pwait2(int ep, struct epoll_event *ev, int max, const struct timespec *ts,
			      const sigset_t *mask)
{
	static int (*real_epoll_pwait2)(int, struct epoll_event *, int, const struct timespec *,
					const sigset_t *);
	void *caller = __builtin_return_address(0);
	int rc;

	PL_REAL(real_epoll_pwait2, "epoll_pwait2");
	if (!real_epoll_pwait2) {
		errno = ENOSYS;
		return -1;
	}
	maybe_wait(ts_blocks(ts), caller);
	rc = real_epoll_pwait2(ep, ev, max, ts, mask);
	relative_timeout(rc, ts_ns(ts), "epoll_pwait2", caller);
	return rc;
}
#endif

/*
 * A message queue's timed calls take an absolute CLOCK_REALTIME deadline,
 * like sem_timedwait(): a wall-clock step makes them time out early or
 * late (pmqtest's loop). A realtime thread using one is app.realtime_clock.
 */
static void mq_timed(const char *fn, const struct timespec *abstime, bool waits, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (!t)
		return;
	if (waits)
		pl_wait(t, caller);
	if (abstime)
		pl_note(t, PL_REALTIME_CLOCK, fn, CLOCK_REALTIME, 1, caller);
}

PL_EXPORT ssize_t mq_timedreceive(mqd_t q, char *msg, size_t len, unsigned *prio,
				  const struct timespec *abstime)
{
	PL_REAL(real_mq_timedreceive, "mq_timedreceive");
	if (!real_mq_timedreceive) {
		errno = ENOSYS;
		return -1;
	}
	mq_timed("mq_timedreceive", abstime, true, __builtin_return_address(0));
	return real_mq_timedreceive(q, msg, len, prio, abstime);
}

PL_EXPORT int mq_timedsend(mqd_t q, const char *msg, size_t len, unsigned prio,
			   const struct timespec *abstime)
{
	static int (*real_mq_timedsend)(mqd_t, const char *, size_t, unsigned,
					const struct timespec *);

	PL_REAL(real_mq_timedsend, "mq_timedsend");
	if (!real_mq_timedsend) {
		errno = ENOSYS;
		return -1;
	}
	/* A send waits only on a full queue: no period boundary, but the same clock. */
	mq_timed("mq_timedsend", abstime, false, __builtin_return_address(0));
	return real_mq_timedsend(q, msg, len, prio, abstime);
}
