// SPDX-License-Identifier: MIT
/*
 * Micro-benchmark of the runtime checker's hooks, run by bench/preload.sh
 * once without and once with librtready-check.so preloaded. Each case
 * times a tight loop of one operation pair and prints "case ns_per_pair"
 * (best of several rounds: the least disturbed one).
 *
 *   pi_lock_rt      PI mutex lock+unlock on a SCHED_FIFO thread (checked, clean)
 *   plain_lock      default mutex lock+unlock on a SCHED_OTHER thread (not checked)
 *   malloc_other    malloc(64)+free on a SCHED_OTHER thread (not checked)
 *   malloc_rt_setup malloc(64)+free on a SCHED_FIFO thread before its first sleep
 *   plain_lock_rt   default mutex on a SCHED_FIFO thread: a finding each time
 *                   (the cost of counting an occurrence)
 *
 * The hooks of issue 20, locks (one lock+unlock pair; goal: at most 50 ns
 * added) and waits (one wait that returns at once; goal: at most 100 ns
 * added), on a SCHED_OTHER thread (the early exit) and on a SCHED_FIFO
 * thread whose periodic work has begun (one clock_nanosleep first):
 *
 *   rwlock_other, rwlock_rt  pthread_rwlock_rdlock+unlock (a finding each time on RT)
 *   mtx_other, mtx_rt        C11 mtx_lock+mtx_unlock (a finding each time on RT)
 *   sem_other, sem_rt        sem_post+sem_wait (the waiters table)
 *   cond_other, cond_rt      pthread_cond_timedwait on a monotonic condvar with a
 *                            deadline the C library rejects before any system
 *                            call (tv_nsec out of range): the hook alone
 *   semclock_other, _rt      sem_post+sem_clockwait(CLOCK_MONOTONIC)
 *   poll_other, poll_rt      poll of a ready eventfd, 1 s timeout
 *   epoll_other, epoll_rt    epoll_wait on a ready eventfd, 1 s timeout
 *   tfd_read_other, _rt      read() of a non-blocking timerfd (EAGAIN)
 *   read_other               read() of a non-blocking eventfd (EAGAIN): the cost
 *                            of the timerfd test on every read
 *   fputc_other              fputc to /dev/null
 *
 * Waits on RT threads sample the thread's page faults with one getrusage()
 * system call, at most once per 50 us (waits closer together share a
 * sample): getrusage_ref is that call alone, unhooked in both runs, the
 * cost a realtime period pays once.
 *
 * The RT cases fall back to SCHED_OTHER (and say so) without privileges.
 */
#define _GNU_SOURCE	/* sem_clockwait */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 7

struct bench {
	const char *name;
	bool rt;
	void (*loop)(long n);
	double best_ns;
	bool was_rt;
	int div;		/* run iterations / div: for the slower cases */
	bool periodic;		/* one absolute sleep before timing: RT work has begun */
};

static pthread_mutex_t pi_mutex, plain_mutex = PTHREAD_MUTEX_INITIALIZER;

static void loop_pi(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&pi_mutex);
		pthread_mutex_unlock(&pi_mutex);
	}
}

static void loop_plain(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&plain_mutex);
		pthread_mutex_unlock(&plain_mutex);
	}
}

static void loop_malloc(long n)
{
	for (long i = 0; i < n; i++) {
		char *volatile p = malloc(64);

		p[0] = 1;
		free(p);
	}
}

static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static mtx_t c11_mtx;
static pthread_mutex_t cond_mutex;
static pthread_cond_t cond;
static int event_fd, tfd, ep, devnull_fd;
static FILE *devnull;

static void loop_rwlock(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_rwlock_rdlock(&rwlock);
		pthread_rwlock_unlock(&rwlock);
	}
}

static void loop_mtx(long n)
{
	for (long i = 0; i < n; i++) {
		mtx_lock(&c11_mtx);
		mtx_unlock(&c11_mtx);
	}
}

static void loop_sem(long n)
{
	sem_t s;

	sem_init(&s, 0, 0);
	for (long i = 0; i < n; i++) {
		sem_post(&s);
		sem_wait(&s);
	}
	sem_destroy(&s);
}

static void loop_cond(long n)
{
	/* A futex wait costs microseconds here, and varies by as much: time the hook. */
	struct timespec bad = { 0, -1 };

	pthread_mutex_lock(&cond_mutex);
	for (long i = 0; i < n; i++)
		pthread_cond_timedwait(&cond, &cond_mutex, &bad);
	pthread_mutex_unlock(&cond_mutex);
}

static void loop_semclock(long n)
{
	struct timespec past = { 0, 0 };
	sem_t s;

	sem_init(&s, 0, 0);
	for (long i = 0; i < n; i++) {
		sem_post(&s);
		sem_clockwait(&s, CLOCK_MONOTONIC, &past);
	}
	sem_destroy(&s);
}

static void loop_poll(long n)
{
	struct pollfd p = { event_fd, POLLIN, 0 };

	for (long i = 0; i < n; i++)
		poll(&p, 1, 1000);
}

