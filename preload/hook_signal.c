// SPDX-License-Identifier: MIT
/*
 * Signal hooks. The checklist's advice is to wake threads with condition
 * variables, not signals: a handler interrupts whatever the thread was
 * doing, in a context that is hard to predict. app.signal is noted when
 * the app sends a signal to itself (kill/sigqueue to its own pid,
 * pthread_kill, pthread_sigqueue, tgkill to its own thread group) and when
 * a handler the app installed runs on a realtime thread.
 *
 * To see deliveries, sigaction() and signal() install our wrapper in place
 * of the app's handler and remember the app's one; the wrapper notes the
 * delivery and calls it. sigaction() reports the app's handler back as the
 * old action, so the app never sees the wrapper. The wrapper is
 * async-signal-safe: it touches only TLS and the record table, and records
 * no backtrace (only the handler's address) because unwinding might need
 * the loader lock that the interrupted code holds.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#ifndef NSIG
#define NSIG 65
#endif

struct app_handler {
	_Atomic(void *) fn;	/* NULL: not wrapped */
	_Atomic bool siginfo;	/* fn takes (int, siginfo_t *, void *) */
};

static struct app_handler handlers[NSIG];

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static int (*real_kill)(pid_t, int);
static int (*real_pthread_kill)(pthread_t, int);
static int (*real_sigqueue)(pid_t, int, const union sigval);

void pl_check_kill(const char *fn, int sig, void *caller)
{
	struct pl_thread *t = pl_any_thread();

	if (sig > 0 && t)
		pl_note(t, PL_SIGNAL, fn, sig, 1, caller);
}

static void wrapper(int sig, siginfo_t *si, void *uc)
{
	struct pl_thread *t = &pl_self;
	void *fn = atomic_load_explicit(&handlers[sig].fn, memory_order_acquire);
	bool with_info = atomic_load_explicit(&handlers[sig].siginfo, memory_order_relaxed);
	struct pl_thread *rt;
	int saved = errno;

	/*
	 * If the app's handler leaves with siglongjmp() this stays raised, and
	 * later records of this thread keep one frame only: a loss of detail,
	 * never of safety.
	 */
	t->in_signal++;
	rt = pl_rt_thread();
	if (rt) {
		/* Where the signal came from: the report must not blame the app's threads. */
		const char *from = "from outside the app";

		if (!si || si->si_code == SI_KERNEL || si->si_code > 0)
			from = "from the kernel";
		else if (si->si_code == SI_TIMER)
			from = "from a timer";
		else if (si->si_pid == pl_pid)
			from = "from the app itself";
		pl_note(rt, PL_SIGNAL, from, sig, 1, fn);
	}
	errno = saved;
	if (fn == NULL) {
		/* Reset under us (SA_RESETHAND raced with sigaction): nothing to call. */
	} else if (with_info) {
		((void (*)(int, siginfo_t *, void *))fn)(sig, si, uc);
	} else {
		((void (*)(int))fn)(sig);
	}
	t->in_signal--;
}

static void *handler_of(const struct sigaction *sa)
{
	return sa->sa_flags & SA_SIGINFO ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
}

PL_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction mine, prev;
	void *prev_fn, *fn;
	bool prev_info;
	int rc;

	PL_REAL(real_sigaction, "sigaction");
	if (!real_sigaction) {
		errno = ENOSYS;
		return -1;
	}
	if (!pl_enabled || sig <= 0 || sig >= NSIG)
		return real_sigaction(sig, act, old);
	prev_fn = atomic_load(&handlers[sig].fn);
	prev_info = atomic_load(&handlers[sig].siginfo);
	if (act) {
		fn = handler_of(act);
		if (fn != (void *)SIG_DFL && fn != (void *)SIG_IGN) {
			mine = *act;
			mine.sa_sigaction = wrapper;
			mine.sa_flags |= SA_SIGINFO;
			atomic_store(&handlers[sig].siginfo, (act->sa_flags & SA_SIGINFO) != 0);
			atomic_store_explicit(&handlers[sig].fn, fn, memory_order_release);
			act = &mine;
		}
	}
	rc = real_sigaction(sig, act, old ? &prev : NULL);
	if (rc != 0) {
		atomic_store(&handlers[sig].siginfo, prev_info);
		atomic_store(&handlers[sig].fn, prev_fn);
		return rc;
	}
	if (act && act != &mine)
		atomic_store(&handlers[sig].fn, NULL);
	if (old) {
		*old = prev;
		if (prev.sa_sigaction == wrapper) {
			/* Show the app its own handler, with its own flag. */
			if (prev_info) {
				old->sa_sigaction = (void (*)(int, siginfo_t *, void *))prev_fn;
			} else {
				old->sa_flags &= ~SA_SIGINFO;
				old->sa_handler = (void (*)(int))prev_fn;
			}
		}
	}
	return rc;
}

/* BSD semantics, as glibc's signal(): restart system calls, block the signal in its handler. */
typedef void (*pl_sighandler)(int);

PL_EXPORT pl_sighandler signal(int sig, pl_sighandler handler)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sig > 0 && sig < NSIG)
		sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

PL_EXPORT int kill(pid_t pid, int sig)
{
	PL_REAL(real_kill, "kill");
	if (!real_kill) {
		errno = ENOSYS;
		return -1;
	}
	if (pid == pl_pid)
		pl_check_kill("kill", sig, __builtin_return_address(0));
	return real_kill(pid, sig);
}

PL_EXPORT int pthread_kill(pthread_t th, int sig)
{
	PL_REAL(real_pthread_kill, "pthread_kill");
	if (!real_pthread_kill)
		return ENOSYS;
	pl_check_kill("pthread_kill", sig, __builtin_return_address(0));
	return real_pthread_kill(th, sig);
}

PL_EXPORT int sigqueue(pid_t pid, int sig, const union sigval value)
{
	PL_REAL(real_sigqueue, "sigqueue");
	if (!real_sigqueue) {
		errno = ENOSYS;
		return -1;
	}
	if (pid == pl_pid)
		pl_check_kill("sigqueue", sig, __builtin_return_address(0));
	return real_sigqueue(pid, sig, value);
}

#ifdef __GLIBC__
PL_EXPORT int tgkill(pid_t tgid, pid_t tid, int sig)
{
	static int (*real_tgkill)(pid_t, pid_t, int);

	PL_REAL(real_tgkill, "tgkill");
	if (!real_tgkill) {
		errno = ENOSYS;
		return -1;
	}
	if (tgid == pl_pid)
		pl_check_kill("tgkill", sig, __builtin_return_address(0));
	return real_tgkill(tgid, tid, sig);
}

PL_EXPORT int pthread_sigqueue(pthread_t th, int sig, const union sigval value)
{
	static int (*real_pthread_sigqueue)(pthread_t, int, const union sigval);

	PL_REAL(real_pthread_sigqueue, "pthread_sigqueue");
	if (!real_pthread_sigqueue)
		return ENOSYS;
	pl_check_kill("pthread_sigqueue", sig, __builtin_return_address(0));
	return real_pthread_sigqueue(th, sig, value);
}
#endif
