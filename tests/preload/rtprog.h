/* SPDX-License-Identifier: MIT */
/*
 * Shared skeleton of the preload test programs: the memory set-up of the
 * checklist and one SCHED_FIFO thread running a short absolute-time
 * periodic loop. Each fail_*.c program changes exactly one step of this
 * (through the hooks below) and must get exactly one finding id;
 * pass_*.c programs must get none. Header-only so that every program is a
 * single file.
 */
#ifndef RTR_TESTS_PRELOAD_RTPROG_H
#define RTR_TESTS_PRELOAD_RTPROG_H

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_NS 1000000L
#define PERIODS 20
#define BUF_BYTES (256 * 1024)

struct rt_job {
	void (*work)(struct rt_job *job, int period);	/* one period's work */
	void (*prepare)(struct rt_job *job);		/* on the RT thread, before the loop */
	clockid_t clock;				/* clock of the sleep */
	int flags;					/* TIMER_ABSTIME or 0 */
	int prio;
	int periods;
	pthread_mutex_t *lock;				/* taken in each period */
	unsigned char *buf;				/* touched in each period */
	volatile unsigned long sum;
};

static inline void die(const char *what, int err)
{
	fprintf(stderr, "%s: %s\n", what, strerror(err));
	exit(3);
}

/* Step 1 and 2 of the checklist's memory set-up. */
static inline void set_mallopt(void)
{
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, -1);
}

static inline void lock_memory(int flags)
{
	if (mlockall(flags) < 0)
		die("mlockall", errno);
}

static inline void init_pi_mutex(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

/* Touch the job's buffer (prefaulted before the loop unless a test says otherwise). */
static inline void work_default(struct rt_job *job, int period)
{
	if (job->lock)
		pthread_mutex_lock(job->lock);
	for (int i = 0; i < 64; i++)
		job->buf[(period * 64 + i) % BUF_BYTES] ^= (unsigned char)i;
	job->sum += job->buf[period];
	if (job->lock)
		pthread_mutex_unlock(job->lock);
}

static inline void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static inline void *rt_loop(void *arg)
{
	struct rt_job *job = arg;
	struct timespec next;

	if (job->prepare)
		job->prepare(job);
	clock_gettime(job->clock, &next);
	for (int p = 0; p < job->periods; p++) {
		if (job->flags == TIMER_ABSTIME) {
			ts_add(&next, PERIOD_NS);
		} else {
			next.tv_sec = 0;
			next.tv_nsec = PERIOD_NS;
		}
		while (clock_nanosleep(job->clock, job->flags, &next, NULL) == EINTR)
			;
		job->work(job, p);
	}
	return NULL;
}

/*
 * A thread's first malloc() makes its allocator arena (new mappings, page
 * faults): a thread that will allocate does it once before its loop.
 */
static inline void warm_arena(struct rt_job *job)
{
	char *volatile p = malloc(64);

	p[0] = 1;
	job->sum += (unsigned char)p[0];
	free(p);
}

/* A prefaulted buffer, allocated before any realtime work. */
static inline unsigned char *prefaulted_buffer(void)
{
	unsigned char *b = malloc(BUF_BYTES);

	if (!b)
		die("malloc", ENOMEM);
	memset(b, 1, BUF_BYTES);
	return b;
}

static inline void job_defaults(struct rt_job *job, pthread_mutex_t *pi)
{
	memset(job, 0, sizeof(*job));
	job->work = work_default;
	job->clock = CLOCK_MONOTONIC;
	job->flags = TIMER_ABSTIME;
	job->prio = 50;
	job->periods = PERIODS;
	job->lock = pi;
	job->buf = prefaulted_buffer();
}

/* Start @loop(@job) on a SCHED_FIFO thread with a 256 KiB stack (locked by MCL_FUTURE). */
static inline pthread_t rt_spawn(struct rt_job *job, void *(*loop)(void *))
{
	struct sched_param sp = { .sched_priority = job->prio };
	pthread_attr_t a;
	pthread_t t;
	int rc;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 256 * 1024);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	rc = pthread_create(&t, &a, loop, job);
	pthread_attr_destroy(&a);
	if (rc)
		die("pthread_create (SCHED_FIFO needs root or CAP_SYS_NICE)", rc);
	return t;
}

/* rt_spawn(), and wait for the loop to end. */
static inline void rt_run_loop(struct rt_job *job, void *(*loop)(void *))
{
	pthread_join(rt_spawn(job, loop), NULL);
}

/* Start @job's RT loop (rt_loop). */
static inline pthread_t rt_start(struct rt_job *job)
{
	return rt_spawn(job, rt_loop);
}

/*
 * The RT child of the killed-process programs: the right set-up, then
 * @work every period on one RT thread until its parent kills it.
 */
static inline void rt_run_until_killed(void (*work)(struct rt_job *, int))
{
	pthread_mutex_t pi;
	struct rt_job job;

	lock_memory(MCL_CURRENT | MCL_FUTURE);
	init_pi_mutex(&pi);
	job_defaults(&job, &pi);
	job.periods = 1000000;	/* runs until killed */
	job.work = work;
	job.prepare = warm_arena;
	rt_run_loop(&job, rt_loop);
	exit(0);
}

/* Let the child @pid run 300 ms (many periods), then SIGKILL and reap it. */
static inline void kill_after_300ms(pid_t pid)
{
	struct timespec wait = { 0, 300000000 };

	nanosleep(&wait, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The right set-up and one RT loop: the program every test starts from. */
static inline int run_good(struct rt_job *job)
{
	pthread_join(rt_start(job), NULL);
	return 0;
}

#endif
