// SPDX-License-Identifier: MIT
/*
 * The good program, but paced by a CLOCK_MONOTONIC timerfd re-armed in
 * each period with a relative one-shot expiry (argv[1] "timerfd"), or a
 * POSIX timer re-armed the same way while the loop sleeps absolutely
 * (argv[1] "posix"). Expected: app.relative_timer only (pass_waits timerfd
 * arms its timer once, with an interval).
 */
#include <signal.h>
#include <stdint.h>
#include <sys/timerfd.h>

#include "rtprog.h"

static int tfd = -1;
static timer_t ptimer;

static void *timerfd_loop(void *arg)
{
	struct rt_job *job = arg;
	struct itimerspec its = { { 0, 0 }, { 0, PERIOD_NS } };
	uint64_t n;

	for (int p = 0; p < job->periods; p++) {
		if (timerfd_settime(tfd, 0, &its, NULL) < 0)
			die("timerfd_settime", errno);
		if (read(tfd, &n, sizeof(n)) != sizeof(n))
			die("read", errno);
		job->work(job, p);
	}
	return NULL;
}

static void work_rearm(struct rt_job *job, int period)
{
	struct itimerspec its = { { 0, 0 }, { 0, PERIOD_NS } };

	if (timer_settime(ptimer, 0, &its, NULL) < 0)
		die("timer_settime", errno);
	work_default(job, period);
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
		struct sigevent sev = { .sigev_notify = SIGEV_NONE };

		if (timer_create(CLOCK_MONOTONIC, &sev, &ptimer) < 0)
			die("timer_create", errno);
		job.work = work_rearm;
		return run_good(&job);
	}
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tfd < 0)
		die("timerfd_create", errno);
	rt_run_loop(&job, timerfd_loop);
	return 0;
}
