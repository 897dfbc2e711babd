// SPDX-License-Identifier: MIT
/*
 * Micro-benchmark of the runtime checker's hooks, run by bench/preload.sh
 * with librtready-check.so preloaded (and once without, as a control).
 *
 * Each case is one operation (a lock+unlock pair, a wait, a read, ...),
 * called two ways in the same thread: through the program's own reference
 * to the function, which the preloaded library interposes ("hooked"), and
 * through the C library's own symbol, found with dlsym() on libc
 * ("direct", the unhooked call). The two alternate in blocks of BLOCK
 * calls and each keeps its fastest block, so both see the same machine
 * and the same noise: the difference is the hook. Without the library
 * both ways reach the same function and the difference is the method's
 * own error. Output: "case hooked_ns direct_ns [note]".
 *
 *   pi_lock_rt       PI mutex lock+unlock on a SCHED_FIFO thread (checked, clean)
 *   plain_lock       default mutex lock+unlock on a SCHED_OTHER thread (not checked)
 *   malloc_other     malloc(64)+free on a SCHED_OTHER thread (not checked)
 *   malloc_rt_setup  malloc(64)+free on a SCHED_FIFO thread before its first wait
 *   plain_lock_rt    default mutex on a SCHED_FIFO thread: a finding each time
 *                    (the cost of counting an occurrence)
 *
 * The hooks of issue 20, locks (goal: at most 50 ns added) and waits (goal:
 * at most 100 ns added), on a SCHED_OTHER thread (the early exit) and on a
 * SCHED_FIFO thread whose periodic work has begun (one absolute
 * clock_nanosleep first):
 *
 *   rwlock_other, rwlock_rt   pthread_rwlock_rdlock+unlock (a finding each time on RT)
 *   mtx_other, mtx_rt         C11 mtx_lock+mtx_unlock (a finding each time on RT)
 *   sem_other, sem_rt         sem_post+sem_wait (the table of waiters)
 *   cond_other, cond_rt       pthread_cond_timedwait on a monotonic condvar with a
 *                             deadline the C library rejects before any system
 *                             call (tv_nsec out of range): the hook alone
 *   semclock_other, _rt       sem_post+sem_clockwait(CLOCK_MONOTONIC)
 *   poll_other, poll_rt       poll of a ready eventfd, 1 s timeout
 *   epoll_other, epoll_rt     epoll_wait on a ready eventfd, 1 s timeout
 *   tfd_read_other, _rt       read() of a non-blocking timerfd (EAGAIN)
 *   read_other                read() of /dev/zero: the timerfd test on every read
 *   fputc_other               fputc to /dev/null
 *
 * A wait on an RT thread reads CLOCK_MONOTONIC and, at most once per
 * 100 us, samples the thread's page faults with getrusage(): the cases that
 * wait in a system call pay that sample about once per 80 calls here, a
 * real periodic loop once per period. getrusage_ref times that call.
 *
 * The RT cases fall back to SCHED_OTHER (and say so) without privileges.
 */
#define _GNU_SOURCE	/* sem_clockwait, RUSAGE_THREAD */
#include <dlfcn.h>
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
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 200

/* The functions the cases call, one way or the other. */
struct fns {
	int (*mutex_lock)(pthread_mutex_t *);
	int (*mutex_unlock)(pthread_mutex_t *);
	void *(*malloc)(size_t);
	void (*free)(void *);
	int (*rdlock)(pthread_rwlock_t *);
	int (*rwunlock)(pthread_rwlock_t *);
	int (*mtx_lock)(mtx_t *);
	int (*mtx_unlock)(mtx_t *);
	int (*sem_post)(sem_t *);
	int (*sem_wait)(sem_t *);
	int (*sem_clockwait)(sem_t *, clockid_t, const struct timespec *);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	int (*poll)(struct pollfd *, nfds_t, int);
	int (*epoll_wait)(int, struct epoll_event *, int, int);
	ssize_t (*read)(int, void *, size_t);
	int (*fputc)(int, FILE *);
};

static struct fns hooked, direct;

static pthread_mutex_t pi_mutex, plain_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static mtx_t c11_mtx;
static pthread_mutex_t cond_mutex;
static pthread_cond_t cond;
static sem_t sem_o, sem_r;	/* one per thread kind: a shared one is app.sem_shared */
static int event_fd, tfd, ep, zero_fd;
static FILE *devnull;

