// SPDX-License-Identifier: MIT
/*
 * The timer work of fail_realtime_timer and fail_relative_timer done
 * right: the RT thread creates its timers on CLOCK_MONOTONIC and re-arms
 * them in each period with an absolute expiry (TFD_TIMER_ABSTIME for the
 * timerfd it reads, TIMER_ABSTIME for a POSIX timer). Expected: no finding.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/timerfd.h>

#include "rtprog.h"

static void *loop(void *arg)
{
	struct rt_job *job = arg;
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	timer_t ptimer;
	uint64_t n;
	int tfd;

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tfd < 0 || timer_create(CLOCK_MONOTONIC, &sev, &ptimer) < 0)
		die("timerfd_create or timer_create", errno);
	clock_gettime(CLOCK_MONOTONIC, &its.it_value);
	for (int p = 0; p < job->periods; p++) {
		ts_add(&its.it_value, PERIOD_NS);
		if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL) < 0 ||
		    timer_settime(ptimer, TIMER_ABSTIME, &its, NULL) < 0)
			die("timerfd_settime or timer_settime", errno);
		if (read(tfd, &n, sizeof(n)) != sizeof(n))
			die("read", errno);
		job->work(job, p);
	}
	timer_delete(ptimer);
	close(tfd);
	return NULL;
}

int main(void)
{
	pthread_mutex_t pi;
	struct rt_job job;

	set_mallopt();
	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	rt_run_loop(&job, loop);
	return 0;
}
