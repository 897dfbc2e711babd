// SPDX-License-Identifier: MIT
/*
 * Blocking calls that end a realtime thread's period of work, besides the
 * sleeps (hook_sleep.c), timed waits and the poll family (hook_wait.c) and
 * timerfd reads (hook_timer.c). Event-driven RT threads wait here rather
 * than in a sleep: a JACK client's process thread in a futex, cyclictest
 * --posix_timers in sigwait, stress-ng's itimer method in pause, pi_stress
 * on barriers, a control loop on a socket or pipe. Each such call is a
 * boundary (pl_wait()): the work since the last one is judged, and the
 * periodic work starts at the first.
 *
 * futex(2) has no libc wrapper: programs reach it through syscall(), which
 * hook_syscall.c hands here. The waiting operations are FUTEX_WAIT,
 * FUTEX_WAIT_BITSET and FUTEX_WAIT_REQUEUE_PI; FUTEX_LOCK_PI is a lock, and
 * the wake operations never block. FUTEX_CLOCK_REALTIME makes a bitset
 * wait's deadline follow the wall clock (app.realtime_clock).
 *
 * A SCHED_DEADLINE thread ends each job with sched_yield(): the kernel then
 * throttles it until its next period begins, so there, and only there, the
 * call is a wait (a FIFO or RR thread that yields keeps running when
 * nothing else of its priority is ready: a busy loop, not a boundary).
 *
 * A read() or recv() blocks only on a descriptor that can wait for a
 * writer: a pipe, socket, eventfd, signalfd or character device. The type
 * is found with one fstat() per descriptor number and cached until close()
 * or dup2()/dup3() reuse the number. A non-blocking descriptor still
 * counts: the call ends the period's work either way, and a boundary too
 * many only shortens the stretch over which faults are counted.
 */
#include <errno.h>
#include <mqueue.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* ---- descriptor types ---- */

static _Atomic unsigned long fd_known[PL_FD_BITS / 64], fd_blocks[PL_FD_BITS / 64];

static void bit_set(_Atomic unsigned long *map, int fd, bool on)
{
	unsigned long bit = 1ul << ((unsigned)fd % 64);

	if (on)
		atomic_fetch_or_explicit(&map[(unsigned)fd / 64], bit, memory_order_relaxed);
	else
		atomic_fetch_and_explicit(&map[(unsigned)fd / 64], ~bit, memory_order_relaxed);
}

static bool bit_get(_Atomic unsigned long *map, int fd)
{
	return atomic_load_explicit(&map[(unsigned)fd / 64], memory_order_relaxed) >>
		       ((unsigned)fd % 64) & 1;
}

bool pl_fd_may_block(int fd)
{
	struct stat st;
	bool blocks;
	int saved;

	if ((unsigned)fd >= PL_FD_BITS)
		return false;
	if (bit_get(fd_known, fd))
		return bit_get(fd_blocks, fd);
	saved = errno;
	if (fstat(fd, &st) != 0) {
		errno = saved;
		return false;
	}
	errno = saved;
	blocks = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode);
	bit_set(fd_blocks, fd, blocks);
	bit_set(fd_known, fd, true);
	return blocks;
}

void pl_fd_forget(int fd)
{
	if ((unsigned)fd < PL_FD_BITS)
		bit_set(fd_known, fd, false);
}

/* A read-like call on @fd by the calling thread: a wait when it can block. */
static inline void fd_wait(int fd, void *caller)
{
	struct pl_thread *t = pl_rt_thread();

	if (t && pl_fd_may_block(fd))
		pl_wait(t, caller);
}

void pl_fd_read(int fd, void *caller)
{
	fd_wait(fd, caller);
}

static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);

PL_EXPORT int dup2(int fd, int to)
{
	PL_REAL(real_dup2, "dup2");
	pl_fd_forget(to);
	return real_dup2(fd, to);
}

PL_EXPORT int dup3(int fd, int to, int flags)
{
	PL_REAL(real_dup3, "dup3");
	if (!real_dup3) {
		errno = ENOSYS;
		return -1;
	}
	pl_fd_forget(to);
	return real_dup3(fd, to, flags);
}

/* ---- sockets, vectored reads, message queues ---- */

static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static ssize_t (*real_mq_receive)(mqd_t, char *, size_t, unsigned *);

PL_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	PL_REAL(real_recv, "recv");
	if (!(flags & MSG_DONTWAIT))
		fd_wait(fd, __builtin_return_address(0));
	return real_recv(fd, buf, n, flags);
}

PL_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *addr,
			   socklen_t *alen)
{
	PL_REAL(real_recvfrom, "recvfrom");
	if (!(flags & MSG_DONTWAIT))
		fd_wait(fd, __builtin_return_address(0));
	return real_recvfrom(fd, buf, n, flags, addr, alen);
}