static void op_pi(const struct fns *f)
{
	f->mutex_lock(&pi_mutex);
	f->mutex_unlock(&pi_mutex);
}

static void op_plain(const struct fns *f)
{
	f->mutex_lock(&plain_mutex);
	f->mutex_unlock(&plain_mutex);
}

static void op_malloc(const struct fns *f)
{
	char *volatile p = f->malloc(64);

	p[0] = 1;
	f->free(p);
}

static void op_rwlock(const struct fns *f)
{
	f->rdlock(&rwlock);
	f->rwunlock(&rwlock);
}

static void op_mtx(const struct fns *f)
{
	f->mtx_lock(&c11_mtx);
	f->mtx_unlock(&c11_mtx);
}

static void op_sem_o(const struct fns *f)
{
	f->sem_post(&sem_o);
	f->sem_wait(&sem_o);
}

static void op_sem_r(const struct fns *f)
{
	f->sem_post(&sem_r);
	f->sem_wait(&sem_r);
}

static void op_cond(const struct fns *f)
{
	/* A futex wait costs microseconds here, and varies by as much: time the hook. */
	static const struct timespec bad = { 0, -1 };

	f->cond_timedwait(&cond, &cond_mutex, &bad);
}

static const struct timespec past = { 0, 0 };

static void op_semclock_o(const struct fns *f)
{
	f->sem_post(&sem_o);
	f->sem_clockwait(&sem_o, CLOCK_MONOTONIC, &past);
}

static void op_semclock_r(const struct fns *f)
{
	f->sem_post(&sem_r);
	f->sem_clockwait(&sem_r, CLOCK_MONOTONIC, &past);
}

static void op_poll(const struct fns *f)
{
	struct pollfd p = { event_fd, POLLIN, 0 };

	f->poll(&p, 1, 1000);
}

static void op_epoll(const struct fns *f)
{
	struct epoll_event ev;

	f->epoll_wait(ep, &ev, 1, 1000);
}

static void op_tfd_read(const struct fns *f)
{
	uint64_t v;

	if (f->read(tfd, &v, sizeof(v)) > 0)
		abort();	/* never armed */
}

static void op_read(const struct fns *f)
{
	uint64_t v;

	if (f->read(zero_fd, &v, sizeof(v)) < 0)
		abort();
}

static void op_fputc(const struct fns *f)
{
	f->fputc('x', devnull);
}

static void op_getrusage(const struct fns *f)
{
	struct rusage ru;

	(void)f;
	getrusage(RUSAGE_THREAD, &ru);
}

struct bench {
	const char *name;
	bool rt;
	void (*op)(const struct fns *f);
	int div;		/* run iterations / div: for the slower cases */
	bool periodic;		/* one absolute sleep before timing: RT work has begun */
	double hooked_ns, direct_ns;
	bool was_rt;
};

static long iterations = 2000000;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double block_ns(const struct bench *b, const struct fns *f)
{
	double t0 = now_ns();

	for (int i = 0; i < BLOCK; i++)
		b->op(f);
	return (now_ns() - t0) / BLOCK;
}

