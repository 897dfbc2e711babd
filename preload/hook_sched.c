// SPDX-License-Identifier: MIT
/*
 * Scheduling hooks. Priority 99 is where the kernel's own critical threads
 * (watchdogs, migration) run; an application there can starve them
 * (app.prio99). Every successful change of a policy or priority also tells
 * all threads to re-read whether they are realtime (pl_sched_changed()),
 * so the cached answer of pl_rt_thread() stays right without a syscall per
 * hook.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

/* The kernel's struct sched_attr, as far as we read it. */
struct pl_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
};

static int (*real_pthread_setschedparam)(pthread_t, int, const struct sched_param *);
static int (*real_pthread_setschedprio)(pthread_t, int);
static int (*real_sched_setscheduler)(pid_t, int, const struct sched_param *);
static int (*real_sched_setparam)(pid_t, const struct sched_param *);
static int (*real_attr_setschedparam)(pthread_attr_t *, const struct sched_param *);
static int (*real_sched_setattr)(pid_t, void *, unsigned);

/*
 * Priority 99 is flagged in any thread (RT or not: the request is the
 * mistake), whatever the policy argument says, since a priority only
 * applies to the realtime policies anyway.
 */
void pl_check_prio(const char *fn, int prio, void *caller)
{
	struct pl_thread *t = pl_any_thread();

	if (prio >= 99 && t)
		pl_note(t, PL_PRIO99, fn, prio, 1, caller);
}

PL_EXPORT int pthread_setschedparam(pthread_t th, int policy, const struct sched_param *param)
{
	int rc;

	PL_REAL(real_pthread_setschedparam, "pthread_setschedparam");
	if (!real_pthread_setschedparam)
		return ENOSYS;
	/* glibc declares param nonnull; the real call would fault on NULL as well. */
	pl_check_prio("pthread_setschedparam", param->sched_priority, __builtin_return_address(0));
	rc = real_pthread_setschedparam(th, policy, param);
	pl_sched_changed();
	return rc;
}

PL_EXPORT int pthread_setschedprio(pthread_t th, int prio)
{
	int rc;

	PL_REAL(real_pthread_setschedprio, "pthread_setschedprio");
	if (!real_pthread_setschedprio)
		return ENOSYS;
	pl_check_prio("pthread_setschedprio", prio, __builtin_return_address(0));
	rc = real_pthread_setschedprio(th, prio);
	pl_sched_changed();
	return rc;
}

PL_EXPORT int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	int rc;

	PL_REAL(real_sched_setscheduler, "sched_setscheduler");
	if (!real_sched_setscheduler) {
		errno = ENOSYS;
		return -1;
	}
	if (param)
		pl_check_prio("sched_setscheduler", param->sched_priority,
			      __builtin_return_address(0));
	rc = real_sched_setscheduler(pid, policy, param);
	pl_sched_changed();
	return rc;
}

PL_EXPORT int sched_setparam(pid_t pid, const struct sched_param *param)
{
	int rc;

	PL_REAL(real_sched_setparam, "sched_setparam");
	if (!real_sched_setparam) {
		errno = ENOSYS;
		return -1;
	}
	if (param)
		pl_check_prio("sched_setparam", param->sched_priority,
			      __builtin_return_address(0));
	rc = real_sched_setparam(pid, param);
	pl_sched_changed();
	return rc;
}

PL_EXPORT int pthread_attr_setschedparam(pthread_attr_t *attr, const struct sched_param *param)
{
	PL_REAL(real_attr_setschedparam, "pthread_attr_setschedparam");
	if (!real_attr_setschedparam)
		return ENOSYS;
	pl_check_prio("pthread_attr_setschedparam", param->sched_priority,
		      __builtin_return_address(0));
	return real_attr_setschedparam(attr, param);
}

void pl_check_setattr(const void *attr, void *caller)
{
	const struct pl_sched_attr *a = attr;

	if (a && a->size >= sizeof(*a))
		pl_check_prio("sched_setattr", (int)a->sched_priority, caller);
}

/*
 * glibc 2.41 added a sched_setattr() wrapper (older programs use
 * syscall(), see hook_syscall.c). The C name differs so that no header's
 * prototype can clash with ours.
 */
PL_EXPORT int pl_sched_setattr(pid_t pid, void *attr, unsigned flags) __asm__("sched_setattr");
PL_EXPORT int pl_sched_setattr(pid_t pid, void *attr, unsigned flags)
{
	int rc;

	PL_REAL(real_sched_setattr, "sched_setattr");
	if (!real_sched_setattr) {
		errno = ENOSYS;
		return -1;
	}
	pl_check_setattr(attr, __builtin_return_address(0));
	rc = real_sched_setattr(pid, attr, flags);
	pl_sched_changed();
	return rc;
}

/*
 * Threads. A thread created realtime (an explicit policy in its attributes)
 * is entered in the table of realtime threads as it starts, before the
 * app's start routine runs: a thread that then never calls a function the
 * checker hooks (it spins, or waits in a raw system call) is still
 * reported as not judged, even after it has ended. The start routine and
 * its argument travel in a small block of the real allocator.
 */
struct pl_start {
	void *(*fn)(void *);
	void *arg;
};

static int (*real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
				  void *);

static void *start_thread(void *p)
{
	struct pl_start s = *(struct pl_start *)p;
	struct pl_thread *t = &pl_self;
	void *ret;

	t->busy++;
	free(p);
	t->busy--;
	if (pl_enabled)
		pl_refresh_sched(t);
	ret = s.fn(s.arg);
	if (pl_enabled)
		pl_rt_thread_ending(t);
	return ret;
}

PL_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			     void *arg)
{
	struct pl_thread *t = &pl_self;
	struct pl_start *s;
	int rc;

	PL_REAL(real_pthread_create, "pthread_create");
	if (!pl_enabled || t->busy)
		return real_pthread_create(th, attr, fn, arg);
	t->busy++;
	s = malloc(sizeof(*s));
	t->busy--;
	if (!s)
		return real_pthread_create(th, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	rc = real_pthread_create(th, attr, start_thread, s);
	if (rc) {
		t->busy++;
		free(s);
		t->busy--;
	}
	return rc;
}
