// SPDX-License-Identifier: MIT
/*
 * Mutex hooks: a realtime thread that locks a mutex without priority
 * inheritance is app.mutex_no_pi. By default a pthread mutex has no
 * priority inheritance, on PREEMPT_RT too; the protocol must be asked for
 * with pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT). A
 * priority-ceiling mutex (PTHREAD_PRIO_PROTECT) also bounds the inversion
 * and is not flagged.
 *
 * The protocol is read from the mutex itself at lock time rather than from
 * a table of pthread_mutex_init() calls: that is one load, it is right for
 * statically initialised mutexes (never PI) and for memory reused for a new
 * mutex, and it needs no lookup structure in the lock path.
 *
 * A C11 mtx_t is a pthread mutex inside the C library (glibc and musl
 * alike), so it is read the same way; but mtx_init() has no way to ask for
 * inheritance, so an mtx_t locked by a realtime thread is app.mtx_no_pi
 * unless the program built it with pthread_mutex_init(). glibc's mtx_lock()
 * calls the mutex code directly, not through pthread_mutex_lock(), hence
 * hooks of its own.
 *
 * A trylock never waits, so it cannot invert priorities: a realtime thread
 * that only ever tries a lock (JACK's message buffer, jack_rec) takes no
 * finding, and the try functions are not hooked at all.
 *
 * Reader-writer locks have no priority inheritance at all (POSIX defines
 * no protocol attribute for them, and neither glibc nor musl boosts a
 * reader): any lock of one by a realtime thread is app.rwlock_no_pi.
 */
#include <errno.h>
#include <pthread.h>
#include <threads.h>
#include <time.h>

#include "internal.h"

static int (*real_lock)(pthread_mutex_t *);
static int (*real_timedlock)(pthread_mutex_t *, const struct timespec *);

/*
 * Whether @m bounds priority inversion. The protocol lives in the C
 * library's private mutex word: glibc keeps PTHREAD_MUTEX_PRIO_INHERIT_NP
 * (32) or PTHREAD_MUTEX_PRIO_PROTECT_NP (64) in __data.__kind; musl keeps
 * bit 8 (priority inheritance; it has no ceiling protocol) in the first
 * int of the mutex.
 */
static inline bool mutex_bounds_inversion(const pthread_mutex_t *m)
{
#ifdef __GLIBC__
	return (m->__data.__kind & (32 | 64)) != 0;
#else
	return (m->__u.__i[0] & 8) != 0;
#endif
}

static inline void check_mutex(const pthread_mutex_t *m, const char *fn, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (t && !mutex_bounds_inversion(m))
		pl_note(t, PL_MUTEX_NO_PI, fn, (long)(uintptr_t)m, 1, caller);
}

PL_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	PL_REAL(real_lock, "pthread_mutex_lock");
	check_mutex(m, "pthread_mutex_lock", __builtin_return_address(0));
	return real_lock(m);
}

PL_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	PL_REAL(real_timedlock, "pthread_mutex_timedlock");
	check_mutex(m, "pthread_mutex_timedlock", __builtin_return_address(0));
	return real_timedlock(m, abstime);
}

#ifdef __GLIBC__
/* glibc 2.30+ only. */
PL_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
				      const struct timespec *abstime)
{
	static int (*real_clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);

	PL_REAL(real_clocklock, "pthread_mutex_clocklock");
	check_mutex(m, "pthread_mutex_clocklock", __builtin_return_address(0));
	return real_clocklock(m, clk, abstime);
}
#endif

/* ---- C11 mutexes ---- */

static int (*real_mtx_lock)(mtx_t *);
static int (*real_mtx_timedlock)(mtx_t *restrict, const struct timespec *restrict);

static inline void check_mtx(const mtx_t *m, const char *fn, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (t && !mutex_bounds_inversion((const pthread_mutex_t *)(const void *)m))
		pl_note(t, PL_MTX_NO_PI, fn, (long)(uintptr_t)m, 1, caller);
}

PL_EXPORT int mtx_lock(mtx_t *m)
{
	PL_REAL(real_mtx_lock, "mtx_lock");
	if (!real_mtx_lock)
		return thrd_error;
	check_mtx(m, "mtx_lock", __builtin_return_address(0));
	return real_mtx_lock(m);
}

PL_EXPORT int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict abstime)
{
	PL_REAL(real_mtx_timedlock, "mtx_timedlock");
	if (!real_mtx_timedlock)
		return thrd_error;
	check_mtx(m, "mtx_timedlock", __builtin_return_address(0));
	return real_mtx_timedlock(m, abstime);
}

/* ---- reader-writer locks ---- */

static inline void check_rwlock(const pthread_rwlock_t *l, const char *fn, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (t)
		pl_note(t, PL_RWLOCK, fn, (long)(uintptr_t)l, 1, caller);
}

/* One hook per lock function: they differ only in name and arguments. */
#define RWLOCK_HOOK(name)                                                                  \
	PL_EXPORT int name(pthread_rwlock_t *l)                                            \
	{                                                                                  \
		static int (*real)(pthread_rwlock_t *);                                    \
                                                                                           \
		PL_REAL(real, #name);                                                      \
		if (!real)                                                                 \
			return ENOSYS;                                                     \
		check_rwlock(l, #name, __builtin_return_address(0));                       \
		return real(l);                                                            \
	}

#define RWLOCK_TIMED_HOOK(name)                                                            \
	PL_EXPORT int name(pthread_rwlock_t *restrict l, const struct timespec *restrict ts) \
	{                                                                                  \
		static int (*real)(pthread_rwlock_t *, const struct timespec *);           \
                                                                                           \
		PL_REAL(real, #name);                                                      \
		if (!real)                                                                 \
			return ENOSYS;                                                     \
		check_rwlock(l, #name, __builtin_return_address(0));                       \
		return real(l, ts);                                                        \
	}

RWLOCK_HOOK(pthread_rwlock_rdlock)
RWLOCK_HOOK(pthread_rwlock_wrlock)
RWLOCK_TIMED_HOOK(pthread_rwlock_timedrdlock)
RWLOCK_TIMED_HOOK(pthread_rwlock_timedwrlock)

#ifdef __GLIBC__
/* glibc 2.30+ only. */
#define RWLOCK_CLOCK_HOOK(name)                                                            \
	PL_EXPORT int name(pthread_rwlock_t *restrict l, clockid_t clk,                    \
			   const struct timespec *restrict ts)                             \
	{                                                                                  \
		static int (*real)(pthread_rwlock_t *, clockid_t, const struct timespec *); \
                                                                                           \
		PL_REAL(real, #name);                                                      \
		if (!real)                                                                 \
			return ENOSYS;                                                     \
		check_rwlock(l, #name, __builtin_return_address(0));                       \
		return real(l, clk, ts);                                                   \
	}

RWLOCK_CLOCK_HOOK(pthread_rwlock_clockrdlock)
RWLOCK_CLOCK_HOOK(pthread_rwlock_clockwrlock)
#endif