static void loop_epoll(long n)
{
	struct epoll_event ev;

	for (long i = 0; i < n; i++)
		epoll_wait(ep, &ev, 1, 1000);
}

static void loop_tfd_read(long n)
{
	uint64_t v;

	for (long i = 0; i < n; i++)
		if (read(tfd, &v, sizeof(v)) > 0)
			break;
}

static void loop_read(long n)
{
	uint64_t v;

	for (long i = 0; i < n; i++)
		if (read(devnull_fd, &v, sizeof(v)) < 0)
			break;
}

static void loop_fputc(long n)
{
	for (long i = 0; i < n; i++)
		fputc('x', devnull);
}

static void loop_getrusage(long n)
{
	struct rusage ru;

	for (long i = 0; i < n; i++)
		getrusage(RUSAGE_THREAD, &ru);
}

static void setup(void)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t one = 1;

	mtx_init(&c11_mtx, mtx_plain);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&cond_mutex, &ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &ca);
	event_fd = eventfd(0, EFD_NONBLOCK);
	/* Ready for ever: nothing reads it. */
	if (event_fd < 0 || write(event_fd, &one, sizeof(one)) != sizeof(one))
		exit(2);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	ep = epoll_create1(0);
	ev.data.fd = event_fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, event_fd, &ev);
	devnull_fd = open("/dev/zero", O_RDONLY);
	devnull = fopen("/dev/null", "w");
	if (tfd < 0 || ep < 0 || devnull_fd < 0 || !devnull)
		exit(2);
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static long iterations = 2000000;

static void *run(void *arg)
{
	struct bench *b = arg;
	int policy;
	struct sched_param sp;

	long n = iterations / (b->div ? b->div : 1);

	pthread_getschedparam(pthread_self(), &policy, &sp);
	b->was_rt = policy == SCHED_FIFO;
	if (b->periodic) {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	b->loop(n / 10);	/* warm caches, the allocator arena, lazy binding */
	b->best_ns = 1e18;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		b->loop(n);
		double ns = (now_ns() - t0) / (double)n;
		if (ns < b->best_ns)
			b->best_ns = ns;
	}
	return NULL;
}

static void start(struct bench *b)
{
	struct sched_param sp = { .sched_priority = 10 };
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	if (b->rt) {
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, SCHED_FIFO);
		pthread_attr_setschedparam(&a, &sp);
	}
	if (pthread_create(&t, &a, run, b) != 0 && b->rt) {
		pthread_attr_destroy(&a);
		pthread_attr_init(&a);
		pthread_create(&t, &a, run, b);
	}
	pthread_attr_destroy(&a);
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	struct bench cases[] = {
		{ "pi_lock_rt", true, loop_pi, 0, false, 1, false },
		{ "plain_lock", false, loop_plain, 0, false, 1, false },
		{ "malloc_other", false, loop_malloc, 0, false, 1, false },
		{ "malloc_rt_setup", true, loop_malloc, 0, false, 1, false },
		{ "plain_lock_rt", true, loop_plain, 0, false, 1, false },
		{ "rwlock_other", false, loop_rwlock, 0, false, 1, false },
		{ "rwlock_rt", true, loop_rwlock, 0, false, 1, true },
		{ "mtx_other", false, loop_mtx, 0, false, 1, false },
		{ "mtx_rt", true, loop_mtx, 0, false, 1, true },
		{ "sem_other", false, loop_sem, 0, false, 1, false },
		{ "sem_rt", true, loop_sem, 0, false, 1, true },
		{ "cond_other", false, loop_cond, 0, false, 1, false },
		{ "cond_rt", true, loop_cond, 0, false, 1, true },
		{ "semclock_other", false, loop_semclock, 0, false, 10, false },
		{ "semclock_rt", true, loop_semclock, 0, false, 10, true },
		{ "poll_other", false, loop_poll, 0, false, 10, false },
		{ "poll_rt", true, loop_poll, 0, false, 10, true },
		{ "epoll_other", false, loop_epoll, 0, false, 10, false },
		{ "epoll_rt", true, loop_epoll, 0, false, 10, true },
		{ "tfd_read_other", false, loop_tfd_read, 0, false, 10, false },
		{ "tfd_read_rt", true, loop_tfd_read, 0, false, 10, true },
		{ "read_other", false, loop_read, 0, false, 10, false },
		{ "fputc_other", false, loop_fputc, 0, false, 1, false },
		{ "getrusage_ref", false, loop_getrusage, 0, false, 10, false },
	};
	pthread_mutexattr_t ma;

	if (argc > 1)
		iterations = atol(argv[1]) > 0 ? atol(argv[1]) : iterations;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi_mutex, &ma);
	setup();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		start(&cases[i]);
		printf("%s %.2f%s\n", cases[i].name, cases[i].best_ns,
		       cases[i].rt && !cases[i].was_rt ? " (not RT: no privilege)" : "");
	}
	return 0;
}
