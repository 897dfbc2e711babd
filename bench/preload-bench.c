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
 * The RT cases fall back to SCHED_OTHER (and say so) without privileges.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7

struct bench {
	const char *name;
	bool rt;
	void (*loop)(long n);
	double best_ns;
	bool was_rt;
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

	pthread_getschedparam(pthread_self(), &policy, &sp);
	b->was_rt = policy == SCHED_FIFO;
	b->loop(iterations / 10);	/* warm caches, the allocator arena, lazy binding */
	b->best_ns = 1e18;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		b->loop(iterations);
		double ns = (now_ns() - t0) / (double)iterations;
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
		{ "pi_lock_rt", true, loop_pi, 0, false },
		{ "plain_lock", false, loop_plain, 0, false },
		{ "malloc_other", false, loop_malloc, 0, false },
		{ "malloc_rt_setup", true, loop_malloc, 0, false },
		{ "plain_lock_rt", true, loop_plain, 0, false },
	};
	pthread_mutexattr_t ma;

	if (argc > 1)
		iterations = atol(argv[1]) > 0 ? atol(argv[1]) : iterations;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi_mutex, &ma);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		start(&cases[i]);
		printf("%s %.2f%s\n", cases[i].name, cases[i].best_ns,
		       cases[i].rt && !cases[i].was_rt ? " (not RT: no privilege)" : "");
	}
	return 0;
}