PL_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	PL_REAL(real_recvmsg, "recvmsg");
	if (!(flags & MSG_DONTWAIT))
		fd_wait(fd, __builtin_return_address(0));
	return real_recvmsg(fd, msg, flags);
}

PL_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
	PL_REAL(real_readv, "readv");
	fd_wait(fd, __builtin_return_address(0));
	return real_readv(fd, iov, n);
}

PL_EXPORT ssize_t mq_receive(mqd_t q, char *msg, size_t len, unsigned *prio)
{
	PL_REAL(real_mq_receive, "mq_receive");
	if (!real_mq_receive) {
		errno = ENOSYS;
		return -1;
	}
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_mq_receive(q, msg, len, prio);
}

/* ---- signals ---- */

static int (*real_sigwait)(const sigset_t *, int *);
static int (*real_sigwaitinfo)(const sigset_t *, siginfo_t *);
static int (*real_sigtimedwait)(const sigset_t *, siginfo_t *, const struct timespec *);
static int (*real_sigsuspend)(const sigset_t *);
static int (*real_pause)(void);

PL_EXPORT int sigwait(const sigset_t *set, int *sig)
{
	PL_REAL(real_sigwait, "sigwait");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_sigwait(set, sig);
}

PL_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	PL_REAL(real_sigwaitinfo, "sigwaitinfo");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_sigwaitinfo(set, info);
}

PL_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *ts)
{
	PL_REAL(real_sigtimedwait, "sigtimedwait");
	pl_maybe_wait(!ts || ts->tv_sec || ts->tv_nsec, __builtin_return_address(0));
	return real_sigtimedwait(set, info, ts);
}

#if defined(__GLIBC__) && defined(__TIMESIZE) && __TIMESIZE == 32
/* The time64 entry point of 32-bit programs built with _TIME_BITS=64 (see hook_sleep.c). */
PL_EXPORT int __sigtimedwait64(const sigset_t *set, siginfo_t *info, const void *ts);
PL_EXPORT int __sigtimedwait64(const sigset_t *set, siginfo_t *info, const void *ts)
{
	static int (*real)(const sigset_t *, siginfo_t *, const void *);

	PL_REAL(real, "__sigtimedwait64");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	pl_maybe_wait(true, __builtin_return_address(0));
	return real(set, info, ts);
}
#endif

PL_EXPORT int sigsuspend(const sigset_t *mask)
{
	PL_REAL(real_sigsuspend, "sigsuspend");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_sigsuspend(mask);
}

PL_EXPORT int pause(void)
{
	PL_REAL(real_pause, "pause");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_pause();
}

/* ---- condition variables and barriers without a timeout ---- */

static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_barrier_wait)(pthread_barrier_t *);

PL_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	/* glibc keeps the pre-2.3.2 condvar under an older version of the name. */
	if (pl_unlikely(!real_cond_wait))
		real_cond_wait = (__typeof__(real_cond_wait))pl_resolve_v("pthread_cond_wait",
									  "GLIBC_2.3.2");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_cond_wait(c, m);
}

PL_EXPORT int pthread_barrier_wait(pthread_barrier_t *b)
{
	PL_REAL(real_barrier_wait, "pthread_barrier_wait");
	pl_maybe_wait(true, __builtin_return_address(0));
	return real_barrier_wait(b);
}

/* ---- the end of a SCHED_DEADLINE job ---- */

static int (*real_sched_yield)(void);

PL_EXPORT int sched_yield(void)
{
	struct pl_thread *t;

	PL_REAL(real_sched_yield, "sched_yield");
	if (!real_sched_yield) {
		errno = ENOSYS;
		return -1;
	}
	t = pl_rt_thread();
	if (t && t->dl)
		pl_wait(t, __builtin_return_address(0));
	return real_sched_yield();
}

/* ---- futex ---- */

#define FUTEX_WAIT_OP 0
#define FUTEX_WAIT_BITSET_OP 9
#define FUTEX_WAIT_REQUEUE_PI_OP 11
#define FUTEX_CLOCK_REALTIME_FLAG 256
#define FUTEX_CMD(op) ((op) & 127)

void pl_futex(int op, const void *timeout, void *caller)
{
	int cmd = FUTEX_CMD(op);
	struct pl_thread *t;

	if (cmd != FUTEX_WAIT_OP && cmd != FUTEX_WAIT_BITSET_OP && cmd != FUTEX_WAIT_REQUEUE_PI_OP)
		return;
	t = pl_rt_thread();
	if (!t)
		return;
	pl_wait(t, caller);
	/* Only the absolute deadlines of the bitset and requeue waits follow a clock's choice. */
	if (timeout && cmd != FUTEX_WAIT_OP && (op & FUTEX_CLOCK_REALTIME_FLAG))
		pl_note(t, PL_REALTIME_CLOCK, "futex(FUTEX_CLOCK_REALTIME)", 0, 1, caller);
}
