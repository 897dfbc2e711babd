// SPDX-License-Identifier: MIT
/*
 * Allocation hooks: malloc and its relatives, mmap and munmap count as
 * app.alloc_in_rt when a realtime thread calls them after its first sleep
 * (its periodic work began). mallopt() and mlockall()/munlockall() are
 * watched so that the first sleep of a realtime thread can tell whether the
 * memory setup of the checklist was done (app.no_mallopt, app.no_mlockall).
 *
 * While this thread resolves a symbol (pl_self.in_dlsym) and the real
 * allocator is not known yet, allocations come from the bootstrap arena
 * (init.c); free() and realloc() recognise arena pointers.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

/* musl's <malloc.h> has no mallopt parameters (its mallopt does nothing); glibc's values. */
#ifndef M_TRIM_THRESHOLD
#define M_TRIM_THRESHOLD -1
#endif
#ifndef M_MMAP_MAX
#define M_MMAP_MAX -4
#endif

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static size_t (*real_malloc_usable_size)(void *);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int (*real_mallopt)(int, int);
static int (*real_mlockall)(int);
static int (*real_munlockall)(void);

/* A hook body's check: one TLS read and two compares when nothing is wrong. */
#define CHECK_ALLOC(what, n)                                                               \
	do {                                                                               \
		struct pl_thread *t_ = pl_rt_thread();                                     \
		if (t_ && pl_in_rt_work(t_))                                               \
			pl_note(t_, PL_ALLOC_IN_RT, what, (long)(n), 1,                    \
				__builtin_return_address(0));                              \
	} while (0)

/*
 * Resolve @var; when that is impossible right now (this thread is inside
 * dlsym), the caller serves the request from the arena.
 */
#define RESOLVE_OR_ARENA(var, name)                                                        \
	(pl_likely(var) || (!pl_self.in_dlsym && ((var) = (__typeof__(var))pl_resolve(name))))

PL_EXPORT void *malloc(size_t n)
{
	if (!RESOLVE_OR_ARENA(real_malloc, "malloc"))
		return pl_arena_alloc(n, 16);
	CHECK_ALLOC("malloc", n);
	return real_malloc(n);
}

PL_EXPORT void *calloc(size_t n, size_t size)
{
	if (!RESOLVE_OR_ARENA(real_calloc, "calloc")) {
		/* The arena is static and never reused, so it is zeroed already. */
		if (size && n > SIZE_MAX / size) {
			errno = ENOMEM;
			return NULL;
		}
		return pl_arena_alloc(n * size, 16);
	}
	CHECK_ALLOC("calloc", n * size);
	return real_calloc(n, size);
}

PL_EXPORT void free(void *p)
{
	if (!p || pl_arena_owns(p))
		return;
	if (!RESOLVE_OR_ARENA(real_free, "free"))
		return;	/* cannot happen: p came from a real allocator we resolved */
	CHECK_ALLOC("free", 0);
	real_free(p);
}

PL_EXPORT void *realloc(void *p, size_t n)
{
	if (p && pl_arena_owns(p)) {
		size_t old = pl_arena_size(p);
		void *q = malloc(n);

		if (q)
			memcpy(q, p, old < n ? old : n);
		return q;
	}
	if (!RESOLVE_OR_ARENA(real_realloc, "realloc"))
		return p ? NULL : pl_arena_alloc(n, 16);
	CHECK_ALLOC("realloc", n);
	return real_realloc(p, n);
}

PL_EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	if (!RESOLVE_OR_ARENA(real_posix_memalign, "posix_memalign")) {
		*out = pl_arena_alloc(n, align);
		return *out ? 0 : ENOMEM;
	}
	CHECK_ALLOC("posix_memalign", n);
	return real_posix_memalign(out, align, n);
}

PL_EXPORT void *aligned_alloc(size_t align, size_t n)
{
	if (!RESOLVE_OR_ARENA(real_aligned_alloc, "aligned_alloc"))
		return pl_arena_alloc(n, align);
	CHECK_ALLOC("aligned_alloc", n);
	return real_aligned_alloc(align, n);
}

PL_EXPORT void *memalign(size_t align, size_t n)
{
	if (!RESOLVE_OR_ARENA(real_memalign, "memalign"))
		return pl_arena_alloc(n, align);
	CHECK_ALLOC("memalign", n);
	return real_memalign(align, n);
}

PL_EXPORT void *valloc(size_t n)
{
	if (!RESOLVE_OR_ARENA(real_valloc, "valloc"))
		return pl_arena_alloc(n, 4096);
	CHECK_ALLOC("valloc", n);
	return real_valloc(n);
}

PL_EXPORT size_t malloc_usable_size(void *p)
{
	if (!p)
		return 0;
	if (pl_arena_owns(p))
		return pl_arena_size(p);
	PL_REAL(real_malloc_usable_size, "malloc_usable_size");
	return real_malloc_usable_size ? real_malloc_usable_size(p) : 0;
}

PL_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	PL_REAL(real_mmap, "mmap");
	if (!real_mmap) {
		errno = ENOSYS;
		return MAP_FAILED;
	}
	CHECK_ALLOC("mmap", len);
	return real_mmap(addr, len, prot, flags, fd, off);
}

#ifdef __GLIBC__
/* glibc also exports the large-file name; 32-bit programs built with LFS call it. */
PL_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	static void *(*real_mmap64)(void *, size_t, int, int, int, off64_t);

	PL_REAL(real_mmap64, "mmap64");
	if (!real_mmap64) {
		errno = ENOSYS;
		return MAP_FAILED;
	}
	CHECK_ALLOC("mmap", len);
	return real_mmap64(addr, len, prot, flags, fd, off);
}
#endif

PL_EXPORT int munmap(void *addr, size_t len)
{
	PL_REAL(real_munmap, "munmap");
	if (!real_munmap) {
		errno = ENOSYS;
		return -1;
	}
	CHECK_ALLOC("munmap", len);
	return real_munmap(addr, len);
}

PL_EXPORT int mallopt(int param, int value)
{
	int rc;

	PL_REAL(real_mallopt, "mallopt");
	if (!real_mallopt)
		return 0;
	rc = real_mallopt(param, value);
	if (rc == 1 && param == M_MMAP_MAX)
		atomic_store(&pl_mmap_max_zero, value == 0);
	/* -1 turns trimming off (it becomes the largest threshold). */
	if (rc == 1 && param == M_TRIM_THRESHOLD)
		atomic_store(&pl_trim_off, value == -1);
	return rc;
}

PL_EXPORT int mlockall(int flags)
{
	int rc;

	PL_REAL(real_mlockall, "mlockall");
	if (!real_mlockall) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_mlockall(flags);
	if (rc == 0)
		atomic_store(&pl_mlock_flags, flags);
	return rc;
}

PL_EXPORT int munlockall(void)
{
	int rc;

	PL_REAL(real_munlockall, "munlockall");
	if (!real_munlockall) {
		errno = ENOSYS;
		return -1;
	}
	rc = real_munlockall();
	if (rc == 0)
		atomic_store(&pl_mlock_flags, 0);
	return rc;
}
