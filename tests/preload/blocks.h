/* SPDX-License-Identifier: MIT */
/*
 * RT loops paced by blocking calls without a timeout, woken each period by
 * a non-realtime pacer thread or by a timer signal: the waits of
 * event-driven programs (issue 25). The mode (argv[1]) picks the call:
 *
 *   futex        syscall(SYS_futex, FUTEX_WAIT), woken by FUTEX_WAKE (libjack)
 *   condwait     pthread_cond_wait, signalled
 *   barrier      pthread_barrier_wait with the pacer
 *   semwait      sem_wait, posted
 *   pipe         read() of a pipe
 *   socket       recv() on a socketpair
 *   eventfd      read() of an eventfd
 *   mqrecv       mq_receive, sent
 *   sigwait      sigwait on a timer's blocked signal (cyclictest --posix_timers)
 *   sigwaitinfo  sigwaitinfo, the same
 *   sigsuspend   sigsuspend with the signal unblocked
 *   pause        pause(), with a handler (stress-ng's itimer method)
 *
 * The timer is a CLOCK_MONOTONIC POSIX timer armed once with an interval,
 * aimed at the RT thread (SIGEV_THREAD_ID): the right way, so clean work
 * gets no finding (pass_blocks.c) and work that allocates gets exactly
 * that (fail_blocks.c).
 */
#ifndef RTR_TESTS_PRELOAD_BLOCKS_H
#define RTR_TESTS_PRELOAD_BLOCKS_H

#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "rtprog.h"

#define PACE_SIG SIGRTMIN

struct blocker {
	const char *mode;
	_Atomic int futex_word, done;
	pthread_mutex_t m;
	pthread_cond_t c;
	int ready;
	pthread_barrier_t bar;
	sem_t sem;
	int pipe_rd, pipe_wr, sock[2], efd;
	mqd_t mq, mq_send_nb;
	timer_t timer;
	pthread_t pacer;
};

static struct blocker bk;

static bool by_signal(void)
{
	return strncmp(bk.mode, "sig", 3) == 0 || strcmp(bk.mode, "pause") == 0;
}

static void on_pace(int sig)
{
	(void)sig;
}

/* The non-realtime pacer: one wake-up of the RT thread per period. */
static void *pacer(void *arg)
{
	struct timespec next;
	uint64_t one = 1;
	const char *m = bk.mode;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &next);
	/* The barrier takes both sides: exactly one crossing per period of the loop. */
	for (int p = 0; strcmp(m, "barrier") == 0 ? p < PERIODS : !atomic_load(&bk.done); p++) {
		ts_add(&next, PERIOD_NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (strcmp(m, "futex") == 0) {
			atomic_store(&bk.futex_word, 1);
			syscall(SYS_futex, &bk.futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		} else if (strcmp(m, "condwait") == 0) {
			pthread_mutex_lock(&bk.m);
			bk.ready = 1;
			pthread_cond_signal(&bk.c);
			pthread_mutex_unlock(&bk.m);
		} else if (strcmp(m, "barrier") == 0) {
			pthread_barrier_wait(&bk.bar);
		} else if (strcmp(m, "semwait") == 0) {
			sem_post(&bk.sem);
		} else if (strcmp(m, "pipe") == 0) {
			if (write(bk.pipe_wr, "x", 1) != 1)
				die("write", errno);
		} else if (strcmp(m, "socket") == 0) {
			if (send(bk.sock[1], "x", 1, 0) != 1)
				die("send", errno);
		} else if (strcmp(m, "eventfd") == 0) {
			if (write(bk.efd, &one, sizeof(one)) != sizeof(one))
				die("eventfd write", errno);
		} else if (strcmp(m, "mqrecv") == 0) {
			mq_send(bk.mq_send_nb, "x", 1, 0);	/* never blocks on a full queue */
		}
	}
	return NULL;
}

static void blocks_setup(struct rt_job *job)
{
	(void)job;
	if (by_signal()) {
		struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = PACE_SIG };
		struct itimerspec its = { { 0, PERIOD_NS }, { 0, PERIOD_NS } };

		sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		if (timer_create(CLOCK_MONOTONIC, &sev, &bk.timer) < 0 ||
		    timer_settime(bk.timer, 0, &its, NULL) < 0)
			die("timer_create", errno);
	}
}

