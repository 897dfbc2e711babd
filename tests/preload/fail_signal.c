// SPDX-License-Identifier: MIT
/*
 * The good program, but a non-RT thread wakes the RT thread with
 * pthread_kill(SIGUSR1) each period, and the RT thread has a handler.
 * Expected: app.signal only (both the sending and the delivery).
 */
#include "rtprog.h"

#include <signal.h>
#include <stdatomic.h>

static atomic_int handled;

static void on_usr1(int sig)
{
	(void)sig;
	atomic_fetch_add(&handled, 1);
}

int main(void)
{
	struct sigaction sa = { 0 };
	pthread_mutex_t pi;
	struct rt_job job;
	pthread_t t;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.periods = 50;
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	t = rt_start(&job);
	for (int i = 0; i < 5; i++) {
		struct timespec d = { 0, 5 * PERIOD_NS };

		nanosleep(&d, NULL);
		pthread_kill(t, SIGUSR1);
	}
	pthread_join(t, NULL);
	if (atomic_load(&handled) != 5) {
		fprintf(stderr, "handler ran %d times, not 5\n", atomic_load(&handled));
		return 4;
	}
	return 0;
}
