/* SPDX-License-Identifier: MIT */
/*
 * Locks and hand-off without priority inversion: mutexes with priority
 * inheritance (off by default, even on PREEMPT_RT) and condition variables
 * that time out on CLOCK_MONOTONIC.
 */
#ifndef RTREADY_SYNC_H
#define RTREADY_SYNC_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * rtr_mutex_init_pi() - initialise @m with PTHREAD_PRIO_INHERIT.
 * Return: 0 or -errno (-ENOTSUP where the C library lacks PI).
 */
int rtr_mutex_init_pi(pthread_mutex_t *m);

/**
 * rtr_mutexattr_init_pi() - initialise @attr with PTHREAD_PRIO_INHERIT, for
 * callers that set more attributes (process-shared, robust) before
 * pthread_mutex_init(). Destroy it with pthread_mutexattr_destroy().
 * Return: 0 or -errno.
 */
int rtr_mutexattr_init_pi(pthread_mutexattr_t *attr);

/**
 * rtr_mutex_is_pi() - Return: 1 if mutexes made from @attr use priority
 * inheritance, 0 if not, -errno when that cannot be told. (POSIX offers no
 * way to ask an initialised mutex, hence the attribute.)
 */
int rtr_mutex_is_pi(const pthread_mutexattr_t *attr);

/**
 * rtr_cond_init_monotonic() - initialise @c so that timed waits use
 * CLOCK_MONOTONIC, immune to wall-clock jumps.
 * Return: 0 or -errno.
 */
int rtr_cond_init_monotonic(pthread_cond_t *c);

/**
 * rtr_cond_wait_until() - wait on @c (with @m held) until the absolute
 * CLOCK_MONOTONIC time @deadline.
 * Return: 0 when signalled, -ETIMEDOUT, other -errno.
 */
int rtr_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *deadline);

#ifdef __cplusplus
}
#endif

#endif
