/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the runtime checker (librtready-check.so, loaded with
 * LD_PRELOAD by `rtready run --check`). The hooks in hook_*.c interpose libc
 * functions, look at the calling thread's cached scheduling state and, when
 * a realtime thread breaks a rule of the checklist, note it in a fixed table
 * (record.c). Nothing here allocates, takes a lock or uses stdio: a hook may
 * run inside the allocator, inside a signal handler, or before libc has
 * finished starting. Each record also has an entry in rtready's shared
 * table (wire.h), where its counts are raised, so a kill loses nothing
 * committed. The private table is written out as JSON lines with write(2)
 * when the process exits, execs or forks (see record.c).
 */
#ifndef RTR_PRELOAD_INTERNAL_H
#define RTR_PRELOAD_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PL_EXPORT __attribute__((visibility("default")))
#define pl_likely(x) __builtin_expect(!!(x), 1)
#define pl_unlikely(x) __builtin_expect(!!(x), 0)

/*
 * Finding kinds; their names on the wire are the finding ids of
 * `rtready run --check` (see pl_kind_id()).
 */
enum pl_kind {
	PL_MUTEX_NO_PI,
	PL_ALLOC_IN_RT,
	PL_PAGE_FAULT_IN_RT,
	PL_RELATIVE_SLEEP,
	PL_REALTIME_CLOCK,
	PL_SIGNAL,
	PL_PRIO99,
	PL_NO_MLOCKALL,
	PL_NO_MALLOPT,
	PL_COND_REALTIME,	/* timed wait on a condvar whose clock is CLOCK_REALTIME */
	PL_SEM_TIMEDWAIT,	/* sem_timedwait: CLOCK_REALTIME by definition */
	PL_REALTIME_TIMER,	/* timerfd or POSIX timer on CLOCK_REALTIME */
	PL_RELATIVE_TIMER,	/* a timer re-armed with a relative time in the loop */
	PL_RWLOCK,		/* rwlocks have no priority inheritance */
	PL_SEM_SHARED,		/* a semaphore waited on by RT and non-RT threads */
	PL_MTX_NO_PI,		/* C11 mtx_t without priority inheritance */
	PL_STDIO_IN_RT,		/* stdio or syslog in the periodic work */
	PL_KIND_COUNT,
};

const char *pl_kind_id(enum pl_kind k);

/*
 * Per-thread state. initial-exec TLS: a preloaded library is part of the
 * static TLS block, so reaching it is one instruction and never calls
 * __tls_get_addr (which may allocate, and so re-enter our malloc).
 */
struct pl_thread {
	int busy;		/* reentrancy guard: set while a hook records */
	int in_signal;		/* depth of wrapped signal handlers on this thread */
	unsigned sched_gen;	/* pl_sched_gen when rt was last read; 0: never */
	bool rt;		/* SCHED_FIFO, SCHED_RR or SCHED_DEADLINE */
	bool dl;		/* SCHED_DEADLINE: sched_yield() ends its job (hook_block.c) */
	bool periodic;		/* the thread has slept once while realtime */
	bool in_dlsym;		/* resolving a symbol: allocations go to the arena */
	long faults;		/* minor + major faults at the last sleep */
	long own_faults;	/* faults taken by the checker itself since then */
	int64_t sampled_ns;	/* CLOCK_MONOTONIC time of that sample */
	short slot[PL_KIND_COUNT];	/* index + 1 of this thread's last record of each kind */
	short head[PL_KIND_COUNT];	/* index + 1 of its first record of each kind (chain) */
	unsigned char npend;	/* 1: some record has occurrences not yet committed */
	short rt_index;		/* index + 1 in the table of realtime threads; -1: full */
	bool waited;		/* it waited at a boundary (told the table once) */
	int64_t last_timeout_ns;	/* relative timeout of its last poll-family wait that expired */
};

extern _Thread_local struct pl_thread pl_self __attribute__((tls_model("initial-exec")));

