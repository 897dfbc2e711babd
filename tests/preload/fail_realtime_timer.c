// SPDX-License-Identifier: MIT
/*
 * The good program, but paced by a timer on CLOCK_REALTIME: a timerfd that
 * main() creates and the RT loop reads (argv[1] "timerfd"), or a POSIX
 * timer that the RT thread creates (argv[1] "posix"; the loop still sleeps
 * on CLOCK_MONOTONIC). Expected: app.realtime_timer only (pass_waits
 * timerfd does the same on CLOCK_MONOTONIC).
 */
#include <signal.h>
#include <stdint.h>
#include <sys/timerfd.h>

#include "rtprog.h"

static int tfd = -1;

static void *timerfd_loop(void *arg)
{
	struct rt_job *job = arg;
	struct itimerspec its = { { 0, PERIOD_NS }, { 0, PERIOD_NS } };
	uint64_t n;

	if (timerfd_settime(tfd, 0, &its, NULL) < 0)
		die("timerfd_settime", errno);
	for (int p = 0; p < job->periods; p++) {
		if (read(tfd, &n, sizeof(n)) != sizeof(n))
			die("read", errno);
		job->work(job, p);
	}
	return NULL;
}

static void posix_timer(struct rt_job *job)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t id;

	(void)job;
	if (timer_create(CLOCK_REALTIME, &sev, &id) < 0)
		die("timer_create", errno);
}

int main(int argc, char **argv)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	if (argc > 1 && strcmp(argv[1], "posix") == 0) {
		job.prepare = posix_timer;
		return run_good(&job);
	}
	tfd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
	if (tfd < 0)
		die("timerfd_create", errno);
	rt_run_loop(&job, timerfd_loop);
	return 0;
}
