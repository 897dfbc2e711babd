/* SPDX-License-Identifier: MIT */
/*
 * RT loops paced by every kind of wait the checker recognises besides the
 * sleeps of rtprog.h. The mode (argv[1]) picks the wait; each is done the
 * right way (monotonic clocks, absolute deadlines or a timer armed once
 * with an interval), so a loop whose work is clean gets no finding
 * (pass_waits.c), and one whose work allocates or faults gets exactly that
 * finding (fail_waits.c): allocation and faults are judged between two
 * waits of any kind.
 *
 *   cond         pthread_cond_timedwait on a CLOCK_MONOTONIC condvar
 *   condclock    pthread_cond_clockwait(CLOCK_MONOTONIC) on a default condvar
 *   semclock     sem_clockwait(CLOCK_MONOTONIC)
 *   semtimed     sem_timedwait (CLOCK_REALTIME by definition: app.sem_timedwait too)
 *   timerfd      read() of a CLOCK_MONOTONIC timerfd armed once with an interval
 *   epoll_timer  epoll_wait(-1) on that timerfd, then read()
 *   poll_timer, select_timer, epoll_pwait_timer
 *                that timerfd waited on with a fixed 100 ms timeout, which the
 *                timer's expiry always beats (a safety net), then read()
 *   poll, ppoll, select, pselect, epoll, epoll_pwait
 *                a 1 ms timeout on an empty pipe: the same relative timeout
 *                expires every period, a relative sleep (app.relative_sleep)
 *   mq           mq_timedreceive on an empty queue, 1 ms deadline
 */
#ifndef RTR_TESTS_PRELOAD_WAITS_H
#define RTR_TESTS_PRELOAD_WAITS_H

#include <fcntl.h>
#include <stdint.h>
#include <mqueue.h>
#include <poll.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/timerfd.h>

#include "rtprog.h"

struct waiter {
	const char *mode;
	pthread_mutex_t m;
	pthread_cond_t c;
	sem_t sem;
	int tfd, ep, pipe_rd;
	mqd_t mq;
	struct timespec next;
};

static struct waiter w;

static void waits_setup(struct rt_job *job)
{
	(void)job;
	clock_gettime(CLOCK_MONOTONIC, &w.next);
	if (strcmp(w.mode, "timerfd") == 0 || strstr(w.mode, "_timer")) {
		/* A relative first expiry with an interval, armed once before the loop. */
		struct itimerspec its = { { 0, PERIOD_NS }, { 0, PERIOD_NS } };

		if (timerfd_settime(w.tfd, 0, &its, NULL) < 0)
			die("timerfd_settime", errno);
	}
}