/* Checking is on (RTREADY_CHECK_REPORT was set when the process started). */
extern bool pl_enabled;
/* Bumped whenever the app changes a scheduling policy or priority. */
extern _Atomic unsigned pl_sched_gen;
/* Process state the checks read. */
extern _Atomic int pl_mlock_flags;	/* flags of the last mlockall(), 0 after munlockall() */
extern _Atomic bool pl_mmap_max_zero;	/* mallopt(M_MMAP_MAX, 0) seen */
extern _Atomic bool pl_trim_off;	/* mallopt(M_TRIM_THRESHOLD, -1) seen */
extern bool pl_mlock_by_rtready;	/* the constructor locked memory for --mlock */

/* Re-read the calling thread's policy (one syscall). */
void pl_refresh_sched(struct pl_thread *t);

/*
 * The calling thread, when it is realtime and may record (checking on, not
 * inside another hook); NULL otherwise. This is the fast path of every
 * hook: one TLS read, one relaxed atomic load, two compares.
 */
static inline struct pl_thread *pl_rt_thread(void)
{
	struct pl_thread *t = &pl_self;

	if (!pl_enabled || t->busy)
		return NULL;
	if (pl_unlikely(t->sched_gen != atomic_load_explicit(&pl_sched_gen, memory_order_relaxed)))
		pl_refresh_sched(t);
	return t->rt ? t : NULL;
}

/* The calling thread, whatever its policy, when it may record; else NULL. */
static inline struct pl_thread *pl_any_thread(void)
{
	struct pl_thread *t = &pl_self;

	return pl_enabled && !t->busy ? t : NULL;
}

/* Tell every thread to re-read its policy before its next check. */
static inline void pl_sched_changed(void)
{
	atomic_fetch_add_explicit(&pl_sched_gen, 1, memory_order_relaxed);
}

/*
 * Record one occurrence of @kind in the calling thread. The first one of a
 * kind at one site (@arg for the lock kinds: the lock; else @caller) per
 * thread takes a slot with the thread's name, @detail (a short ASCII
 * text), @arg and a raw backtrace (only the caller's address inside a
 * signal handler); later ones only count. @weight is added to the slot's
 * running total (faults for PL_PAGE_FAULT_IN_RT, else 1).
 *
 * Occurrences in a thread's work (allocation, stdio, locks, re-armed
 * timers) stay pending until the thread waits again (pl_commit()): what a
 * thread does after its last wait is teardown (exit handlers, result
 * printing, pthread_exit), not realtime work, and is never reported.
 */
void pl_note(struct pl_thread *t, enum pl_kind kind, const char *detail, long arg, long weight,
	     void *caller);

/* Count the pending occurrences of @t: it waits, so they were realtime work. */
void pl_commit(struct pl_thread *t);

/*
 * @t is realtime: remember it in the table of realtime threads, so that a
 * thread that never waits in a call the checker knows is reported as not
 * judged (app.checker) rather than passing in silence.
 */
void pl_rt_thread_seen(struct pl_thread *t);

/* The start routine of @t returned: keep its final name for the report. */
void pl_rt_thread_ending(struct pl_thread *t);

/* @t waited at a boundary the checker knows (the table of realtime threads). */
void pl_rt_thread_waited(struct pl_thread *t);

/* app.prio99 checks shared by the scheduling and syscall hooks (hook_sched.c). */
void pl_check_prio(const char *fn, int prio, void *caller);
void pl_check_setattr(const void *attr, void *caller);

/* A signal sent by the app to itself (hook_signal.c). */
void pl_check_kill(const char *fn, int sig, void *caller);

/*
 * The process is running its exit handlers: periodic work is over, and
 * allocation or stdio there is not reported (set by an exit handler that
 * the first realtime wait registers).
 */
extern _Atomic bool pl_exiting;

/* A realtime thread inside its periodic work (after its first wait, before exit). */
static inline bool pl_in_rt_work(const struct pl_thread *t)
{
	return t->periodic && !atomic_load_explicit(&pl_exiting, memory_order_relaxed);
}

/* The first sleep of a realtime thread: check the memory setup once per process. */
void pl_rt_work_started(struct pl_thread *t, void *caller);

/*
 * Realtime thread @t is about to wait (sleep, timed condvar or semaphore
 * wait, timerfd read, poll family, mq_timedreceive): the end of one
 * period's work and the start of the next. Samples the page faults of the
 * period that ends, and starts the periodic work at the first wait
 * (hook_sleep.c).
 */
void pl_wait(struct pl_thread *t, void *caller);

