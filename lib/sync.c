// SPDX-License-Identifier: MIT
/*
 * PI mutexes and CLOCK_MONOTONIC condition variables. Priority inheritance
 * is off by default in every C library, even on PREEMPT_RT kernels, so a
 * realtime thread blocked on a plain mutex can wait behind any medium
 * priority thread; and a condvar timing out on CLOCK_REALTIME jumps with
 * the wall clock. pthread functions return the error number, not -1/errno.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "rtready/sync.h"
#include "internal.h"

RTR_EXPORT int rtr_mutex_init_pi(pthread_mutex_t *m)
{
	pthread_mutexattr_t attr;
	int err;

	err = pthread_mutexattr_init(&attr);
	if (err)
		return rtr__fail(-err, "pthread_mutexattr_init: %s", strerror(err));
	err = pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
	if (err) {
		pthread_mutexattr_destroy(&attr);
		return rtr__fail(-err, "pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT): %s",
				strerror(err));
	}
	err = pthread_mutex_init(m, &attr);
	pthread_mutexattr_destroy(&attr);
	if (err)
		return rtr__fail(-err, "pthread_mutex_init: %s", strerror(err));
	return 0;
}

RTR_EXPORT int rtr_mutexattr_init_pi(pthread_mutexattr_t *attr)
{
	int err = pthread_mutexattr_init(attr);

	if (err)
		return rtr__fail(-err, "pthread_mutexattr_init: %s", strerror(err));
	err = pthread_mutexattr_setprotocol(attr, PTHREAD_PRIO_INHERIT);
	if (err) {
		pthread_mutexattr_destroy(attr);
		return rtr__fail(-err, "pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT): %s",
				strerror(err));
	}
	return 0;
}

RTR_EXPORT int rtr_mutex_is_pi(const pthread_mutexattr_t *attr)
{
	int protocol = PTHREAD_PRIO_NONE;
	int err = pthread_mutexattr_getprotocol(attr, &protocol);

	if (err)
		return -err;
	return protocol == PTHREAD_PRIO_INHERIT;
}

RTR_EXPORT int rtr_cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int err;

	err = pthread_condattr_init(&attr);
	if (err)
		return rtr__fail(-err, "pthread_condattr_init: %s", strerror(err));
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (err) {
		pthread_condattr_destroy(&attr);
		return rtr__fail(-err, "pthread_condattr_setclock(CLOCK_MONOTONIC): %s",
				strerror(err));
	}
	err = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	if (err)
		return rtr__fail(-err, "pthread_cond_init: %s", strerror(err));
	return 0;
}

RTR_EXPORT int rtr_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m,
				   const struct timespec *deadline)
{
	int err;

	if (deadline->tv_nsec < 0 || deadline->tv_nsec >= 1000000000L)
		return -EINVAL;
	err = pthread_cond_timedwait(c, m, deadline);
	return -err;
}