static void one_block(void)
{
	const char *m = bk.mode;
	uint64_t n;
	char c;
	int sig, rc = 0;

	if (strcmp(m, "futex") == 0) {
		while (atomic_exchange(&bk.futex_word, 0) == 0)
			syscall(SYS_futex, &bk.futex_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	} else if (strcmp(m, "condwait") == 0) {
		pthread_mutex_lock(&bk.m);
		while (!bk.ready)
			pthread_cond_wait(&bk.c, &bk.m);
		bk.ready = 0;
		pthread_mutex_unlock(&bk.m);
	} else if (strcmp(m, "barrier") == 0) {
		pthread_barrier_wait(&bk.bar);
	} else if (strcmp(m, "semwait") == 0) {
		while (sem_wait(&bk.sem) != 0 && errno == EINTR)
			;
	} else if (strcmp(m, "pipe") == 0) {
		rc = read(bk.pipe_rd, &c, 1) == 1 ? 0 : -1;
	} else if (strcmp(m, "socket") == 0) {
		rc = recv(bk.sock[0], &c, 1, 0) == 1 ? 0 : -1;
	} else if (strcmp(m, "eventfd") == 0) {
		rc = read(bk.efd, &n, sizeof(n)) == sizeof(n) ? 0 : -1;
	} else if (strcmp(m, "mqrecv") == 0) {
		char msg[64];

		rc = mq_receive(bk.mq, msg, sizeof(msg), NULL) >= 0 ? 0 : -1;
	} else if (strcmp(m, "sigwait") == 0 || strcmp(m, "sigwaitinfo") == 0) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, PACE_SIG);
		rc = m[7] ? (sigwaitinfo(&set, NULL) == PACE_SIG ? 0 : -1) : sigwait(&set, &sig);
	} else if (strcmp(m, "sigsuspend") == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigsuspend(&none);
	} else if (strcmp(m, "pause") == 0) {
		pause();
	} else {
		die("unknown block mode", EINVAL);
	}
	if (rc < 0)
		die(m, errno);
}

static void *block_loop(void *arg)
{
	struct rt_job *job = arg;

	blocks_setup(job);
	if (job->prepare)
		job->prepare(job);
	for (int p = 0; p < job->periods; p++) {
		one_block();
		job->work(job, p);
	}
	if (by_signal())
		timer_delete(bk.timer);
	return NULL;
}

static void blocks_init(const char *mode)
{
	struct sigaction sa = { .sa_handler = on_pace };
	pthread_attr_t a;
	sigset_t set;
	int fds[2];

	bk.mode = mode;
	init_pi_mutex(&bk.m);
	pthread_cond_init(&bk.c, NULL);
	pthread_barrier_init(&bk.bar, NULL, 2);
	sem_init(&bk.sem, 0, 0);
	if (pipe(fds) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, bk.sock) < 0)
		die("pipe or socketpair", errno);
	bk.pipe_rd = fds[0];
	bk.pipe_wr = fds[1];
	bk.efd = eventfd(0, EFD_CLOEXEC);
	if (bk.efd < 0)
		die("eventfd", errno);
	if (strcmp(mode, "mqrecv") == 0) {
		struct mq_attr at = { .mq_maxmsg = 4, .mq_msgsize = 64 };
		char name[64];

		snprintf(name, sizeof(name), "/rtready-block-%d", (int)getpid());
		bk.mq = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &at);
		bk.mq_send_nb = mq_open(name, O_WRONLY | O_NONBLOCK);
		if (bk.mq == (mqd_t)-1 || bk.mq_send_nb == (mqd_t)-1)
			die("mq_open", errno);
		mq_unlink(name);
	}
	/* sigwait needs the signal blocked; sigsuspend and pause a handler. */
	sigaction(PACE_SIG, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, PACE_SIG);
	pthread_sigmask(strncmp(mode, "sigwait", 7) == 0 ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
	if (by_signal())
		return;
	/* The pacer is not realtime: SCHED_OTHER explicitly. */
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_OTHER);
	if (pthread_create(&bk.pacer, &a, pacer, NULL))
		die("pthread_create", errno);
	pthread_attr_destroy(&a);
}

static int run_blocks(struct rt_job *job)
{
	rt_run_loop(job, block_loop);
	atomic_store(&bk.done, 1);
	if (!by_signal())
		pthread_join(bk.pacer, NULL);
	return 0;
}

#endif