/* Clocks that follow the wall clock and jump when it is set. */
static inline bool pl_wall_clock(long clk)
{
	return clk == 0 /* CLOCK_REALTIME */ || clk == 8 /* CLOCK_REALTIME_ALARM */ ||
	       clk == 11 /* CLOCK_TAI */;
}

/*
 * Timerfds the app created (hook_timer.c), by descriptor number: the read()
 * hook asks this on every call, so it is one load and a bit test. Numbers
 * past PL_FD_BITS are not followed.
 */
#define PL_FD_BITS 4096
extern _Atomic unsigned long pl_timerfds[PL_FD_BITS / 64];

static inline bool pl_is_timerfd(int fd)
{
	return (unsigned)fd < PL_FD_BITS &&
	       (atomic_load_explicit(&pl_timerfds[(unsigned)fd / 64], memory_order_relaxed) >>
		((unsigned)fd % 64) & 1);
}

/* A read() of timerfd @fd: a wait (hook_timer.c). */
void pl_timerfd_read(int fd, void *caller);

/*
 * Write the records of this process to the report file, as JSON lines.
 * @why: "exit", "exec" or "_exit". Idempotent: readers keep the largest
 * count per record.
 */
void pl_flush(const char *why);

/* Prepare recording (loads the unwinder now rather than in a hook). */
void pl_record_init(void);

/* Write the "hello" line that proves the checker is attached. */
void pl_hello(void);

/* Write a "module" line per loaded object (at start, outside any hook). */
void pl_modules(void);

/* After fork(), in the child: forget the parent's records. */
void pl_reset_after_fork(void);

/*
 * After fork(), in the child: the kernel carries neither mlockall() nor
 * its MCL_FUTURE into a child, and the child's periodic work starts anew
 * (hook_sleep.c).
 */
void pl_sleep_after_fork(void);

/*
 * Whether a read of @fd can block: a pipe, socket, eventfd, signalfd,
 * character device (not a regular file, directory or block device).
 * Found with one fstat() per descriptor number and kept until close() or
 * dup2() replaces it (hook_block.c).
 */
bool pl_fd_may_block(int fd);
void pl_fd_forget(int fd);

/* A read() of @fd that is no timerfd: a wait when the descriptor can block. */
void pl_fd_read(int fd, void *caller);

/* A call by the calling thread that blocks (@blocks): a wait when it is realtime. */
static inline void pl_maybe_wait(bool blocks, void *caller)
{
	struct pl_thread *t;

	if (!blocks)
		return;
	t = pl_rt_thread();
	if (t)
		pl_wait(t, caller);
}

/* futex(2) through syscall(): a wait when @op waits (hook_block.c). */
void pl_futex(int op, const void *timeout, void *caller);

/* After fork(), in the child: forget which threads waited on which semaphore (hook_wait.c). */
void pl_sem_forget_all(void);

/* The pid the records belong to (refreshed after fork). */
extern pid_t pl_pid;

/*
 * Resolve @name in the next object after us (dlsym(RTLD_NEXT)). While it
 * runs, allocations of this thread are served from a static arena, since
 * dlsym may allocate and our malloc has no real malloc to call yet.
 */
void *pl_resolve(const char *name);

/* The same for a symbol of a given version, when the C library has it (else any version). */
void *pl_resolve_v(const char *name, const char *version);

#define PL_REAL(var, name)                                                             \
	do {                                                                           \
		if (pl_unlikely(!(var)))                                               \
			(var) = (__typeof__(var))pl_resolve(name);                     \
	} while (0)

/* Bootstrap arena (init.c). */
void *pl_arena_alloc(size_t size, size_t align);
bool pl_arena_owns(const void *p);
size_t pl_arena_size(const void *p);

/* Small formatting helpers for the report lines (no stdio). */
struct pl_buf {
	char *p;
	size_t len, cap;
};
void pl_put(struct pl_buf *b, const char *s);
void pl_put_json_str(struct pl_buf *b, const char *s);
void pl_put_u64(struct pl_buf *b, uint64_t v);
void pl_put_i64(struct pl_buf *b, int64_t v);
void pl_put_hex(struct pl_buf *b, uint64_t v);
/* Copy @s into @dst (size @n), always NUL-terminated. */
void pl_strlcpy(char *dst, const char *s, size_t n);

#endif
