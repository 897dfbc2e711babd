// SPDX-License-Identifier: MIT
/*
 * A program that installs signal handlers (sigaction with SA_SIGINFO,
 * signal(), SIG_IGN) and takes SIGALRM from an interval timer on its
 * non-RT main thread while the good RT loop runs with signals blocked.
 * The checker wraps the handlers: the program checks that they still run
 * with the right arguments and that sigaction() reports its own handlers
 * back. Expected: no finding, exit 0.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/time.h>

#include "rtprog.h"

static atomic_int alarms, hups;
static atomic_int bad_info;

static void on_alarm(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig != SIGALRM || !si || si->si_signo != SIGALRM)
		atomic_store(&bad_info, 1);
	atomic_fetch_add(&alarms, 1);
}

static void on_hup(int sig)
{
	if (sig == SIGHUP)
		atomic_fetch_add(&hups, 1);
}

static int check(bool ok, const char *what)
{
	if (!ok)
		fprintf(stderr, "FAIL: %s\n", what);
	return ok ? 0 : 1;
}

int main(void)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct sigaction sa = { 0 }, old;
	sigset_t all, prev;
	pthread_mutex_t pi;
	struct rt_job job;
	pthread_t t;
	int bad = 0;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);

	sa.sa_sigaction = on_alarm;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	bad |= check(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction(SIGALRM)");
	bad |= check(sigaction(SIGALRM, NULL, &old) == 0 && old.sa_sigaction == on_alarm &&
			     (old.sa_flags & SA_SIGINFO),
		     "sigaction reports the app's SA_SIGINFO handler");
	bad |= check(signal(SIGHUP, on_hup) != SIG_ERR, "signal(SIGHUP)");
	bad |= check(signal(SIGHUP, on_hup) == on_hup, "signal() returns the app's old handler");
	bad |= check(sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == on_hup &&
			     !(old.sa_flags & SA_SIGINFO),
		     "sigaction reports the app's plain handler");
	bad |= check(signal(SIGUSR2, SIG_IGN) != SIG_ERR, "signal(SIGUSR2, SIG_IGN)");
	bad |= check(sigaction(SIGUSR2, NULL, &old) == 0 && old.sa_handler == SIG_IGN,
		     "SIG_IGN is passed through");

	/* The RT thread inherits a mask with everything blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &prev);
	t = rt_start(&job);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);

	setitimer(ITIMER_REAL, &it, NULL);
	while (atomic_load(&alarms) < 5) {
		struct timespec d = { 0, 1000000 };

		nanosleep(&d, NULL);
	}
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	raise(SIGHUP);
	raise(SIGUSR2);
	pthread_join(t, NULL);
	bad |= check(atomic_load(&hups) == 1, "SIGHUP handler ran once");
	bad |= check(!atomic_load(&bad_info), "SA_SIGINFO handler got its siginfo");
	return bad ? 4 : 0;
}
