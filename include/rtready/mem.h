/* SPDX-License-Identifier: MIT */
/*
 * The checklist's three memory steps, so that a realtime thread never takes
 * a page fault: keep the allocator on the heap and never trim it (mallopt),
 * lock every page (mlockall), and touch the heap and stack that will be
 * needed before the realtime work starts (prefault). Plus a way to verify
 * the effect from inside the process.
 */
#ifndef RTREADY_MEM_H
#define RTREADY_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * rtr_mem_mallopt() - mallopt(M_MMAP_MAX, 0) and mallopt(M_TRIM_THRESHOLD, -1):
 * every allocation comes from the heap and freed memory is never given back
 * to the kernel, so prefaulted pages stay mapped.
 * Return: 0; -ENOTSUP where the C library has no such tunables (musl) or
 *         another malloc ignores them (a sanitizer's), with an explanation in
 *         rtr_last_error().
 */
int rtr_mem_mallopt(void);

/**
 * rtr_mem_lock() - mlockall(MCL_CURRENT | MCL_FUTURE).
 * Checks afterwards that memory is locked (VmLck > 0).
 * Return: 0 or -errno; -ENOMEM/-EPERM name RLIMIT_MEMLOCK and CAP_IPC_LOCK
 *         in rtr_last_error(); -ENOTSUP when mlockall() is intercepted and
 *         locks nothing (AddressSanitizer).
 */
int rtr_mem_lock(void);

/**
 * rtr_mem_unlock() - munlockall(), and forget that MCL_FUTURE is in force.
 * Return: 0 or -errno.
 */
int rtr_mem_unlock(void);

/**
 * rtr_mem_mallopt_supported() - Return: true when the C library has the
 * tunables rtr_mem_mallopt() sets (glibc), false otherwise (musl).
 */
bool rtr_mem_mallopt_supported(void);

/**
 * rtr_mem_prefault_heap() - allocate @bytes, write a non-zero byte to every
 * page (so the stores cannot be optimised away), and free it again; with
 * rtr_mem_mallopt() in force the pages stay in the heap for later use.
 * Return: 0, -ENOMEM.
 */
int rtr_mem_prefault_heap(size_t bytes);

/**
 * rtr_mem_prefault_stack() - touch @bytes of the calling thread's stack below
 * the current frame, so that later growth does not fault. @bytes must fit in
 * the thread's stack (at most 64 MiB).
 * Return: 0, -EINVAL when @bytes is more than the thread has left.
 */
int rtr_mem_prefault_stack(size_t bytes);

/**
 * rtr_mem_prefault_stack_all() - touch all of the calling thread's stack
 * below the current frame (less a small margin, at most 64 MiB), using the
 * bounds pthread_getattr_np() reports.
 * Return: 0, -ENOTSUP when the bounds cannot be found.
 */
int rtr_mem_prefault_stack_all(void);

/**
 * struct rtr_mem_setup - what rtr_mem_setup() does; zero means "skip".
 * @mallopt: call rtr_mem_mallopt() (a failure on musl is not fatal).
 * @lock: call rtr_mem_lock().
 * @heap_bytes: prefault this much heap.
 * @stack_bytes: prefault this much stack of the calling thread.
 */
struct rtr_mem_setup {
	bool mallopt;
	bool lock;
	size_t heap_bytes;
	size_t stack_bytes;
};

/**
 * rtr_mem_setup() - the three steps in the right order: mallopt, mlockall,
 * then prefault.
 * Return: 0 or the first -errno (rtr_last_error() says which step).
 */
int rtr_mem_setup(const struct rtr_mem_setup *setup);

/**
 * struct rtr_mem_status - the memory state of this process, now.
 * @locked_bytes: VmLck (/proc/self/status).
 * @resident_bytes: VmRSS.
 * @minor_faults: minor faults of the whole process (getrusage).
 * @major_faults: major faults of the whole process.
 * @mallopt_done: rtr_mem_mallopt() succeeded in this process.
 * @lock_future: mlockall(MCL_FUTURE) is in force (from rtr_mem_lock()).
 */
struct rtr_mem_status {
	uint64_t locked_bytes;
	uint64_t resident_bytes;
	uint64_t minor_faults;
	uint64_t major_faults;
	bool mallopt_done;
	bool lock_future;
};

/**
 * rtr_mem_status() - fill @st for the calling process.
 * Return: 0 or -errno.
 */
int rtr_mem_status(struct rtr_mem_status *st);

/**
 * rtr_mem_thread_faults() - minor and major faults of the calling thread
 * (getrusage(RUSAGE_THREAD)); one system call, no allocation.
 * Return: 0 or -errno.
 */
int rtr_mem_thread_faults(uint64_t *minor, uint64_t *major);

#ifdef __cplusplus
}
#endif

#endif