static void one_wait(void)
{
	const char *m = w.mode;
	uint64_t n;
	int rc = 0;

	ts_add(&w.next, PERIOD_NS);
	if (strcmp(m, "cond") == 0) {
		pthread_mutex_lock(&w.m);
		while (pthread_cond_timedwait(&w.c, &w.m, &w.next) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&w.m);
	} else if (strcmp(m, "condclock") == 0) {
		pthread_mutex_lock(&w.m);
		while (pthread_cond_clockwait(&w.c, &w.m, CLOCK_MONOTONIC, &w.next) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&w.m);
	} else if (strcmp(m, "semclock") == 0) {
		while (sem_clockwait(&w.sem, CLOCK_MONOTONIC, &w.next) == 0 || errno == EINTR)
			;
	} else if (strcmp(m, "semtimed") == 0) {
		struct timespec dl;

		clock_gettime(CLOCK_REALTIME, &dl);
		ts_add(&dl, PERIOD_NS);
		while (sem_timedwait(&w.sem, &dl) == 0 || errno == EINTR)
			;
	} else if (strcmp(m, "timerfd") == 0) {
		rc = read(w.tfd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
	} else if (strcmp(m, "epoll_timer") == 0) {
		struct epoll_event ev;

		rc = epoll_wait(w.ep, &ev, 1, -1) == 1 && read(w.tfd, &n, sizeof(n)) == sizeof(n) ?
			     0 : -1;
	} else if (strcmp(m, "poll_timer") == 0) {
		struct pollfd p = { w.tfd, POLLIN, 0 };

		rc = poll(&p, 1, 100) == 1 && read(w.tfd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
	} else if (strcmp(m, "select_timer") == 0) {
		fd_set r;
		struct timeval tv = { 0, 100000 };

		FD_ZERO(&r);
		FD_SET(w.tfd, &r);
		rc = select(w.tfd + 1, &r, NULL, NULL, &tv) == 1 &&
			     read(w.tfd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
	} else if (strcmp(m, "epoll_pwait_timer") == 0) {
		struct epoll_event ev;

		rc = epoll_pwait(w.ep, &ev, 1, 100, NULL) == 1 &&
			     read(w.tfd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
	} else if (strcmp(m, "poll") == 0) {
		struct pollfd p = { w.pipe_rd, POLLIN, 0 };

		rc = poll(&p, 1, 1);
	} else if (strcmp(m, "ppoll") == 0) {
		struct pollfd p = { w.pipe_rd, POLLIN, 0 };
		struct timespec ts = { 0, PERIOD_NS };

		rc = ppoll(&p, 1, &ts, NULL);
	} else if (strcmp(m, "select") == 0 || strcmp(m, "pselect") == 0) {
		fd_set r;
		struct timeval tv = { 0, PERIOD_NS / 1000 };
		struct timespec ts = { 0, PERIOD_NS };

		FD_ZERO(&r);
		FD_SET(w.pipe_rd, &r);
		rc = m[0] == 's' ? select(w.pipe_rd + 1, &r, NULL, NULL, &tv) :
				   pselect(w.pipe_rd + 1, &r, NULL, NULL, &ts, NULL);
	} else if (strcmp(m, "epoll") == 0 || strcmp(m, "epoll_pwait") == 0) {
		struct epoll_event ev;

		rc = m[5] ? epoll_pwait(w.ep, &ev, 1, 1, NULL) : epoll_wait(w.ep, &ev, 1, 1);
	} else if (strcmp(m, "mq") == 0) {
		char msg[64];
		struct timespec dl;

		/* mq_timedreceive has no clock argument: its deadline is on CLOCK_REALTIME. */
		clock_gettime(CLOCK_REALTIME, &dl);
		ts_add(&dl, PERIOD_NS);
		rc = mq_timedreceive(w.mq, msg, sizeof(msg), NULL, &dl) < 0 && errno == ETIMEDOUT ?
			     0 : -1;
	} else {
		die("unknown wait mode", EINVAL);
	}
	if (rc < 0)
		die(m, errno);
}

static void *wait_loop(void *arg)
{
	struct rt_job *job = arg;

	waits_setup(job);
	if (job->prepare)
		job->prepare(job);
	for (int p = 0; p < job->periods; p++) {
		one_wait();
		job->work(job, p);
	}
	return NULL;
}

static void waits_init(const char *mode)
{
	pthread_condattr_t ca;
	int fds[2];

	w.mode = mode;
	init_pi_mutex(&w.m);
	pthread_condattr_init(&ca);
	if (strcmp(mode, "cond") == 0)
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w.c, &ca);
	pthread_condattr_destroy(&ca);
	sem_init(&w.sem, 0, 0);
	w.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (w.tfd < 0 || pipe(fds) < 0)
		die("timerfd_create or pipe", errno);
	w.pipe_rd = fds[0];
	w.ep = epoll_create1(EPOLL_CLOEXEC);
	if (w.ep < 0)
		die("epoll_create1", errno);
	{
		struct epoll_event ev = { .events = EPOLLIN };

		ev.data.fd = strcmp(mode, "epoll_timer") == 0 ||
			     strcmp(mode, "epoll_pwait_timer") == 0 ? w.tfd : w.pipe_rd;
		if (epoll_ctl(w.ep, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
			die("epoll_ctl", errno);
	}
	if (strcmp(mode, "mq") == 0) {
		struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 64 };
		char name[64];

		snprintf(name, sizeof(name), "/rtready-test-%d", (int)getpid());
		w.mq = mq_open(name, O_RDONLY | O_CREAT | O_EXCL, 0600, &a);
		if (w.mq == (mqd_t)-1)
			die("mq_open", errno);
		mq_unlink(name);
	}
}

/* Run @job on a SCHED_FIFO thread that waits the way w.mode says. */
static int run_waits(struct rt_job *job)
{
	rt_run_loop(job, wait_loop);
	return 0;
}

#endif