static void *run(void *arg)
{
	struct bench *b = arg;
	long blocks = iterations / (b->div ? b->div : 1) / BLOCK;
	struct sched_param sp;
	int policy;

	pthread_getschedparam(pthread_self(), &policy, &sp);
	b->was_rt = policy == SCHED_FIFO;
	if (b->periodic) {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	pthread_mutex_lock(&cond_mutex);	/* held for op_cond */
	/* Warm caches, the allocator arena, lazy binding. */
	(void)block_ns(b, &hooked);
	(void)block_ns(b, &direct);
	b->hooked_ns = b->direct_ns = 1e18;
	for (long i = 0; i < blocks; i++) {
		double h = block_ns(b, &hooked), d = block_ns(b, &direct);

		if (h < b->hooked_ns)
			b->hooked_ns = h;
		if (d < b->direct_ns)
			b->direct_ns = d;
	}
	pthread_mutex_unlock(&cond_mutex);
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

#define SET(field, name) (hooked.field = name, direct.field = (__typeof__(direct.field))dlsym(libc, #name))

static void setup(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct epoll_event ev = { .events = EPOLLIN };
	uint64_t one = 1;

	if (!libc) {
		fprintf(stderr, "preload-bench: no libc.so.6 loaded (glibc only)\n");
		exit(2);
	}
	SET(mutex_lock, pthread_mutex_lock);
	SET(mutex_unlock, pthread_mutex_unlock);
	SET(malloc, malloc);
	SET(free, free);
	SET(rdlock, pthread_rwlock_rdlock);
	SET(rwunlock, pthread_rwlock_unlock);
	SET(mtx_lock, mtx_lock);
	SET(mtx_unlock, mtx_unlock);
	SET(sem_post, sem_post);
	SET(sem_wait, sem_wait);
	SET(sem_clockwait, sem_clockwait);
	SET(cond_timedwait, pthread_cond_timedwait);
	SET(poll, poll);
	SET(epoll_wait, epoll_wait);
	SET(read, read);
	SET(fputc, fputc);
	for (size_t i = 0; i < sizeof(direct) / sizeof(void *); i++)
		if (!((void **)(void *)&direct)[i]) {
			fprintf(stderr, "preload-bench: a libc function is missing\n");
			exit(2);
		}

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi_mutex, &ma);
	pthread_mutex_init(&cond_mutex, &ma);
	mtx_init(&c11_mtx, mtx_plain);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &ca);
	sem_init(&sem_o, 0, 0);
	sem_init(&sem_r, 0, 0);
	event_fd = eventfd(0, EFD_NONBLOCK);
	/* Ready for ever: nothing reads it. */
	if (event_fd < 0 || write(event_fd, &one, sizeof(one)) != sizeof(one))
		exit(2);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	ep = epoll_create1(0);
	ev.data.fd = event_fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, event_fd, &ev);
	zero_fd = open("/dev/zero", O_RDONLY);
	devnull = fopen("/dev/null", "w");
	if (tfd < 0 || ep < 0 || zero_fd < 0 || !devnull)
		exit(2);
}

int main(int argc, char **argv)
{
	struct bench cases[] = {
		{ "pi_lock_rt", true, op_pi, 1, false, 0, 0, false },
		{ "plain_lock", false, op_plain, 1, false, 0, 0, false },
		{ "malloc_other", false, op_malloc, 1, false, 0, 0, false },
		{ "malloc_rt_setup", true, op_malloc, 1, false, 0, 0, false },
		{ "plain_lock_rt", true, op_plain, 1, false, 0, 0, false },
		{ "rwlock_other", false, op_rwlock, 1, false, 0, 0, false },
		{ "rwlock_rt", true, op_rwlock, 1, true, 0, 0, false },
		{ "mtx_other", false, op_mtx, 1, false, 0, 0, false },
		{ "mtx_rt", true, op_mtx, 1, true, 0, 0, false },
		{ "sem_other", false, op_sem_o, 1, false, 0, 0, false },
		{ "sem_rt", true, op_sem_r, 1, true, 0, 0, false },
		{ "cond_other", false, op_cond, 1, false, 0, 0, false },
		{ "cond_rt", true, op_cond, 1, true, 0, 0, false },
		{ "semclock_other", false, op_semclock_o, 1, false, 0, 0, false },
		{ "semclock_rt", true, op_semclock_r, 1, true, 0, 0, false },
		{ "poll_other", false, op_poll, 20, false, 0, 0, false },
		{ "poll_rt", true, op_poll, 20, true, 0, 0, false },
		{ "epoll_other", false, op_epoll, 20, false, 0, 0, false },
		{ "epoll_rt", true, op_epoll, 20, true, 0, 0, false },
		{ "tfd_read_other", false, op_tfd_read, 20, false, 0, 0, false },
		{ "tfd_read_rt", true, op_tfd_read, 20, true, 0, 0, false },
		{ "read_other", false, op_read, 20, false, 0, 0, false },
		{ "fputc_other", false, op_fputc, 1, false, 0, 0, false },
		{ "getrusage_ref", false, op_getrusage, 20, false, 0, 0, false },
	};

	if (argc > 1)
		iterations = atol(argv[1]) > 0 ? atol(argv[1]) : iterations;
	setup();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		start(&cases[i]);
		printf("%s %.2f %.2f%s\n", cases[i].name, cases[i].hooked_ns, cases[i].direct_ns,
		       cases[i].rt && !cases[i].was_rt ? " (not RT: no privilege)" : "");
	}
	return 0;
}
