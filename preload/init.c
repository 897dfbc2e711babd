// SPDX-License-Identifier: MIT
/*
 * Start-up of the runtime checker: reading the environment, locking memory
 * for `rtready run --mlock`, resolving the real libc functions, and the
 * static arena that serves allocations made while a symbol is resolved.
 *
 * Why the arena: our malloc must call the real one, found with
 * dlsym(RTLD_NEXT, "malloc"); but dlsym itself may allocate (its error
 * buffer, a lookup scope), which calls our malloc again before there is a
 * real one to call. Allocations made by a thread while it is inside dlsym
 * therefore come from a small static bump arena; free() ignores them and
 * realloc() copies them out. Each allocation keeps its size in a header so
 * that realloc() and malloc_usable_size() work on them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

_Thread_local struct pl_thread pl_self __attribute__((tls_model("initial-exec")));
bool pl_enabled;
_Atomic unsigned pl_sched_gen = 1;
_Atomic int pl_mlock_flags;
_Atomic bool pl_mmap_max_zero;
_Atomic bool pl_trim_off;
bool pl_mlock_by_rtready;
pid_t pl_pid;

#define ARENA_SIZE (256u * 1024u)
#define ARENA_HDR 16u

static _Alignas(64) unsigned char arena[ARENA_SIZE];
static _Atomic size_t arena_used;

void *pl_arena_alloc(size_t size, size_t align)
{
	size_t off, start, end;

	if (align < ARENA_HDR)
		align = ARENA_HDR;
	if (align & (align - 1) || size > ARENA_SIZE)
		return NULL;
	off = atomic_load_explicit(&arena_used, memory_order_relaxed);
	do {
		start = (off + ARENA_HDR + align - 1) & ~(align - 1);
		end = start + ((size + ARENA_HDR - 1) & ~(size_t)(ARENA_HDR - 1));
		if (end > ARENA_SIZE)
			return NULL;
	} while (!atomic_compare_exchange_weak_explicit(&arena_used, &off, end,
							memory_order_relaxed,
							memory_order_relaxed));
	memcpy(arena + start - sizeof(size_t), &size, sizeof(size_t));
	return arena + start;
}

bool pl_arena_owns(const void *p)
{
	const unsigned char *c = p;

	return c >= arena && c < arena + ARENA_SIZE;
}

size_t pl_arena_size(const void *p)
{
	size_t size;

	memcpy(&size, (const unsigned char *)p - sizeof(size_t), sizeof(size_t));
	return size;
}

void *pl_resolve(const char *name)
{
	struct pl_thread *t = &pl_self;
	bool was = t->in_dlsym;
	void *sym;

	t->in_dlsym = true;
	sym = dlsym(RTLD_NEXT, name);
	t->in_dlsym = was;
	return sym;
}

void *pl_resolve_v(const char *name, const char *version)
{
	struct pl_thread *t = &pl_self;
	bool was = t->in_dlsym;
	void *sym = NULL;

	t->in_dlsym = true;
#ifdef __GLIBC__
	sym = dlvsym(RTLD_NEXT, name, version);
#else
	(void)version;
#endif
	if (!sym)
		sym = dlsym(RTLD_NEXT, name);
	t->in_dlsym = was;
	return sym;
}

void pl_refresh_sched(struct pl_thread *t)
{
	/*
	 * Read the generation first: a change that lands while we read the
	 * policy bumps it again, and the next check re-reads.
	 */
	static long (*raw_syscall)(long, ...);
	unsigned gen = atomic_load_explicit(&pl_sched_gen, memory_order_relaxed);
	int saved = errno;
	int policy;

	/*
	 * The system call, not sched_getscheduler(): musl's is an ENOSYS stub,
	 * and for pid 0 the kernel answers for the calling thread.
	 */
	PL_REAL(raw_syscall, "syscall");
	policy = raw_syscall ? (int)raw_syscall(SYS_sched_getscheduler, 0) : -1;

	errno = saved;
	if (policy >= 0)
		policy &= ~SCHED_RESET_ON_FORK;
	t->rt = policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE;
	t->dl = policy == SCHED_DEADLINE;
	t->sched_gen = gen;
	if (t->rt && pl_enabled)
		pl_rt_thread_seen(t);
}

static void atfork_child(void)
{
	pl_pid = getpid();
	if (!pl_enabled)
		return;
	pl_reset_after_fork();
	pl_sem_forget_all();
	pl_sleep_after_fork();
	pl_hello();
}

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/*
 * `rtready run --mlock` asked for locked memory and the program cannot
 * tell: say so on its standard error, the only channel there is without
 * --check. ENOMEM is RLIMIT_MEMLOCK being too small, EPERM a zero limit.
 */
static void say_mlock_failed(int err)
{
	char line[256];
	struct pl_buf b = { line, 0, sizeof(line) - 2 };
	ssize_t n;

	pl_put(&b, "rtready: run: --mlock: mlockall(MCL_CURRENT | MCL_FUTURE) failed in ");
	pl_put(&b, program_invocation_short_name);
	pl_put(&b, ": ");
	pl_put(&b, strerror(err));
	pl_put(&b, err == ENOMEM || err == EPERM ?
		   " (RLIMIT_MEMLOCK too small; CAP_IPC_LOCK lifts it)\n" : "\n");
	n = write(2, line, b.len);
	(void)n;
}

__attribute__((constructor)) static void pl_init(void)
{
	pl_pid = getpid();
	pl_enabled = getenv("RTREADY_CHECK_REPORT") != NULL;
	if (env_true("RTREADY_MLOCKALL")) {
		/* Through our own hook, so the checks know memory is locked. */
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
			pl_mlock_by_rtready = true;
		else
			say_mlock_failed(errno);
	}
	if (!pl_enabled)
		return;
	pl_record_init();
	pthread_atfork(NULL, NULL, atfork_child);
	pl_hello();
	pl_modules();
}

__attribute__((destructor)) static void pl_fini(void)
{
	if (pl_enabled)
		pl_flush("exit");
}
